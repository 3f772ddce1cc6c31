import { processIo } from './io.ts'
import { runCli } from './program.ts'

// `tourdesk … | head` closes stdout early: that is the reader's choice, not a failure.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err
  process.exit(0)
})

// The exit status is set, not forced with process.exit, so stdout drains into a pipe first.
process.exitCode = await runCli(process.argv.slice(2), processIo())
