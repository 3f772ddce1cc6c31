import assert from 'node:assert/strict'
import { rmSync } from 'node:fs'
import { test } from 'node:test'
import { sql } from 'kysely'
import { openStore } from '../../src/store/store.ts'
import { drillCatalogFile } from '../helpers/catalog-file.ts'
import { ApiClient } from '../helpers/client.ts'
import { freshDatabase } from '../helpers/database.ts'
import { startServer } from '../helpers/server-process.ts'

interface Attempt {
  key: string
  headers: Record<string, string>
  outcome: 'acknowledged' | 'refused' | 'lost connection'
  bookingId?: string
}

test('holds acknowledged before a SIGKILL survive it, and retrying every key creates no duplicates', async (t) => {
  const capacity = 30
  const { dir, catalogPath } = drillCatalogFile(capacity)
  const database = await freshDatabase()
  const env = { DATABASE_URL: database.url, TOURDESK_CONFIG: catalogPath }
  let server = await startServer(env)
  t.after(async () => {
    await server.stop('SIGTERM')
    await database.drop()
    rmSync(dir, { recursive: true, force: true })
  })
  let client = new ApiClient(server.origin, 'lisbon', null)
  const slots = await client.get('/availability?tour=drill-departure&days=3&party=1')
  const start = slots.body.slots.find((s: { bookable: boolean }) => s.bookable).start
  const body = { tour_id: 'drill-departure', start, party: 1 }

  const attempts: Attempt[] = []
  for (let i = 0; i < 60; i++) {
    const s = await client.session()
    attempts.push({ key: `crash-${i}`, headers: { ...s.headers, 'idempotency-key': `crash-${i}` }, outcome: 'lost connection' })
  }
  let acknowledged = 0
  const killed = new Promise<void>((resolve) => {
    const burst = attempts.map(async (attempt) => {
      try {
        const res = await client.post('/booking', body, { headers: attempt.headers })
        attempt.outcome = res.status === 200 ? 'acknowledged' : 'refused'
        if (res.status === 200) {
          attempt.bookingId = res.body.id
          if (++acknowledged === 10) server.stop('SIGKILL').then(resolve)
        }
      } catch {
        attempt.outcome = 'lost connection'
      }
    })
    Promise.all(burst).then(() => resolve())
  })
  await killed
  await new Promise((r) => setTimeout(r, 200))
  const acknowledgedBefore = attempts.filter((a) => a.outcome === 'acknowledged')
  const count = (outcome: Attempt['outcome']) => attempts.filter((a) => a.outcome === outcome).length
  t.diagnostic(`before the kill: ${count('acknowledged')} acknowledged, ${count('lost connection')} lost connection, ${count('refused')} refused`)
  assert.ok(acknowledgedBefore.length >= 10)

  server = await startServer(env)
  client = new ApiClient(server.origin, 'lisbon', null)
  const store = await openStore(database.target, { migrate: false })
  t.after(() => store.close())
  const { db } = store
  for (const attempt of acknowledgedBefore) {
    const row = await db.selectFrom('bookings').select('status').where('id', '=', attempt.bookingId!).executeTakeFirst()
    assert.equal(row?.status, 'held', `acknowledged booking ${attempt.bookingId} must survive the crash`)
  }

  for (const attempt of attempts) {
    const res = await client.post('/booking', body, { headers: attempt.headers })
    assert.ok(res.status === 200 || res.status === 409, `retry of ${attempt.key}: ${res.status} ${res.text}`)
    if (attempt.outcome === 'acknowledged') {
      assert.equal(res.status, 200)
      assert.equal(res.headers.get('idempotent-replayed'), 'true')
      assert.equal(res.body.id, attempt.bookingId)
    }
  }

  const perSession = await db.selectFrom('bookings').select('session_id').groupBy('session_id').having(sql`count(*)`, '>', 1).execute()
  assert.deepEqual(perSession, [], 'no session may have two bookings from one key')
  const taken = await db.selectFrom('departures').select('seats_taken').where('tour_id', '=', 'drill-departure').executeTakeFirstOrThrow()
  const held = await db.selectFrom('bookings').select((eb) => eb.fn.sum<number>('party').as('seats')).where('status', '=', 'held').executeTakeFirstOrThrow()
  const seats = { taken: taken.seats_taken, held: Number(held.seats) }
  assert.equal(seats.taken, seats.held)
  assert.ok(seats.taken <= capacity)
  t.diagnostic(`after restart and retries: ${seats.held} seats held of ${capacity}`)
})
