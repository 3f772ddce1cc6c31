import { type Kysely, Migrator, sql } from 'kysely'
import { guestSideMigrations } from './migrations/guest-side.ts'
import { operatorSideMigrations } from './migrations/operator-side.ts'
import { outboxMigrations } from './migrations/outbox.ts'
import { priceCategoryMigrations } from './migrations/price-categories.ts'
import { translationMigrations } from './migrations/translations.ts'
import { resellerMigrations } from './migrations/resellers.ts'
import { bookingLanguageMigrations } from './migrations/booking-language.ts'

/**
 * Written with Kysely's schema builder, so the same steps run on SQLite and PostgreSQL; the
 * only dialect-specific steps are PostgreSQL's change notification (004, 007) and rekeying
 * (008). Kysely applies them in the order of their ids, whatever file holds them: a new one
 * takes the next id and goes into the file of its side (or a new file listed here).
 */
const migrationsFor = (dialect: 'sqlite' | 'postgres') => ({
  ...guestSideMigrations(dialect),
  ...operatorSideMigrations(dialect),
  ...outboxMigrations(),
  ...priceCategoryMigrations(),
  ...translationMigrations(),
  ...resellerMigrations(),
  ...bookingLanguageMigrations(),
})

/**
 * Applies pending migrations. On PostgreSQL the bookkeeping tables go into the connection's
 * current schema: left unnamed, Kysely would take a table of that name in any schema of the
 * database for its own. Kysely holds an advisory lock meanwhile, so nodes starting together
 * migrate one after another.
 */
export async function migrateToLatest(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const migrationTableSchema = dialect === 'postgres'
    ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0].schema
    : undefined
  const migrator = new Migrator({ db, migrationTableSchema, provider: { getMigrations: async () => migrationsFor(dialect) } })
  const { error, results } = await migrator.migrateToLatest()
  const failed = results?.find((r) => r.status === 'Error')
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${(error as Error)?.message ?? 'unknown error'}`)
  }
}
