import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs `tourdesk <args>` as its own process (as `npm run tourdesk --` does, without npm's banner), stdin given or empty. */
export async function runCli(args: string[], options: { env: Record<string, string>, stdin?: string }): Promise<CliRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk })
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk })
  child.stdin.end(options.stdin ?? '')
  // A guard against a command that hangs: on a machine loaded by other work, with test files
  // running side by side, a command that loads the whole of src/ through tsx took over 30 s.
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000)
  const [code] = await once(child, 'close') as [number | null]
  clearTimeout(timer)
  return { code, stdout, stderr }
}
