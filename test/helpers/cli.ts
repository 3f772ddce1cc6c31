import assert from 'node:assert/strict'
import { Readable, Writable } from 'node:stream'
import { CliIo } from '../../src/cli/io.ts'
import { runCli as runCommandLine } from '../../src/cli/program.ts'
import type { CliRun } from './cli-process.ts'

export type { CliRun } from './cli-process.ts'

/** A stream that keeps what is written to it, as a pipe to the test would (not a terminal). */
function captured(): { stream: Writable, text(): string } {
  const chunks: Buffer[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk)
      done()
    },
  })
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') }
}

/**
 * Runs `tourdesk <args>` in this process through the CLI's own entry (src/cli/program.ts) on
 * streams the test reads back, with the environment a process would have (this one's, with
 * `env` over it) and stdin given or empty: the same command, database and output as
 * test/helpers/cli-process.ts's process, without the seconds it takes to load src/ into a new
 * one. What only a process shows (exit codes as the shell sees them, the bin) is tested there.
 */
export async function runCli(args: string[], options: { env: Record<string, string>, stdin?: string }): Promise<CliRun> {
  const stdout = captured()
  const stderr = captured()
  const stdin = Readable.from(options.stdin ? [Buffer.from(options.stdin)] : [])
  const io = new CliIo({ stdout: stdout.stream, stderr: stderr.stream, stdin, env: { ...process.env, ...options.env } })
  const code = await runCommandLine(args, io)
  return { code, stdout: stdout.text(), stderr: stderr.text() }
}

/** Exit 0, or a failure that shows what the command printed. */
export function succeeded(run: CliRun): CliRun {
  assert.equal(run.code, 0, `exit ${run.code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`)
  return run
}

/** Exit 1, nothing on stdout, and one line on stderr that says why. */
export function failed(run: CliRun, why: RegExp): void {
  assert.equal(run.code, 1, `exit ${run.code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`)
  assert.equal(run.stdout, '')
  assert.match(run.stderr, /^tourdesk: [^\n]+\n$/)
  assert.match(run.stderr, why)
}
