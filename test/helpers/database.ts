import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { withPostgresClient } from '../../scripts/postgres-admin.ts'
import { readSettings, type DatabaseTarget } from '../../src/config/env.ts'

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

/** search_path for every connection, through libpq's `options` parameter, which pg passes on. */
function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url)
  parsed.searchParams.set('options', `-c search_path=${schema}`)
  return parsed.toString()
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

/** A fresh database: a schema in `postgresUrl` when given (TEST_DATABASE_URL by default, through this process's own database), else a new SQLite file. */
export async function freshDatabase(postgresUrl: string | null = TEST_DATABASE_URL): Promise<FreshDatabase> {
  if (postgresUrl === null) {
    const dir = mkdtempSync(join(tmpdir(), 'tourdesk-test-'))
    const url = `sqlite:${join(dir, 'tourdesk.db')}`
    return { url, target: readSettings({ DATABASE_URL: url }).database, drop: async () => rmSync(dir, { recursive: true, force: true }) }
  }
  const databaseUrl = postgresUrl === TEST_DATABASE_URL ? await ownDatabase(postgresUrl) : postgresUrl
  const schema = `t_${randomBytes(6).toString('hex')}`
  await withPostgresClient(databaseUrl, (client) => client.query(`create schema ${schema}`))
  const url = withSearchPath(databaseUrl, schema)
  return {
    url,
    target: readSettings({ DATABASE_URL: url }).database,
    async drop() {
      await withPostgresClient(databaseUrl, (client) => client.query(`drop schema ${schema} cascade`))
    },
  }
}
