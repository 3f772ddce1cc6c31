import { mkdirSync } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { dirname } from 'node:path'
import { Kysely, SqliteDialect } from 'kysely'
import { LruMap } from '../domain/lru-map.ts'
import type { Database } from './database.ts'
import { SQLite, type SQLiteDatabase, type SQLiteStatement } from './sqlite-binding.ts'
import type { Tables } from './tables.ts'
import { runPlanSync, type Outcome, type Plan, type Statement } from './write-plan.ts'

const BUSY_TIMEOUT_MS = 5000
const STATEMENT_CACHE_LIMIT = 500
/** better-sqlite3 error codes that mean the file cannot take the write now (locked too long, disk full, I/O failure). */
const UNAVAILABLE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_CANTOPEN', 'SQLITE_READONLY'])

/**
 * Prepared statements kept by their SQL text, for Kysely's reads and the write plans alike
 * (bounded: `in (…)` lists vary in length). Kysely prepares every query afresh, and
 * preparing costs more than running most of ours.
 */
function statementCache(connection: SQLiteDatabase, onWrite: () => void) {
  const statements = new LruMap<string, SQLiteStatement>(STATEMENT_CACHE_LIMIT)
  return (text: string) => {
    let statement = statements.get(text)
    if (!statement) {
      statement = connection.prepare(text)
      statements.set(text, statement)
    }
    if (!statement.reader) onWrite()
    return statement
  }
}

/**
 * Write plans queued in one tick of the event loop run in one transaction (BEGIN IMMEDIATE,
 * so another process's writer waits on the busy timeout), each inside its own savepoint: a
 * plan that throws rolls back its own statements and no one else's. One commit then covers
 * the whole batch, so a burst of holds writes each shared page (the departure row, the
 * index leaves) to the WAL once instead of once per hold. Everything runs synchronously:
 * no other request can see, or interleave with, a transaction in progress.
 */
function batchedWriter(connection: SQLiteDatabase, prepare: (text: string) => SQLiteStatement) {
  const control = (text: string) => connection.prepare(text)
  const begin = control('begin immediate')
  const commit = control('commit')
  const rollback = control('rollback')
  const beginRead = control('begin deferred')
  const savepoint = control('savepoint plan')
  const release = control('release plan')
  const rollbackTo = control('rollback to plan')
  interface Queued { plan: () => Plan<unknown>, resolve(value: unknown): void, reject(err: unknown): void }
  let queue: Queued[] = []

  const run = (statement: Statement): Outcome => {
    const prepared = prepare(statement.sql)
    if (prepared.reader) {
      const rows = prepared.all(...statement.params as unknown[]) as Record<string, unknown>[]
      return { rows, changes: rows.length }
    }
    return { rows: [], changes: prepared.run(...statement.params as unknown[]).changes }
  }

  function runBatch(): void {
    const batch = queue
    queue = []
    const settled: Array<() => void> = []
    try {
      begin.run()
      for (const item of batch) {
        savepoint.run()
        try {
          const value = runPlanSync(item.plan(), run)
          release.run()
          settled.push(() => item.resolve(value))
        } catch (err) {
          rollbackTo.run()
          release.run()
          settled.push(() => item.reject(err))
        }
      }
      commit.run()
    } catch (err) {
      if (connection.inTransaction) rollback.run()
      for (const item of batch) item.reject(err)
      return
    }
    for (const settle of settled) settle()
  }

  return {
    write: <T>(plan: () => Plan<T>): Promise<T> => new Promise<T>((resolve, reject) => {
      if (queue.length === 0) setImmediate(runBatch)
      queue.push({ plan, resolve: resolve as (value: unknown) => void, reject })
    }),
    read: async <T>(plan: () => Plan<T>): Promise<T> => runPlanSync(plan(), run),
    // Synchronous like every plan here, so no write of this process interleaves; the WAL
    // snapshot taken at the first read keeps other processes' commits out until the end.
    snapshot: async <T>(plan: () => Plan<T>): Promise<T> => {
      beginRead.run()
      try {
        const value = runPlanSync(plan(), run)
        commit.run()
        return value
      } catch (err) {
        if (connection.inTransaction) rollback.run()
        throw err
      }
    },
  }
}

/**
 * Group commit. Commits run with synchronous=NORMAL, which writes the WAL but does not fsync
 * it; before an answer leaves, `durable()` fsyncs the WAL once for every commit made so
 * far, off the event loop, and concurrent requests share one fsync. So no answer is sent
 * before its write is on disk, but a burst of commits costs one fsync instead of one each.
 */
function walFlusher(connection: SQLiteDatabase, walPath: string) {
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

/**
 * The change token: data_version moves when another process commits, total_changes when this
 * one writes. Read once per turn of the event loop rather than per call: a poll at 50
 * connections asks for it twice per request (the key and the kept answer), two statements
 * each, and the requests of one turn arrived together. Another process's commit is seen at the
 * next turn at the latest, as if the request had come a moment earlier (on PostgreSQL the token
 * moves when the commit's notification arrives, later still: src/store/change-token.ts). A write
 * of this process forgets the token at once, before its statement runs, so nothing read after it
 * is kept under the old token. The token is always taken before the read it covers, so an answer
 * is never kept under a token newer than its data.
 */
function turnToken(connection: SQLiteDatabase) {
  const dataVersion = connection.prepare('pragma data_version').pluck()
  const totalChanges = connection.prepare('select total_changes()').pluck()
  let current: string | null = null
  let forgetting = false
  const forget = () => {
    current = null
    forgetting = false
  }
  return {
    read(): string {
      if (current === null) {
        current = `${dataVersion.get()}:${totalChanges.get()}`
        if (!forgetting) {
          forgetting = true
          setImmediate(forget)
        }
      }
      return current
    },
    noteWrite(): void {
      current = null
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
  const token = turnToken(connection)
  const prepare = statementCache(connection, () => {
    flusher.noteWrite()
    token.noteWrite()
  })
  // Kysely prepares each statement right before it runs it.
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: { prepare, close: () => connection.close() } }) })
  return {
    db,
    dialect: 'sqlite',
    ...batchedWriter(connection, prepare),
    ping: async () => {
      connection.prepare('select 1').get()
    },
    isUnavailable: (error) => {
      const code = (error as { code?: unknown } | null)?.code
      return typeof code === 'string' && [...UNAVAILABLE_CODES].some((prefix) => code.startsWith(prefix))
    },
    changeToken: token.read,
    // Any commit moves it, catalog or not: the catalog's versions are then read (one small query).
    catalogToken: token.read,
    supportsSkipLocked: false,
    durable: path === ':memory:' ? () => {} : flusher.durable,
    close: async () => {
      await flusher.close()
      await db.destroy()
    },
  }
}
