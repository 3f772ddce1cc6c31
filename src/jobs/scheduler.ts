import { setTimeout as sleep } from 'node:timers/promises'
import type { Temporal } from 'temporal-polyfill'
import type { Clock } from '../domain/clock.ts'

/** Work done in the background, on every node; a task that must run on one node at a time takes a lease inside `run`. */
export interface Task {
  name: string
  /** How often it runs, counted from the end of its last run. */
  everyMs: number
  /**
   * What it did, for the log (nothing is logged when it did nothing). `stopping` is aborted
   * when the node stops: a task that works through a batch takes no new work after it (what it
   * claimed and left is its lease's to give back).
   */
  run(now: Temporal.Instant, stopping: AbortSignal): Promise<Record<string, number> | void>
}

export interface SchedulerLog {
  info(details: object, message: string): void
  error(details: object, message: string): void
}

/** How long stop() waits for runs in progress (an attempt at a receiver that never answers included). */
export const STOP_GRACE_MS = 5_000

/**
 * The one scheduler of a node: each task runs every `everyMs`, never overlapping itself, until
 * stop(), which tells the runs in progress to take no new work and waits for them STOP_GRACE_MS
 * at most. Tests do not start it: they call `runNow` on the injected clock instead of waiting.
 */
export class Scheduler {
  #tasks = new Map<string, Task>()
  #timers = new Map<string, NodeJS.Timeout>()
  #running = new Map<string, Promise<void>>()
  #stopped = true
  #stopping = new AbortController()
  #stop: Promise<void> | null = null
  #clock: Clock
  #log: SchedulerLog

  constructor(clock: Clock, log: SchedulerLog) {
    this.#clock = clock
    this.#log = log
  }

  add(task: Task): this {
    this.#tasks.set(task.name, task)
    return this
  }

  start(): void {
    this.#stopped = false
    for (const task of this.#tasks.values()) this.#schedule(task)
  }

  /** Runs the task now (after its run in progress, if any); answers what it did. */
  async runNow(name: string): Promise<Record<string, number> | void> {
    const task = this.#tasks.get(name)
    if (!task) throw new Error(`no task named ${name}`)
    await this.#running.get(name)
    return task.run(this.#clock.now(), this.#stopping.signal)
  }

  /** Starts no run from now on; answers when the runs in progress have ended, or after `graceMs`, whichever comes first. */
  stop(graceMs = STOP_GRACE_MS): Promise<void> {
    this.#stop ??= (async () => {
      this.#stopped = true
      this.#stopping.abort()
      for (const timer of this.#timers.values()) clearTimeout(timer)
      this.#timers.clear()
      const grace = new AbortController()
      await Promise.race([Promise.all(this.#running.values()), sleep(graceMs, undefined, { signal: grace.signal }).catch(() => undefined)])
      grace.abort()
    })()
    return this.#stop
  }

  #schedule(task: Task): void {
    if (this.#stopped) return
    this.#timers.set(task.name, setTimeout(() => {
      const run = task.run(this.#clock.now(), this.#stopping.signal)
        .then((report) => { if (report && Object.values(report).some((n) => n > 0)) this.#log.info({ task: task.name, ...report }, task.name) })
        .catch((err) => this.#log.error({ err, task: task.name }, `${task.name} failed`))
        .finally(() => {
          this.#running.delete(task.name)
          this.#schedule(task)
        })
      this.#running.set(task.name, run)
    }, task.everyMs).unref())
  }
}
