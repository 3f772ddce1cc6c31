import { mkdirSync } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, SqliteDialect, sql } from 'kysely'
import { LruMap } from '../domain/lru-map.ts'
import type { Database } from './database.ts'
import type { Tables } from './tables.ts'

const BUSY_TIMEOUT_MS = 5000
const STATEMENT_CACHE_LIMIT = 500
/** better-sqlite3 error codes that mean the file cannot take the write now (locked too long, disk full, I/O failure). */
const UNAVAILABLE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_CANTOPEN', 'SQLITE_READONLY'])

/**
 * Kysely prepares every query afresh; preparing costs more than running most of ours, so
 * prepared statements are kept by their SQL text (bounded: `in (…)` lists vary in length).
 */
function withStatementCache(connection: SQLite.Database, onWrite: () => void) {
  const statements = new LruMap<string, SQLite.Statement>(STATEMENT_CACHE_LIMIT)
  return {
    close: () => connection.close(),
    prepare(text: string) {
      let statement = statements.get(text)
      if (!statement) {
        statement = connection.prepare(text)
        statements.set(text, statement)
      }
      // Kysely prepares each statement right before it runs it.
      if (!statement.reader) onWrite()
      return statement
    },
  }
}

/**
 * Group commit. Commits run with synchronous=NORMAL, which writes the WAL but does not fsync
 * it; before an answer leaves, `durable()` fsyncs the WAL once for every commit made so
 * far, off the event loop, and concurrent requests share one fsync. So no answer is sent
 * before its write is on disk, but a burst of commits costs one fsync instead of one each.
 */
function walFlusher(connection: SQLite.Database, walPath: string) {
  const totalChanges = connection.prepare('select total_changes()').pluck()
  /** False while no statement that can write has run since the last fsync: reads skip the check. */
  let mayHaveChanges = true
  let wal: FileHandle | null = null
  let flushedChanges = 0
  let running: Promise<void> | null = null
  let queued: Promise<void> | null = null

  async function fsyncWal(): Promise<void> {
    wal ??= await open(walPath, 'r')
    await wal.sync()
  }

  /** An fsync that starts after this call: a running one may have begun before the caller's commit. */
  function nextFsync(): Promise<void> {
    if (!running) {
      running = fsyncWal().finally(() => { running = null })
      return running
    }
    queued ??= running.catch(() => {}).then(() => {
      queued = null
      return nextFsync()
    })
    return queued
  }

  async function flush(changes: number): Promise<void> {
    await nextFsync()
    flushedChanges = Math.max(flushedChanges, changes)
  }

  return {
    noteWrite(): void {
      mayHaveChanges = true
    },
    durable(): void | Promise<void> {
      if (!mayHaveChanges) return
      const changes = totalChanges.get() as number
      // While another request's transaction is open, the count includes its uncommitted
      // changes; an fsync now does not cover them, so it must not be recorded as if it did.
      if (connection.inTransaction) return flush(flushedChanges)
      if (changes === flushedChanges) {
        mayHaveChanges = false
        return
      }
      return flush(changes)
    },
    async close(): Promise<void> {
      await wal?.close()
    },
  }
}

export function openSqlite(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const connection = new SQLite(path)
  connection.pragma('journal_mode = WAL')
  connection.pragma('synchronous = NORMAL')
  connection.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`)
  connection.pragma('foreign_keys = ON')
  const flusher = walFlusher(connection, `${path}-wal`)
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(connection, flusher.noteWrite) }) })
  // data_version moves when another process commits, total_changes when this one writes.
  const dataVersion = connection.prepare('pragma data_version').pluck()
  const totalChanges = connection.prepare('select total_changes()').pluck()
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
    changeToken: () => `${dataVersion.get()}:${totalChanges.get()}`,
    supportsSkipLocked: false,
    durable: path === ':memory:' ? () => {} : flusher.durable,
    close: async () => {
      await flusher.close()
      await db.destroy()
    },
  }
}
