import { Command, CommanderError } from 'commander'
import { ConfigError } from '../config/config-error.ts'
import { ApiError, type FieldError } from '../errors/api-error.ts'
import { bookingsCommand } from './commands/bookings.ts'
import { catalogCommand } from './commands/catalog.ts'
import { keysCommand } from './commands/keys.ts'
import { manifestCommand } from './commands/manifest.ts'
import { migrateCommand } from './commands/migrate.ts'
import { privacyCommand } from './commands/privacy.ts'
import { resellersCommand } from './commands/resellers.ts'
import { staffCommand } from './commands/staff.ts'
import { EXIT } from './failure.ts'
import type { CliIo } from './io.ts'

function program(io: CliIo): Command {
  const root = new Command('tourdesk')
    .description('Work on the tourdesk database directly: staff accounts, API keys, bookings, manifests, the catalog, privacy requests, migrations.\n'
      + 'Reads DATABASE_URL and TOURDESK_CONFIG like the server. Results go to stdout, messages to stderr; '
      + 'exit 0 on success, 1 on failure, 2 on a usage error.')
    .addCommand(staffCommand(io))
    .addCommand(keysCommand(io))
    .addCommand(bookingsCommand(io))
    .addCommand(manifestCommand(io))
    .addCommand(resellersCommand(io))
    .addCommand(catalogCommand(io))
    .addCommand(privacyCommand(io))
    .addCommand(migrateCommand(io))
  // Commander writes help and usage errors to the process's streams unless told otherwise.
  const output = {
    writeOut: (text: string) => io.streams.stdout.write(text),
    writeErr: (text: string) => io.streams.stderr.write(text),
    // A terminal's width, else the 80 columns Commander falls back to.
    getOutHelpWidth: () => (io.streams.stdout.isTTY && io.streams.stdout.columns) || 80,
    getErrHelpWidth: () => (io.streams.stderr.isTTY && io.streams.stderr.columns) || 80,
  }
  everyCommand(root, (command) => command.exitOverride().showHelpAfterError('(add --help for usage)').configureOutput(output))
  return root
}

/** Commands built on their own and added with addCommand do not inherit settings: each gets them here. */
function everyCommand(command: Command, apply: (command: Command) => void): void {
  apply(command)
  for (const sub of command.commands) everyCommand(sub, apply)
}

/** The one line that says why a command failed. */
function reasonOf(err: unknown): string {
  if (err instanceof ConfigError) return `invalid configuration: ${err.message}`
  const fields = err instanceof ApiError && err.code === 'validation_failed' ? err.extra.errors as FieldError[] | undefined : undefined
  if (fields?.length) return `${(err as Error).message} (${fields.map((e) => `${e.field} ${e.message}`).join('; ')})`
  return err instanceof Error ? err.message : String(err)
}

/**
 * Runs one command line (without the node and script arguments) on the given streams and
 * environment; answers the exit status and never exits the process.
 */
export async function runCli(args: string[], io: CliIo): Promise<number> {
  try {
    await program(io).parseAsync(args, { from: 'user' })
    return EXIT.ok
  } catch (err) {
    // Commander has already printed what was wrong with the command line, or the help asked for.
    if (err instanceof CommanderError) return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? EXIT.ok : EXIT.usage
    io.say(reasonOf(err))
    return EXIT.failure
  }
}
