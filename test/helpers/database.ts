import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { withPostgresClient } from '../../scripts/postgres-admin.ts'
import { readSettings, type DatabaseTarget } from '../../src/config/env.ts'
import { openDatabase } from '../../src/store/database.ts'
import { migrateToLatest } from '../../src/store/migrations.ts'
import { migratedSchemaPool, migrateNewSchema, newSchemaName, withSearchPath } from './migrated-schemas.ts'

/**
 * The database every test runs on: a new SQLite file by default, or, when
 * TEST_DATABASE_URL names a PostgreSQL database, a new schema in it. The same tests run on
 * both; scripts/test.sh runs the suite once per dialect.
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || null
export const testDialect: DatabaseTarget['dialect'] = TEST_DATABASE_URL ? 'postgres' : 'sqlite'

export interface FreshDatabase {
  /** For DATABASE_URL of a server process. */
  url: string
  target: DatabaseTarget
  /** Removes the database; call after everything using it has closed. */
  drop(): Promise<void>
}

/**
 * scripts/test.sh runs test files side by side, each in its own process, against one
 * TEST_DATABASE_URL. A schema per test keeps their rows apart but not what PostgreSQL holds
 * per database: NOTIFY channels (a node of one file would hear every other file's commits and
 * drop its kept answers, which test/services/availability-answers.test.ts counts) and
 * advisory locks (Kysely's migration lock would make every file's migrations wait for each
 * other's). So each test process makes its own database beside TEST_DATABASE_URL's, named
 * after it, and drops it once its tests are done; `scripts/pg-test-database.ts drop` removes
 * any a killed process left behind.
 */
let databaseOfThisProcess: Promise<string> | null = null

function ownDatabase(sharedUrl: string): Promise<string> {
  databaseOfThisProcess ??= (async () => {
    const url = new URL(sharedUrl)
    const name = `${url.pathname.slice(1)}_p${process.pid}`
    await withPostgresClient(sharedUrl, (client) => client.query(`create database "${name}"`))
    // beforeExit comes once the tests and their hooks are done and nothing else is pending.
    process.once('beforeExit', () => {
      void withPostgresClient(sharedUrl, (client) => client.query(`drop database if exists "${name}" with (force)`)).catch(() => {})
    })
    url.pathname = `/${name}`
    return url.toString()
  })()
  return databaseOfThisProcess
}

function sqliteDatabase(path: string, dir: string): FreshDatabase {
  const url = `sqlite:${path}`
  return { url, target: readSettings({ DATABASE_URL: url }).database, drop: async () => rmSync(dir, { recursive: true, force: true }) }
}

function postgresSchema(databaseUrl: string, schema: string, drop: () => Promise<void>): FreshDatabase {
  const url = withSearchPath(databaseUrl, schema)
  return { url, target: readSettings({ DATABASE_URL: url }).database, drop }
}

/**
 * A fresh, empty database: a schema in `postgresUrl` when given (TEST_DATABASE_URL by default,
 * through this process's own database), else a new SQLite file. For tests of what migrating
 * does (the CLI's `migrate`, a start's log); the others take `migratedDatabase`.
 */
export async function freshDatabase(postgresUrl: string | null = TEST_DATABASE_URL): Promise<FreshDatabase> {
  if (postgresUrl === null) {
    const dir = mkdtempSync(join(tmpdir(), 'tourdesk-test-'))
    return sqliteDatabase(join(dir, 'tourdesk.db'), dir)
  }
  const databaseUrl = postgresUrl === TEST_DATABASE_URL ? await ownDatabase(postgresUrl) : postgresUrl
  const schema = newSchemaName()
  await withPostgresClient(databaseUrl, (client) => client.query(`create schema ${schema}`))
  return postgresSchema(databaseUrl, schema, async () => {
    await withPostgresClient(databaseUrl, (client) => client.query(`drop schema ${schema} cascade`))
  })
}

/**
 * This process's SQLite file with every migration applied, made on first use and removed when
 * the process exits. Closing its only connection checkpoints the WAL into the file, so a copy
 * of the file alone is the whole database.
 */
let sqliteTemplate: Promise<string> | null = null

function migratedSqliteTemplate(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tourdesk-test-template-'))
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
    const path = join(dir, 'tourdesk.db')
    const database = openDatabase({ dialect: 'sqlite', path })
    try {
      await migrateToLatest(database.db, database.dialect)
    } finally {
      await database.close()
    }
    return path
  })()
  return sqliteTemplate
}

/** Migrated schemas of this process's own PostgreSQL database, used again once a test is done (test/helpers/migrated-schemas.ts). */
let schemasOfThisProcess: ReturnType<typeof migratedSchemaPool> | null = null

/**
 * A fresh database with every migration applied, as a starting service leaves it (it then
 * finds nothing to migrate). The migrations run once per test process: SQLite copies a
 * migrated file; PostgreSQL takes a migrated schema of this process's database, emptied
 * after the test before it (or migrates a new one when `postgresUrl` names another database).
 */
export async function migratedDatabase(postgresUrl: string | null = TEST_DATABASE_URL): Promise<FreshDatabase> {
  if (postgresUrl === null) {
    const template = await migratedSqliteTemplate()
    const dir = mkdtempSync(join(tmpdir(), 'tourdesk-test-'))
    const path = join(dir, 'tourdesk.db')
    copyFileSync(template, path)
    return sqliteDatabase(path, dir)
  }
  if (postgresUrl !== TEST_DATABASE_URL) {
    const schema = await migrateNewSchema(postgresUrl)
    return postgresSchema(postgresUrl, schema, async () => {
      await withPostgresClient(postgresUrl, (client) => client.query(`drop schema ${schema} cascade`))
    })
  }
  const databaseUrl = await ownDatabase(postgresUrl)
  schemasOfThisProcess ??= migratedSchemaPool(databaseUrl)
  const pool = schemasOfThisProcess
  const schema = await pool.take()
  let released = false
  return postgresSchema(databaseUrl, schema, async () => {
    // A schema handed back twice would be handed out to two tests.
    if (released) return
    released = true
    await pool.release(schema)
  })
}
