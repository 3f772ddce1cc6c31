import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, SqliteDialect, sql } from 'kysely'
import type { Database } from './database.ts'
import type { Tables } from './tables.ts'

const BUSY_TIMEOUT_MS = 5000
/** better-sqlite3 error codes that mean the file cannot take the write now (locked too long, disk full, I/O failure). */
const UNAVAILABLE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_CANTOPEN', 'SQLITE_READONLY'])

export function openSqlite(path: string): Database {
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
        if (connection.inTransaction) await sql`rollback`.execute(conn)
        throw err
      }
    }),
    ping: async () => {
      connection.prepare('select 1').get()
    },
    isUnavailable: (error) => {
      const code = (error as { code?: unknown } | null)?.code
      return typeof code === 'string' && [...UNAVAILABLE_CODES].some((prefix) => code.startsWith(prefix))
    },
    supportsSkipLocked: false,
    close: () => db.destroy(),
  }
}
