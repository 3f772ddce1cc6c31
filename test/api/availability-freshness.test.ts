import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { test } from 'node:test'
import { build, type TestService } from '../helpers/build.ts'
import { ALFAMA, ALFAMA_TUE_0930, db, holding, WORKSHOP_TUE } from '../helpers/booking-fixtures.ts'
import type { ApiClient } from '../helpers/client.ts'
import { testDialect } from '../helpers/database.ts'

// GET /availability answers are kept and reused (src/services/availability-answers.ts);
// these show that every change that moves seats, holds or cutoffs is seen by the next read.

const PAGE = '/availability?tour=alfama-walk&date=2026-06-02&days=2'

async function slotAt(client: ApiClient, start: string) {
  const res = await client.get(PAGE)
  assert.equal(res.status, 200, res.text)
  const slot = res.body.slots.find((s: { start: string }) => Date.parse(s.start) === Date.parse(start))
  assert.ok(slot, `a slot starts at ${start}`)
  return slot
}

async function readTwice(client: ApiClient, start: string) {
  const first = await slotAt(client, start)
  assert.deepEqual(await slotAt(client, start), first, 'a repeated read answers the same')
  return first
}

test(`a hold and its release show in the next availability read (${testDialect})`, async (t) => {
  const service = await build(t)
  const client = service.client()
  const before = await readTwice(client, ALFAMA_TUE_0930)

  const { session } = await holding(client, ALFAMA)
  assert.equal((await slotAt(client, ALFAMA_TUE_0930)).remaining, before.remaining - ALFAMA.party)

  assert.equal((await client.delete('/booking', { headers: session.headers })).status, 200)
  assert.equal((await slotAt(client, ALFAMA_TUE_0930)).remaining, before.remaining)
})

test(`a hold that lapses frees its seats in the next read, before any sweep (${testDialect})`, async (t) => {
  const service = await build(t, { holdSeconds: 600 })
  const client = service.client()
  const before = await readTwice(client, ALFAMA_TUE_0930)
  await holding(client, ALFAMA)
  assert.equal((await readTwice(client, ALFAMA_TUE_0930)).remaining, before.remaining - ALFAMA.party)

  service.clock.advance({ seconds: 599 })
  assert.equal((await slotAt(client, ALFAMA_TUE_0930)).remaining, before.remaining - ALFAMA.party, 'still held a second before it lapses')
  service.clock.advance({ seconds: 1 })
  assert.equal((await slotAt(client, ALFAMA_TUE_0930)).remaining, before.remaining, 'free the moment it lapses')
})

test(`a departure closes in the next read once its cutoff passes, and leaves the page once it starts (${testDialect})`, async (t) => {
  const service = await build(t)
  const client = service.client()
  const page = '/availability?tour=pastel-de-nata-workshop&date=2026-06-02&days=1'
  const workshop = async () => (await client.get(page)).body.slots.find((s: { start: string }) => Date.parse(s.start) === Date.parse(WORKSHOP_TUE))
  assert.equal((await workshop()).status, 'available')
  assert.equal((await workshop()).status, 'available')
  const cutoffMinutes = (await client.get('/tours/pastel-de-nata-workshop')).body.cutoff_minutes

  service.clock.set(new Date(Date.parse(WORKSHOP_TUE) - cutoffMinutes * 60_000 - 1).toISOString())
  assert.equal((await workshop()).status, 'available', 'open until the cutoff')
  service.clock.set(new Date(Date.parse(WORKSHOP_TUE) - cutoffMinutes * 60_000).toISOString())
  assert.equal((await workshop()).status, 'closed', 'closed from the cutoff on')
  service.clock.set(WORKSHOP_TUE)
  assert.equal(await workshop(), undefined, 'a departure that has started is not listed')
})

test(`a change written straight into the database by the operator shows in the next read (${testDialect})`, async (t) => {
  const service: TestService = await build(t)
  const client = service.client()
  await holding(client, ALFAMA)
  assert.notEqual((await readTwice(client, ALFAMA_TUE_0930)).status, 'closed')

  await db(service).updateTable('departures').set({ closed: 1 }).where('tour_id', '=', 'alfama-walk').execute()
  // SQLite sees the commit on the next read; PostgreSQL hears of it through a notification
  // on another connection, which may arrive a moment after the commit returns.
  const patienceMs = testDialect === 'sqlite' ? 0 : 2_000
  const startedAt = Date.now()
  let status = (await slotAt(client, ALFAMA_TUE_0930)).status
  while (status !== 'closed' && Date.now() - startedAt < patienceMs) {
    await sleep(10)
    status = (await slotAt(client, ALFAMA_TUE_0930)).status
  }
  assert.equal(status, 'closed')
})
