import { userInfo } from 'node:os'
import { ConfigError } from '../config/config-error.ts'
import { readSettings, type Settings } from '../config/env.ts'
import { closeContext, createContext, type AppContext } from '../context.ts'
import { systemClock } from '../domain/clock.ts'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import type { Actor } from '../store/audit.ts'
import { CliFailure } from './failure.ts'
import type { CliIo } from './io.ts'

/** The CLI in the audit log: the system, as `cli`, with the operating-system user who ran it. */
export function cliActor(io: CliIo): Actor {
  let user: string
  try {
    user = userInfo().username
  } catch {
    // Containers may run as a user id with no passwd entry.
    user = io.env.USER || `uid ${process.getuid?.() ?? '?'}`
  }
  return { type: 'system', id: 'cli', name: `cli (${user})` }
}

export interface CliContext {
  context: AppContext
  settings: Settings
}

/**
 * Runs `work` on the context the server would build from the same DATABASE_URL and
 * TOURDESK_CONFIG (the one composition root), migrating first so a fresh database works,
 * and closes it afterwards. Rate limits stay off: the CLI answers to no one over HTTP. The
 * file seeds an empty database as at the server's start, but whether it differs from the
 * database is the server's start-up line, not every command's.
 */
export async function withContext<T>(io: CliIo, work: (cli: CliContext) => Promise<T>): Promise<T> {
  const settings = readSettings(io.env)
  const context = await createContext({ ...settings, migrateOnStart: true, rateLimits: false }, systemClock, { warn: (_details, message) => io.say(message) }, { reportCatalogDrift: false })
    .catch((err: unknown) => {
      if (err instanceof ConfigError) throw err
      throw new CliFailure(`cannot open the ${settings.database.dialect} database: ${err instanceof Error ? err.message : String(err)}`)
    })
  try {
    return await work({ context, settings })
  } finally {
    await closeContext(context)
  }
}

/** The origin staff reach the server at (TOURDESK_PUBLIC_URL, else HOST and PORT), for the links the CLI prints. */
export function serverOrigin(settings: Settings): string {
  return settings.publicUrl
}

/** The instance `--instance` names, by prefix. */
export function instanceNamed(context: AppContext, prefix: string): InstanceCatalog {
  const catalog = context.catalogs.get(prefix)
  if (!catalog) throw new CliFailure(`no instance has the prefix "${prefix}"; the catalog has ${[...context.catalogs.keys()].join(', ')}`)
  return catalog
}
