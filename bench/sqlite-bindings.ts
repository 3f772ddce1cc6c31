/**
 * `node --import tsx bench/sqlite-bindings.ts`: what each SQLite binding this Node line can
 * load safely costs for the work the store gives it (README, "Node.js versions", where the
 * figures are kept with the line they ran on): a cached statement read, an insert in a
 * transaction, and a statement prepared, run and dropped. better-sqlite3 12 is measured on
 * Node 20 only and 13 from Node 22 on (src/store/sqlite-binding.ts); node:sqlite where it exists.
 */
import { createRequire } from 'node:module'

interface Statement { run(...params: unknown[]): unknown, get(...params: unknown[]): unknown }
interface Connection { prepare(sql: string): Statement, exec(sql: string): void, close(): void }

const require = createRequire(import.meta.url)
const major = Number(process.versions.node.split('.')[0])
const bindings: Array<[string, () => Connection]> = []
if (major < 22) bindings.push(['better-sqlite3 12', () => new (require('better-sqlite3'))(':memory:')])
else bindings.push(['better-sqlite3 13', () => new (require('better-sqlite3-13'))(':memory:')])
if (process.getBuiltinModule?.('node:sqlite')) {
  bindings.push(['node:sqlite', () => new (require('node:sqlite').DatabaseSync)(':memory:')])
}

/** Operations per second of `body` over about a second, after a warm-up. */
function rate(body: (i: number) => void): number {
  for (let i = 0; i < 2_000; i++) body(i)
  let count = 0
  const started = process.hrtime.bigint()
  let elapsed = 0n
  while (elapsed < 1_000_000_000n) {
    for (let i = 0; i < 1_000; i++) body(count++)
    elapsed = process.hrtime.bigint() - started
  }
  return Math.round(count / (Number(elapsed) / 1e9))
}

console.log(`Node ${process.versions.node}`)
for (const [name, open] of bindings) {
  const db = open()
  db.exec('create table holds (id integer primary key, departure text not null, party integer not null)')
  const insert = db.prepare('insert into holds (departure, party) values (?, ?)')
  const read = db.prepare('select id, departure, party from holds where id = ?')
  const begin = db.prepare('begin')
  const commit = db.prepare('commit')
  const inserts = rate((i) => {
    begin.run()
    insert.run(`d${i % 100}`, 2)
    commit.run()
  })
  const reads = rate((i) => read.get(1 + (i % 1_000)))
  const prepares = rate((i) => db.prepare(`select ${i % 5_000} + party from holds where id = 1`).get())
  console.log(`${name.padEnd(18)} cached read ${reads.toLocaleString('en')}/s  insert+commit ${inserts.toLocaleString('en')}/s  prepare+run ${prepares.toLocaleString('en')}/s`)
  db.close()
}
