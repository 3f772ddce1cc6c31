import assert from 'node:assert/strict'
import { rmSync } from 'node:fs'
import { test } from 'node:test'
import { openStore } from '../../src/store/store.ts'
import { build } from '../helpers/build.ts'
import { drillCatalog, drillCatalogFile } from '../helpers/catalog-file.ts'
import { ApiClient } from '../helpers/client.ts'
import { freshDatabase, testDialect } from '../helpers/database.ts'
import { startServer } from '../helpers/server-process.ts'

const START = '2026-06-02T09:00:00Z'

async function hold(client: ApiClient, start: string, party = 1) {
  const s = await client.session()
  return client.post('/booking', { tour_id: 'drill-departure', start, party }, { headers: s.headers })
}

test('50 simultaneous holds on the last 6 seats: exactly 6 succeed, the rest get 409 insufficient_capacity', async (t) => {
  const service = await build(t, { catalog: drillCatalog(10) })
  const client = service.client()
  assert.equal((await hold(client, START, 4)).status, 200)

  const results = await Promise.all(Array.from({ length: 50 }, () => hold(client, START)))
  const ok = results.filter((r) => r.status === 200)
  const refused = results.filter((r) => r.status === 409)
  assert.equal(ok.length, 6)
  assert.equal(refused.length, 44)
  for (const r of refused) {
    assert.equal(r.body.code, 'insufficient_capacity')
    assert.equal(r.body.remaining, 0)
  }
  const departure = await service.context.store.db.selectFrom('departures').selectAll().executeTakeFirstOrThrow()
  assert.equal(departure.seats_taken, 10)
  const held = await service.context.store.db.selectFrom('bookings').select((eb) => eb.fn.sum<number>('party').as('seats'))
    .where('status', '=', 'held').executeTakeFirstOrThrow()
  assert.equal(Number(held.seats), 10)
  const availability = await client.get(`/availability?tour=drill-departure&date=2026-06-02&days=1`)
  const slot = availability.body.slots.find((s: { start: string }) => Date.parse(s.start) === Date.parse(START))
  assert.equal(slot.remaining, 0)
  assert.equal(slot.status, 'sold_out')
})

test(`3 server processes sharing one ${testDialect} database never sell a seat past capacity`, async (t) => {
  const capacity = 20
  const { dir, catalogPath } = drillCatalogFile(capacity)
  const database = await freshDatabase()
  const env = { DATABASE_URL: database.url, TOURDESK_CONFIG: catalogPath }
  const first = await startServer(env)
  const servers = [first, ...await Promise.all([startServer(env), startServer(env)])]
  t.after(async () => {
    await Promise.all(servers.map((s) => s.stop('SIGTERM')))
    await database.drop()
    rmSync(dir, { recursive: true, force: true })
  })
  const clients = servers.map((s) => new ApiClient(s.origin, 'lisbon', null))
  const availability = await clients[0].get('/availability?tour=drill-departure&days=3&party=1')
  const start = availability.body.slots.find((s: { bookable: boolean }) => s.bookable).start

  const results = await Promise.all(Array.from({ length: 90 }, (_, i) => hold(clients[i % 3], start)))
  const statuses = results.map((r) => r.status)
  assert.equal(statuses.filter((s) => s === 200).length, capacity)
  assert.equal(statuses.filter((s) => s === 409).length, 90 - capacity)
  for (const server of servers) {
    const served = results.filter((r, i) => i % 3 === servers.indexOf(server) && r.status === 200).length
    t.diagnostic(`${server.origin}: ${served} holds acknowledged`)
  }

  const store = await openStore(database.target, { migrate: false })
  t.after(() => store.close())
  const departure = await store.db.selectFrom('departures').select('seats_taken').where('tour_id', '=', 'drill-departure').executeTakeFirstOrThrow()
  const booked = await store.db.selectFrom('bookings')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('party').as('seats')])
    .where('tour_id', '=', 'drill-departure').where('status', '=', 'held').executeTakeFirstOrThrow()
  assert.equal(departure.seats_taken, capacity)
  assert.equal(Number(booked.n), capacity)
  assert.equal(Number(booked.seats), capacity)
})
