import { randomBytes } from 'node:crypto'
import type pg from 'pg'
import { withPostgresClient } from '../../scripts/postgres-admin.ts'
import { readSettings } from '../../src/config/env.ts'
import { openDatabase } from '../../src/store/database.ts'
import { migrateToLatest } from '../../src/store/migrations.ts'

/**
 * Migrated PostgreSQL schemas for the tests of one process, used again once emptied.
 *
 * Running the migrations into a new schema cost about 1.5 s per test on PostgreSQL (one
 * transaction, but some 170 statements of DDL); creating a database from a migrated template
 * cost as much, and replaying the migrations' statements in one round trip about half, while
 * emptying the tables of a schema a test has finished with takes milliseconds (measured in
 * docs/testing.md). So a schema a test releases is emptied and handed to the next test of the
 * process, which then finds exactly what a freshly migrated schema holds: no rows (the
 * migrations add none: checked on the first schema), the same tables, columns, indexes,
 * constraints, triggers and functions (checked at each release: a test that changed them,
 * as test/api/routing-errors.test.ts does for a moment, leaves a schema that is dropped
 * instead), and the migrations' own bookkeeping.
 */

/** Kysely's bookkeeping (src/store/migrations.ts): kept as migrated, never emptied. */
const MIGRATION_TABLES = ['kysely_migration', 'kysely_migration_lock']

/**
 * One line per table, column, index, constraint, trigger and function of the schema, with its
 * name taken out, and the migrations' bookkeeping: what a test could change that emptying the
 * tables would not put back.
 */
const shapeQuery = (schema: string) => `
  select md5(string_agg(line, E'\\n' order by line)) as shape from (
    select 'relation ' || c.relname || ' ' || c.relkind::text as line
      from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1
    union all
    select 'column ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' '
        || a.attnotnull || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
      from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where n.nspname = $1 and a.attnum > 0 and not a.attisdropped
    union all
    select 'index ' || replace(indexdef, quote_ident($1) || '.', '') from pg_indexes where schemaname = $1
    union all
    select 'constraint ' || c.relname || ' ' || k.conname || ' ' || replace(pg_get_constraintdef(k.oid), quote_ident($1) || '.', '')
      from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1
    union all
    select 'trigger ' || replace(pg_get_triggerdef(t.oid), quote_ident($1) || '.', '')
      from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and not t.tgisinternal
    union all
    select 'function ' || p.proname || ' ' || md5(p.prosrc)
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = $1
    union all
    select 'migration ' || name from ${schema}.kysely_migration
    union all
    select 'migration lock ' || id || ' ' || is_locked from ${schema}.kysely_migration_lock
  ) shape`

/** search_path for every connection, through libpq's `options` parameter, which pg passes on. */
export function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url)
  parsed.searchParams.set('options', `-c search_path=${schema}`)
  return parsed.toString()
}

/** Letters, digits and underscores only, so the schema's name goes into SQL text as it is. */
export function newSchemaName(): string {
  return `t_${randomBytes(6).toString('hex')}`
}

/** A new schema in the database at `databaseUrl` with every migration applied, as a starting service applies them. */
export async function migrateNewSchema(databaseUrl: string): Promise<string> {
  const schema = newSchemaName()
  await withPostgresClient(databaseUrl, (client) => client.query(`create schema ${schema}`))
  const database = openDatabase(readSettings({ DATABASE_URL: withSearchPath(databaseUrl, schema) }).database)
  try {
    await migrateToLatest(database.db, database.dialect)
  } finally {
    await database.close()
  }
  return schema
}

async function shapeOf(client: pg.Client, schema: string): Promise<string> {
  return (await client.query<{ shape: string }>(shapeQuery(schema), [schema])).rows[0].shape
}

/** A digest of what the migrations made in a schema, whatever its name: equal for two schemas built alike. */
export function schemaShape(databaseUrl: string, schema: string): Promise<string> {
  return withPostgresClient(databaseUrl, (client) => shapeOf(client, schema))
}

async function dataTables(client: pg.Client, schema: string): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select tablename as name from pg_tables where schemaname = $1 and tablename <> all($2::text[]) order by tablename`,
    [schema, MIGRATION_TABLES],
  )
  return rows.map((row) => row.name)
}

/** Migrated schemas in one database: `take` one for a test, `release` it when the test is done with it. */
export function migratedSchemaPool(databaseUrl: string) {
  const idle: string[] = []
  /** The first schema's shape, and whether its migrations left every table empty (else no schema is used again). */
  let reference: Promise<{ shape: string, reusable: boolean }> | null = null

  async function take(): Promise<string> {
    const kept = idle.pop()
    if (kept !== undefined) return kept
    const schema = await migrateNewSchema(databaseUrl)
    reference ??= withPostgresClient(databaseUrl, async (client) => {
      const tables = await dataTables(client, schema)
      const { rows } = await client.query<{ rows: number }>(
        `select count(*)::int as rows from (${tables.map((table) => `(select 1 from ${schema}."${table}" limit 1)`).join(' union all ')}) held`,
      )
      return { shape: await shapeOf(client, schema), reusable: rows[0].rows === 0 }
    })
    await reference
    return schema
  }

  /**
   * Empties the schema's tables for the next test, or drops the schema when its shape is no
   * longer what the migrations made. The deletes run with session_replication_role = replica,
   * which fires neither the foreign keys' triggers (so the order of the tables does not
   * matter) nor the change-notification triggers: services of this process still open on
   * other schemas of the database must not hear a commit that is not theirs.
   */
  async function release(schema: string): Promise<void> {
    const { shape, reusable } = await reference!
    const emptied = reusable && await withPostgresClient(databaseUrl, async (client) => {
      if (await shapeOf(client, schema) !== shape) return false
      const tables = await dataTables(client, schema)
      await client.query(`begin; set local session_replication_role = replica; ${tables.map((table) => `delete from ${schema}."${table}"`).join('; ')}; commit`)
      return true
    }).catch(() => false)
    if (emptied) idle.push(schema)
    else await withPostgresClient(databaseUrl, (client) => client.query(`drop schema ${schema} cascade`))
  }

  return { take, release }
}
