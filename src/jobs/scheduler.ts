import type { Temporal } from 'temporal-polyfill'
import type { Clock } from '../domain/clock.ts'

/** Work done in the background, on every node; a task that must run on one node at a time takes a lease inside `run`. */
export interface Task {
  name: string
  /** How often it runs, counted from the end of its last run. */
  everyMs: number
  /** What it did, for the log (nothing is logged when it did nothing). */
  run(now: Temporal.Instant): Promise<Record<string, number> | void>
}

export interface SchedulerLog {
  info(details: object, message: string): void
  error(details: object, message: string): void
}

/**
 * The one scheduler of a node: each task runs every `everyMs`, never overlapping itself, until
 * stop(), which waits for runs in progress. Tests do not start it: they call `runNow` on the
 * injected clock instead of waiting.
 */
export class Scheduler {
  #tasks = new Map<string, Task>()
  #timers = new Map<string, NodeJS.Timeout>()
  #running = new Map<string, Promise<void>>()
  #stopped = true
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
    return task.run(this.#clock.now())
  }

  async stop(): Promise<void> {
    this.#stopped = true
    for (const timer of this.#timers.values()) clearTimeout(timer)
    this.#timers.clear()
    await Promise.all(this.#running.values())
  }

  #schedule(task: Task): void {
    if (this.#stopped) return
    this.#timers.set(task.name, setTimeout(() => {
      const run = task.run(this.#clock.now())
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
