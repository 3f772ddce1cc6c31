import { rmSync } from 'node:fs'
import { join } from 'node:path'
import type pg from 'pg'
import { withPostgresClient } from '../scripts/postgres-admin.ts'
import { readSettings, type DatabaseTarget } from '../src/config/env.ts'

/** A database made for one bench run and removed at its end. */
export interface BenchDatabase {
  /** DATABASE_URL for the service. */
  url: string
  /** For the bench's own store. */
  target: DatabaseTarget
  drop(): Promise<void>
}

/** The PostgreSQL server the bench makes its databases on; any database there the user may connect to. */
export const POSTGRES_ADMIN_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test'

/** The bench's own connections (seeding) may run statements far longer than the service's 5 s limit. */
const SEED_STATEMENT_TIMEOUT_MS = '600000'

function databaseFor(url: string, drop: () => Promise<void>): BenchDatabase {
  return { url, target: readSettings({ DATABASE_URL: url, TOURDESK_DB_STATEMENT_TIMEOUT_MS: SEED_STATEMENT_TIMEOUT_MS }).database, drop }
}

export function sqliteDatabase(dir: string, name: string): BenchDatabase {
  const path = join(dir, `${name}.db`)
  return databaseFor(`sqlite:${path}`, async () => {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true })
  })
}

const withAdmin = <T>(work: (client: pg.Client) => Promise<T>) => withPostgresClient(POSTGRES_ADMIN_URL, work)

/** Null when PostgreSQL answers, else why it cannot be used. */
export async function postgresUnavailableReason(): Promise<string | null> {
  try {
    await withAdmin((client) => client.query('select 1'))
    return null
  } catch (err) {
    return `${new URL(POSTGRES_ADMIN_URL).host} not reachable (${(err as Error).message || (err as { code?: string }).code})`
  }
}

export async function postgresDatabase(name: string): Promise<BenchDatabase> {
  const database = `tourdesk_bench_${process.pid}_${name}`
  await withAdmin((client) => client.query(`create database ${database}`))
  const url = new URL(POSTGRES_ADMIN_URL)
  url.pathname = `/${database}`
  return databaseFor(url.toString(), () => withAdmin(async (client) => {
    await client.query(`drop database if exists ${database} with (force)`)
  }))
}
