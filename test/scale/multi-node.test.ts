import assert from 'node:assert/strict'
import { rmSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { test, type TestContext } from 'node:test'
import { openStore } from '../../src/store/store.ts'
import { drillCatalogFile } from '../helpers/catalog-file.ts'
import { ApiClient } from '../helpers/client.ts'
import { freshDatabase, testDialect } from '../helpers/database.ts'
import { startServer, type ServerProcess } from '../helpers/server-process.ts'

/** Several tourdesk processes on one database, as behind a load balancer; stopped when the test ends. */
async function cluster(t: TestContext, nodes: number, capacity: number, env: Record<string, string> = {}) {
  const { dir, catalogPath } = drillCatalogFile(capacity)
  const database = await freshDatabase()
  const shared = { DATABASE_URL: database.url, TOURDESK_CONFIG: catalogPath, ...env }
  // The first node migrates alone; the others then start together (their migration step is a no-op under the lock).
  const servers: ServerProcess[] = [await startServer(shared)]
  servers.push(...await Promise.all(Array.from({ length: nodes - 1 }, () => startServer(shared))))
  const store = await openStore(database.target, { migrate: false })
  t.after(async () => {
    await Promise.all(servers.map((s) => s.stop('SIGTERM')))
    await store.close()
    await database.drop()
    rmSync(dir, { recursive: true, force: true })
  })
  return { servers, clients: servers.map((s) => new ApiClient(s.origin, 'lisbon', null)), db: store.db }
}

async function firstBookableStart(client: ApiClient): Promise<string> {
  const availability = await client.get('/availability?tour=drill-departure&days=3&party=1')
  return availability.body.slots.find((s: { bookable: boolean }) => s.bookable).start
}

test(`availability read on one node shows a hold made on another (${testDialect})`, async (t) => {
  const { clients } = await cluster(t, 2, 10)
  const page = '/availability?tour=drill-departure&days=3&party=1'
  const start = await firstBookableStart(clients[0])
  const remainingOn = async (client: ApiClient) =>
    (await client.get(page)).body.slots.find((s: { start: string }) => s.start === start).remaining
  assert.equal(await remainingOn(clients[0]), 10)
  assert.equal(await remainingOn(clients[0]), 10)

  const session = await clients[1].session()
  const hold = await clients[1].post('/booking', { tour_id: 'drill-departure', start, party: 3 }, { headers: session.headers })
  assert.equal(hold.status, 200, hold.text)

  // SQLite: the other process's commit is seen on the next read. PostgreSQL: node A hears of
  // it through a notification, which may take a moment after node B's answer.
  const patienceMs = testDialect === 'sqlite' ? 0 : 2_000
  const heardAt = Date.now()
  let remaining = await remainingOn(clients[0])
  while (remaining !== 7 && Date.now() - heardAt < patienceMs) {
    await sleep(10)
    remaining = await remainingOn(clients[0])
  }
  t.diagnostic(`node A showed the hold after ${Date.now() - heardAt} ms`)
  assert.equal(remaining, 7)
})

test(`200 simultaneous holds spread over 3 nodes on one ${testDialect} database: exactly the capacity succeeds`, async (t) => {
  const capacity = 37
  const { servers, clients, db } = await cluster(t, 3, capacity)
  const start = await firstBookableStart(clients[0])
  const sessions = await Promise.all(Array.from({ length: 200 }, (_, i) => clients[i % 3].session()))

  const results = await Promise.all(sessions.map((s, i) =>
    clients[(i + 1) % 3].post('/booking', { tour_id: 'drill-departure', start, party: 1 }, { headers: s.headers })))

  const ok = results.filter((r) => r.status === 200)
  const refused = results.filter((r) => r.status === 409)
  const other = results.filter((r) => r.status !== 200 && r.status !== 409).map((r) => `${r.status} ${r.text}`)
  assert.deepEqual(other, [], 'every answer is a hold or insufficient_capacity')
  assert.equal(ok.length, capacity)
  assert.equal(refused.length, 200 - capacity)
  for (const r of refused) assert.equal(r.body.code, 'insufficient_capacity')
  servers.forEach((server, n) => {
    t.diagnostic(`${server.origin}: ${results.filter((r, i) => (i + 1) % 3 === n && r.status === 200).length} holds acknowledged`)
  })

  const departure = await db.selectFrom('departures').select('seats_taken').where('tour_id', '=', 'drill-departure').executeTakeFirstOrThrow()
  const held = await db.selectFrom('bookings').select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('party').as('seats')])
    .where('tour_id', '=', 'drill-departure').where('status', '=', 'held').executeTakeFirstOrThrow()
  assert.equal(departure.seats_taken, capacity)
  assert.equal(Number(held.n), capacity)
  assert.equal(Number(held.seats), capacity)
  assert.deepEqual(new Set(ok.map((r) => r.body.id)).size, capacity, 'every success is its own booking')
})

test('a session made on node A holds on node B and checks out on node C with the token from A', async (t) => {
  const { clients, db } = await cluster(t, 3, 10)
  const [a, b, c] = clients
  const session = await a.session()
  const start = await firstBookableStart(a)

  const hold = await b.post('/booking', { tour_id: 'drill-departure', start, party: 2 }, { headers: session.headers })
  assert.equal(hold.status, 200, hold.text)
  const checkout = await c.post('/checkout', { name: 'Ana Lima', email: 'ana@example.com' }, { headers: session.headers })
  assert.equal(checkout.status, 200, checkout.text)
  assert.equal(checkout.body.id, hold.body.id)
  assert.match(checkout.body.code, /^[A-Z0-9]+$/)

  const seenOnA = await a.get('/booking', { headers: { 'x-session': session.session } })
  assert.equal(seenOnA.body.status, checkout.body.status)
  const row = await db.selectFrom('bookings').select(['status', 'contact_email']).where('id', '=', hold.body.id).executeTakeFirstOrThrow()
  assert.equal(row.status, checkout.body.status)
  assert.equal(row.contact_email, 'ana@example.com')
})

test('an Idempotency-Key retried on another node replays the first answer and holds once', async (t) => {
  const { clients, db } = await cluster(t, 2, 10)
  const session = await clients[0].session()
  const start = await firstBookableStart(clients[0])
  const headers = { ...session.headers, 'idempotency-key': 'across-nodes-1' }
  const body = { tour_id: 'drill-departure', start, party: 3 }

  const [first, second] = await Promise.all([clients[0].post('/booking', body, { headers }), clients[1].post('/booking', body, { headers })])
  const answers = [first, second]
  assert.ok(answers.every((r) => r.status === 200 || (r.status === 409 && r.body.code === 'idempotency_in_flight')), answers.map((r) => r.text).join('\n'))
  const later = await clients[1].post('/booking', body, { headers })
  assert.equal(later.status, 200)
  assert.equal(later.headers.get('idempotent-replayed'), 'true')
  assert.ok(answers.filter((r) => r.status === 200).every((r) => r.body.id === later.body.id))

  const bookings = await db.selectFrom('bookings').select('id').where('session_id', '=', session.session).execute()
  assert.equal(bookings.length, 1)
  const departure = await db.selectFrom('departures').select('seats_taken').where('tour_id', '=', 'drill-departure').executeTakeFirstOrThrow()
  assert.equal(departure.seats_taken, 3)
})

test('two nodes sweeping lapsed holds at once expire each exactly once and free its seats once', async (t) => {
  const { clients, db } = await cluster(t, 2, 40, { TOURDESK_HOLD_SECONDS: '1', TOURDESK_SWEEP_SECONDS: '1' })
  const start = await firstBookableStart(clients[0])
  const sessions = await Promise.all(Array.from({ length: 20 }, (_, i) => clients[i % 2].session()))
  const holds = await Promise.all(sessions.map((s, i) =>
    clients[i % 2].post('/booking', { tour_id: 'drill-departure', start, party: 2 }, { headers: s.headers })))
  assert.ok(holds.every((h) => h.status === 200))

  // Nobody reads these holds again: only the two nodes' sweeps can expire them.
  let expired = 0
  for (let waited = 0; waited < 15_000 && expired < 20; waited += 250) {
    await sleep(250)
    const row = await db.selectFrom('bookings').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'expired').executeTakeFirstOrThrow()
    expired = Number(row.n)
  }
  assert.equal(expired, 20)
  const events = await db.selectFrom('booking_events').select(['booking_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('to_status', '=', 'expired').groupBy('booking_id').execute()
  assert.equal(events.length, 20)
  assert.ok(events.every((e) => Number(e.n) === 1), 'no hold is expired twice')
  const departure = await db.selectFrom('departures').select('seats_taken').where('tour_id', '=', 'drill-departure').executeTakeFirstOrThrow()
  assert.equal(departure.seats_taken, 0)
})
