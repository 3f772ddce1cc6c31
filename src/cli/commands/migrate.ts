import { Command } from 'commander'
import { readSettings } from '../../config/env.ts'
import { openStore } from '../../store/store.ts'
import type { CliIo } from '../io.ts'

/** `tourdesk migrate` (and `npm run migrate`): applies pending migrations to DATABASE_URL; safe beside running nodes. */
export function migrateCommand(io: CliIo): Command {
  return new Command('migrate')
    .description('apply pending migrations to the database DATABASE_URL names; every other command does this first too')
    .action(async () => {
      const settings = readSettings(io.env)
      const store = await openStore(settings.database, { migrate: true })
      await store.close()
      io.say(`the ${settings.database.dialect} database is migrated to the latest schema`)
    })
}
