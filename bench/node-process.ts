import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { readProcessMemory } from './process-memory.ts'

export const ROOT = fileURLToPath(new URL('../', import.meta.url))

const START_TIMEOUT_MS = 60_000
const STOP_TIMEOUT_MS = 15_000
/** Enough of the output to explain a failure, without keeping millions of request log lines. */
const OUTPUT_TAIL_CHARS = 16_384
const BASE_URL = /"base_url":"(http:\/\/[^"]+)"/

export interface StartOptions {
  /** Script under the repository root, run with `node --import tsx`, that prints `"base_url":"http://…"` once it listens. */
  script: string
  env: Record<string, string>
  nodeArgs?: string[]
  /** Path under the base URL whose first 200 answer ends the cold start. */
  firstAnswerPath: string
}

export interface StartedProcess {
  pid: number
  /** The first base URL the process printed. */
  baseUrl: string
  /** From spawn to the first 200 answer: loading TypeScript, the catalog, migrations, listen. */
  coldStartMs: number
  /** VmHWM: the highest resident size the process has reached so far. */
  peakRssBytes(): number | null
  outputTail(): string
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

export async function startNodeProcess(options: StartOptions): Promise<StartedProcess> {
  const startedAt = performance.now()
  const child = spawn(process.execPath, [...options.nodeArgs ?? [], '--import', 'tsx', options.script], {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(child)
  child.once('exit', () => running.delete(child))
  let tail = ''
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-OUTPUT_TAIL_CHARS)
  }
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)

  const stop = async () => {
    if (hasExited(child)) return
    const exited = once(child, 'exit')
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
    await exited
    clearTimeout(timer)
  }

  try {
    const baseUrl = await new Promise<string>((resolve, reject) => {
      let printed = ''
      const timer = setTimeout(() => reject(new Error(`${options.script} did not start in ${START_TIMEOUT_MS / 1000} s:\n${tail}`)), START_TIMEOUT_MS)
      const onData = (chunk: Buffer) => {
        printed += chunk
        const match = BASE_URL.exec(printed)
        if (!match) return
        clearTimeout(timer)
        child.stdout!.off('data', onData)
        resolve(match[1])
      }
      child.stdout!.on('data', onData)
      child.once('exit', (code, signal) => {
        clearTimeout(timer)
        reject(new Error(`${options.script} exited (${code ?? signal}) before it started:\n${tail}`))
      })
    })
    const answer = await fetch(`${baseUrl}${options.firstAnswerPath}`)
    await answer.arrayBuffer()
    if (answer.status !== 200) throw new Error(`first request to ${options.script} answered ${answer.status}:\n${tail}`)
    const coldStartMs = performance.now() - startedAt
    return {
      pid: child.pid!,
      baseUrl,
      coldStartMs,
      peakRssBytes: () => readProcessMemory(child.pid!)?.peakBytes ?? null,
      outputTail: () => tail,
      stop,
    }
  } catch (err) {
    await stop()
    throw err
  }
}
