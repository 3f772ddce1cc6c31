import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { closeSync, openSync, readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { readProcessMemory } from './process-memory.ts'

export const ROOT = fileURLToPath(new URL('../', import.meta.url))

const START_TIMEOUT_MS = 60_000
const STOP_TIMEOUT_MS = 15_000
/** How often the log is read for the base URL while the process starts. */
const START_POLL_MS = 5
const OUTPUT_TAIL_CHARS = 8_192
const BASE_URL = /"base_url":"(http:\/\/[^"]+)"/

export interface StartOptions {
  /** Script under the repository root (TypeScript through tsx, JavaScript with plain node) that prints `"base_url":"http://…"` once it listens. */
  script: string
  env: Record<string, string>
  nodeArgs?: string[]
  /**
   * The process's stdout and stderr go to this file, as they would to a log file or the
   * journal: a pipe read by the load generator's own busy process would fill up and stall
   * the service's synchronous logging.
   */
  logPath: string
  /** Path under the base URL whose first 200 answer ends the cold start. */
  firstAnswerPath: string
  /** The source tree to run from (the script is under it); this checkout by default. */
  cwd?: string
}

export interface StartedProcess {
  pid: number
  /** The first base URL the process printed. */
  baseUrl: string
  /** From spawn to the first 200 answer: loading the code, the catalog, migrations, listen. */
  coldStartMs: number
  /** VmHWM: the highest resident size the process has reached so far. */
  peakRssBytes(): number | null
  /** SIGTERM (a graceful stop), then SIGKILL if it does not exit in time. */
  stop(): Promise<void>
}

const running = new Set<ChildProcess>()
// A bench that fails half-way must not leave services behind.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null
}

function logTail(path: string): string {
  return readFileSync(path, 'utf8').slice(-OUTPUT_TAIL_CHARS)
}

export async function startNodeProcess(options: StartOptions): Promise<StartedProcess> {
  const startedAt = performance.now()
  const log = openSync(options.logPath, 'w')
  const loader = options.script.endsWith('.ts') ? ['--import', 'tsx'] : []
  const child = spawn(process.execPath, [...options.nodeArgs ?? [], ...loader, options.script], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', log, log],
  })
  closeSync(log)
  running.add(child)
  child.once('exit', () => running.delete(child))

  const stop = async () => {
    if (hasExited(child)) return
    const exited = once(child, 'exit')
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
    await exited
    clearTimeout(timer)
  }

  try {
    let baseUrl: string | undefined
    while (baseUrl === undefined) {
      if (hasExited(child)) throw new Error(`${options.script} exited (${child.exitCode ?? child.signalCode}) before it started:\n${logTail(options.logPath)}`)
      if (performance.now() - startedAt > START_TIMEOUT_MS) throw new Error(`${options.script} did not start in ${START_TIMEOUT_MS / 1000} s:\n${logTail(options.logPath)}`)
      baseUrl = BASE_URL.exec(readFileSync(options.logPath, 'utf8'))?.[1]
      if (baseUrl === undefined) await sleep(START_POLL_MS)
    }
    const answer = await fetch(`${baseUrl}${options.firstAnswerPath}`)
    await answer.arrayBuffer()
    if (answer.status !== 200) throw new Error(`first request to ${options.script} answered ${answer.status}:\n${logTail(options.logPath)}`)
    const coldStartMs = performance.now() - startedAt
    return {
      pid: child.pid!,
      baseUrl,
      coldStartMs,
      peakRssBytes: () => readProcessMemory(child.pid!)?.peakBytes ?? null,
      stop,
    }
  } catch (err) {
    await stop()
    throw err
  }
}
