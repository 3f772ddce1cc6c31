import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

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

let bundleOfThisProcess: Promise<string> | null = null

/**
 * The service as `npm start` runs it: src/server.ts bundled by scripts/build.ts, built from the
 * sources as they are once per test process (scripts/test.sh builds one for the whole run and
 * names it in TOURDESK_TEST_SERVER_BUNDLE). Plain node starts it in about a third of the time
 * a start through tsx takes, which loads and compiles every TypeScript file of src/ again in
 * each process (docs/testing.md). Inside the project, so that it finds node_modules.
 */
export function serverBundle(): Promise<string> {
  bundleOfThisProcess ??= (async () => {
    const given = process.env.TOURDESK_TEST_SERVER_BUNDLE
    if (given) return given
    const dir = join(ROOT, 'test-output', `server-${process.pid}`)
    mkdirSync(dir, { recursive: true })
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
    const bundle = join(dir, 'server.js')
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--outfile', bundle], { cwd: ROOT })
    return bundle
  })()
  return bundleOfThisProcess
}

/**
 * Starts the service (the bundle of src/server.ts, or what `nodeArgs` names) as its own
 * process on a free port and waits until it prints its base URLs.
 */
export async function startServer(env: Record<string, string>, nodeArgs?: string[]): Promise<ServerProcess> {
  const child = spawn(process.execPath, nodeArgs ?? [await serverBundle()], {
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
