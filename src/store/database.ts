import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, SqliteDialect, sql } from 'kysely'
import type { DatabaseTarget } from '../config/env.ts'
import type { Tables } from './tables.ts'

export type Db = Kysely<Tables>

export interface Database {
  db: Db
  dialect: DatabaseTarget['dialect']
  /**
   * Runs `work` in one transaction that holds the write lock from its first statement, so
   * a read inside it is never stale by the time the write lands (SQLite: BEGIN IMMEDIATE,
   * which waits on the busy timeout when another process writes).
   */
  transaction<T>(work: (trx: Db) => Promise<T>): Promise<T>
  close(): Promise<void>
}

const BUSY_TIMEOUT_MS = 5000

function openSqlite(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const connection = new SQLite(path)
  connection.pragma('journal_mode = WAL')
  // FULL fsyncs the WAL on every commit: an acknowledged booking survives power loss.
  connection.pragma('synchronous = FULL')
  connection.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`)
  connection.pragma('foreign_keys = ON')
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: connection }) })
  return {
    db,
    dialect: 'sqlite',
    transaction: (work) => db.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn)
      try {
        const result = await work(conn)
        await sql`commit`.execute(conn)
        return result
      } catch (err) {
        await sql`rollback`.execute(conn)
        throw err
      }
    }),
    close: () => db.destroy(),
  }
}

export function openDatabase(target: DatabaseTarget): Database {
  if (target.dialect === 'sqlite') return openSqlite(target.path)
  throw new Error('PostgreSQL support is not built yet; use DATABASE_URL=sqlite:PATH')
}
