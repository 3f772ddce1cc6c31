/**
 * Run by test/store/sqlite-statement-gc.test.ts as its own process with --expose-gc: creates
 * and drops prepared statements for SECONDS seconds while forcing garbage collections, the
 * way better-sqlite3 12 aborted on Node 24 (a statement freed by the collector). It prints one
 * JSON line with what it did; a native crash shows as a signal or a non-zero exit instead.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { openSqlite } from '../../src/store/sqlite.ts'
import { SQLite, SQLITE_BINDING, type SQLiteStatement } from '../../src/store/sqlite-binding.ts'

const SECONDS = Number(process.argv[2] ?? 60)
const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with --expose-gc')

const dir = mkdtempSync(join(tmpdir(), 'tourdesk-statement-gc-'))
const deadline = Date.now() + SECONDS * 1000
let statements = 0
let collections = 0
const collect = () => {
  gc()
  collections++
}

// The service's own path: every distinct text is prepared into the store's bounded cache, so
// older statements are evicted and left to the collector.
const store = openSqlite(join(dir, 'store.db'))
// The binding directly: statements that read and write, dropped at once or kept past their
// database's close.
const raw = new SQLite(':memory:')
raw.exec('create table churn (id integer primary key, note text)')
let round = 0
while (Date.now() < deadline) {
  round++
  for (let i = 0; i < 200; i++) {
    await sql`select ${sql.lit(round * 1000 + i)} as n`.execute(store.db)
    statements++
  }
  for (let i = 0; i < 500; i++) {
    raw.prepare(`insert into churn (note) values ('${round}-${i}')`).run()
    raw.prepare(`select count(*) + ${i} as n from churn`).get()
    statements += 2
  }
  raw.prepare('delete from churn').run()
  statements++
  collect()

  // Statements that outlive their database's close, then are collected.
  const short = new SQLite(':memory:')
  const kept: SQLiteStatement[] = []
  for (let i = 0; i < 50; i++) kept.push(short.prepare(`select ${i} as n`))
  statements += kept.length
  short.close()
  kept.length = 0
  collect()
}

// Statements still referenced when the process exits: freed by the environment's cleanup.
const leftAlive = Array.from({ length: 100 }, (_, i) => raw.prepare(`select ${i} + 1 as n`))
statements += leftAlive.length
await store.close()
rmSync(dir, { recursive: true, force: true })
console.log(JSON.stringify({ binding: SQLITE_BINDING, node: process.versions.node, statements, collections, rounds: round }))
