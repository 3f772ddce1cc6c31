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

/** A fresh database: a schema in `postgresUrl` when given (TEST_DATABASE_URL by default), else a new SQLite file. */
export async function freshDatabase(postgresUrl: string | null = TEST_DATABASE_URL): Promise<FreshDatabase> {
  if (postgresUrl === null) {
    const dir = mkdtempSync(join(tmpdir(), 'tourdesk-test-'))
    const url = `sqlite:${join(dir, 'tourdesk.db')}`
    return { url, target: readSettings({ DATABASE_URL: url }).database, drop: async () => rmSync(dir, { recursive: true, force: true }) }
  }
  const schema = `t_${randomBytes(6).toString('hex')}`
  await withPostgresClient(postgresUrl, (client) => client.query(`create schema ${schema}`))
  const url = withSearchPath(postgresUrl, schema)
  return {
    url,
    target: readSettings({ DATABASE_URL: url }).database,
    async drop() {
      await withPostgresClient(postgresUrl, (client) => client.query(`drop schema ${schema} cascade`))
    },
  }
}
