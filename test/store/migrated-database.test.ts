import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sql } from 'kysely'
import { openDatabase, type Database } from '../../src/store/database.ts'
import { migrateToLatest } from '../../src/store/migrations.ts'
import { startService } from '../helpers/build.ts'
import { freshDatabase, migratedDatabase, testDialect, type FreshDatabase } from '../helpers/database.ts'
import { schemaShape } from '../helpers/migrated-schemas.ts'

/**
 * The tests start their services on `migratedDatabase` (test/helpers/database.ts), which runs
 * the migrations once per process and copies (SQLite) or empties and hands on (PostgreSQL)
 * their result. A test must not be able to tell it from a database it migrated itself.
 */

async function withDatabase<T>(database: FreshDatabase, work: (db: Database) => Promise<T>): Promise<T> {
  const opened = openDatabase(database.target)
  try {
    return await work(opened)
  } finally {
    await opened.close()
  }
}

function schemaOf(database: FreshDatabase): string {
  return new URL(database.url).searchParams.get('options')!.replace('-c search_path=', '')
}

/** Everything the migrations made, compared by text: SQLite's own schema table, or PostgreSQL's catalog digest. */
async function shapeOf(database: FreshDatabase): Promise<string> {
  if (database.target.dialect === 'postgres') return schemaShape(database.target.url, schemaOf(database))
  return withDatabase(database, async ({ db }) => {
    const { rows } = await sql<{ type: string, name: string, sql: string | null }>`select type, name, sql from sqlite_master order by name`.execute(db)
    const migrations = (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((row) => row.name)
    return JSON.stringify({ rows, migrations })
  })
}

/** Rows in each table that is not Kysely's bookkeeping. */
async function rowsByTable({ db, dialect }: Pick<Database, 'db' | 'dialect'>): Promise<Record<string, number>> {
  const tables = dialect === 'sqlite'
    ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)).rows
    : (await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(db)).rows
  const counts: Record<string, number> = {}
  for (const { name } of tables.filter((table) => !table.name.startsWith('kysely_'))) {
    counts[name] = Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(name)}`.execute(db)).rows[0].n)
  }
  return counts
}

const nothingIn = (counts: Record<string, number>) => Object.entries(counts).filter(([, rows]) => rows > 0)

test('a migrated database holds what migrating a fresh one makes, and no rows', async () => {
  const fresh = await freshDatabase()
  const migrated = await migratedDatabase()
  try {
    await withDatabase(fresh, ({ db, dialect }) => migrateToLatest(db, dialect))
    assert.equal(await shapeOf(migrated), await shapeOf(fresh))
    assert.deepEqual(await withDatabase(migrated, rowsByTable), await withDatabase(fresh, rowsByTable))
    assert.deepEqual(nothingIn(await withDatabase(migrated, rowsByTable)), [])
  } finally {
    await migrated.drop()
    await fresh.drop()
  }
})

test('the database after a service closes holds none of the rows it wrote', async () => {
  const service = await startService()
  const { store } = service.context
  const used = store.dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(store.db)).rows[0].schema : null
  assert.notDeepEqual(nothingIn(await rowsByTable(store)), [], 'the service seeds its catalog and secret')
  await service.close()
  const next = await migratedDatabase()
  try {
    // On PostgreSQL the emptied schema is the one handed on, so this checks the emptying.
    if (used !== null) assert.equal(schemaOf(next), used)
    assert.deepEqual(nothingIn(await withDatabase(next, rowsByTable)), [])
  } finally {
    await next.drop()
  }
})

test('a schema whose tables a test changed is dropped, not handed on', { skip: testDialect === 'sqlite' && 'SQLite copies a file per test' }, async () => {
  const reference = await migratedDatabase()
  const shape = await shapeOf(reference)
  await withDatabase(reference, ({ db }) => sql`alter table departures add column left_behind text`.execute(db).then(() => {}))
  await reference.drop()
  const next = await migratedDatabase()
  try {
    assert.notEqual(schemaOf(next), schemaOf(reference))
    assert.equal(await shapeOf(next), shape)
    const { rows } = await withDatabase(next, ({ db }) => sql`select 1 from pg_namespace where nspname = ${schemaOf(reference)}`.execute(db))
    assert.deepEqual(rows, [])
  } finally {
    await next.drop()
  }
})
