import assert from 'node:assert/strict'
import { test } from 'node:test'
import { setTimeout as delay } from 'node:timers/promises'
import { withPostgresClient } from '../../scripts/postgres-admin.ts'
import { readSettings } from '../../src/config/env.ts'
import { openStore } from '../../src/store/store.ts'
import { statement } from '../../src/store/write-plan.ts'
import { migratedDatabase, testDialect } from '../helpers/database.ts'

// A store's reads and writes go to its pool through its own plans, not through Kysely, and
// Kysely ends the pool only once it has run a query itself: a store opened without migrating
// that only read kept its connections open until the pool's 30 s idle timeout, which held
// each test process that made one (test/catalog/catalog-registry.test.ts) half a minute.

/** The connections PostgreSQL has under `name`. */
async function connections(url: string, name: string): Promise<number> {
  const { rows } = await withPostgresClient(url, (client) => client.query('select count(*)::int as n from pg_stat_activity where application_name = $1', [name]))
  return rows[0].n
}

/** The same, asked until there are none or 5 s passed: a backend ends a moment after its client hangs up. */
async function connectionsLeft(url: string, name: string): Promise<number> {
  const deadline = Date.now() + 5_000
  for (;;) {
    const left = await connections(url, name)
    if (left === 0 || Date.now() > deadline) return left
    await delay(50)
  }
}

test('closing a store ends its PostgreSQL connections, also when it never ran a query through Kysely', { skip: testDialect === 'postgres' ? false : 'SQLite keeps no connections to end' }, async (t) => {
  const database = await migratedDatabase()
  t.after(() => database.drop())
  const name = `tourdesk-close-${process.pid}`
  const url = new URL(database.url)
  url.searchParams.set('application_name', name)
  const store = await openStore(readSettings({ DATABASE_URL: url.toString() }).database, { migrate: false })
  const outcome = await store.read(() => statement<{ one: number }>('select 1 as one', []))
  assert.deepEqual(outcome.rows, [{ one: 1 }])
  assert.ok(await connections(database.url, name) > 0, 'the store is connected under its name')
  await store.close()
  assert.equal(await connectionsLeft(database.url, name), 0)
})
