import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
/**
 * A start on a fresh PostgreSQL schema (every migration) took over 20 s on a loaded two-core
 * machine, and a start on SQLite over 60 s with other test files running beside it on a
 * machine other work kept at a load average of 30. A process that fails exits and is reported
 * at once; this bounds only a start that hangs.
 */
const START_MS = 180_000

export interface ServerProcess {
  child: ChildProcess
  origin: string
  /** Everything the process has printed so far, for diagnosing a failure. */
  output(): string
  /** Sends SIGKILL (a crash) or SIGTERM (a clean stop) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>
}

/**
 * Starts `src/server.ts` (or what `nodeArgs` names, such as a bundle of `npm run build`) as its
 * own process on a free port and waits until it prints its base URLs.
 */
export async function startServer(env: Record<string, string>, nodeArgs = ['--import', 'tsx', 'src/server.ts']): Promise<ServerProcess> {
  const child = spawn(process.execPath, nodeArgs, {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', TOURDESK_RATE_LIMITS: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`server did not start in ${START_MS / 1000} s:\n${output}`))
    }, START_MS)
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk
      const match = /"base_url":"(http:\/\/[^/"]+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve(match[1])
      }
    })
    child.stderr!.on('data', (chunk: Buffer) => { output += chunk })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code} before it started:\n${output}`))
    })
  })
  return {
    child,
    origin,
    output: () => output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = once(child, 'exit')
      child.kill(signal)
      await exited
    },
  }
}
