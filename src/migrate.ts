import { ConfigError } from './config/config-error.ts'
import { readSettings } from './config/env.ts'
import { openStore } from './store/store.ts'

/** `npm run migrate`: applies pending migrations to DATABASE_URL and exits; safe beside running nodes. */
async function main(): Promise<void> {
  const settings = readSettings()
  const store = await openStore(settings.database, { migrate: true })
  await store.close()
  process.stdout.write(`tourdesk: ${settings.database.dialect} database is migrated to the latest schema\n`)
}

main().catch((err) => {
  const reason = err instanceof ConfigError ? `invalid configuration: ${err.message}` : `migration failed: ${err instanceof Error ? err.message : String(err)}`
  process.stderr.write(`tourdesk: ${reason}\n`)
  process.exit(1)
})
