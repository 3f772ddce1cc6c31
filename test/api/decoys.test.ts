import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, demoCatalog, type TestService } from '../helpers/build.ts'
import type { ApiClient } from '../helpers/client.ts'
import { ALFAMA_TUE_0930, ALFAMA_TUE_1400, CONTACT, db, bookingRow, promoUses, type Session } from '../helpers/booking-fixtures.ts'

// Decoy fields on holds and checkouts: the answer looks real, the booking is quarantined and
// holds no seat. The clock stands at 2026-06-01T08:00:00Z, Monday 09:00 in Lisbon.
const ALFAMA = { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 3 }

async function seatsTaken(service: TestService, start = ALFAMA_TUE_0930): Promise<number> {
  const rows = await db(service).selectFrom('departures').selectAll().where('tour_id', '=', 'alfama-walk').execute()
  return rows.find((r) => Date.parse(r.start_at) === Date.parse(start))?.seats_taken ?? 0
}

/** `remaining` of the alfama-walk slot at `start`, as GET /availability reports it. */
async function remaining(client: ApiClient, start = ALFAMA_TUE_0930): Promise<number> {
  const res = await client.get('/availability?tour=alfama-walk&date=2026-06-02&days=1')
  assert.equal(res.status, 200)
  const slot = res.body.slots.find((s: { start: string }) => Date.parse(s.start) === Date.parse(start))
  assert.ok(slot, `a slot at ${start}`)
  return slot.remaining
}

async function hold(client: ApiClient, session: Session, body: Record<string, unknown>) {
  const res = await client.post('/booking', body, { headers: session.headers })
  assert.equal(res.status, 200, res.text)
  return res
}

/**
 * A value with every leaf replaced by its type, except the fields a decoy answer must match
 * exactly; two answers with equal shapes cannot be told apart by their structure.
 */
function shape(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => shape(v))
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v, k)]))
  }
  return ['status', 'currency', 'timezone'].includes(key) ? value : value === null ? 'null' : typeof value
}

test('a hold that fills a decoy answers like a real hold, takes no seat and leaves availability unchanged', async (t) => {
  const service = await build(t)
  const client = service.client()
  const realSession = await client.session()
  const real = await hold(client, realSession, ALFAMA)
  const before = await remaining(client)
  assert.equal(before, 13)

  const decoySession = await client.session()
  const decoy = await hold(client, decoySession, { ...ALFAMA, company: 'ACME Ltd' })
  assert.deepEqual(shape(decoy.body), shape(real.body))
  assert.equal(decoy.body.status, 'held')
  assert.deepEqual(decoy.body.price, real.body.price)
  assert.equal(decoy.body.hold_expires_at, real.body.hold_expires_at)
  assert.equal(decoy.headers.get('cache-control'), real.headers.get('cache-control'))

  assert.equal(await remaining(client), before, 'availability is as before the decoy hold')
  assert.equal(await seatsTaken(service), 3)
  assert.equal((await bookingRow(service, decoy.body.id)).quarantined, 1)
  assert.equal((await bookingRow(service, real.body.id)).quarantined, 0)

  const shown = await client.get('/booking', { headers: { 'x-session': decoySession.session } })
  assert.equal(shown.status, 200)
  assert.equal(shown.body.id, decoy.body.id)
  assert.equal(shown.body.status, 'held', 'the session sees its hold like any other')
})

test('a decoy hold replaces the session\'s real hold: the real one is released and its seats freed', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  const real = await hold(client, s, ALFAMA)
  assert.equal(await seatsTaken(service), 3)
  const decoy = await hold(client, s, { ...ALFAMA, start: ALFAMA_TUE_1400, website: 'https://spam.example' })
  assert.equal((await bookingRow(service, real.body.id)).status, 'released')
  assert.equal(await seatsTaken(service), 0)
  assert.equal(await seatsTaken(service, ALFAMA_TUE_1400), 0)
  assert.equal(await remaining(client), 16)
  assert.equal(await remaining(client, ALFAMA_TUE_1400), 16)
  const current = await client.get('/booking', { headers: { 'x-session': s.session } })
  assert.equal(current.body.id, decoy.body.id)
})

test('a real hold replacing a decoy hold frees nothing the decoy never took', async (t) => {
  const service = await build(t)
  const client = service.client()
  const other = await client.session()
  await hold(client, other, { ...ALFAMA, party: 2 })
  const s = await client.session()
  const decoy = await hold(client, s, { ...ALFAMA, fax: '000' })
  const real = await hold(client, s, ALFAMA)
  assert.equal((await bookingRow(service, decoy.body.id)).status, 'released')
  assert.equal((await bookingRow(service, real.body.id)).quarantined, 0)
  assert.equal(await seatsTaken(service), 5, 'the other visitor\'s 2 and this real hold\'s 3')
})

test('a decoy hold that lapses frees no seats it never took', async (t) => {
  const service = await build(t)
  const client = service.client()
  const other = await client.session()
  await hold(client, other, { ...ALFAMA, party: 2 })
  service.clock.advance({ minutes: 10 })
  const s = await client.session()
  const decoy = await hold(client, s, { ...ALFAMA, nickname: 'bot' })
  // The other visitor's 15-minute hold lapses at 08:15; the decoy's at 08:25.
  service.clock.advance({ minutes: 14 })
  await service.context.bookings.sweepLapsedHolds(service.clock.now())
  await hold(client, await client.session(), { ...ALFAMA, party: 1 })
  assert.equal(await seatsTaken(service), 1, 'the lapsed real hold gave its 2 seats back; the decoy gave none')
  service.clock.advance({ minutes: 2 })
  const lapsed = await client.get('/booking', { headers: { 'x-session': s.session } })
  assert.equal(lapsed.body.status, 'expired')
  assert.equal((await bookingRow(service, decoy.body.id)).status, 'expired')
  assert.equal(await seatsTaken(service), 1)
})

test('a checkout that fills a decoy answers like a real checkout, but the booking is quarantined, its seats released and its promo not counted', async (t) => {
  const service = await build(t)
  const client = service.client()
  const a = await client.session()
  const b = await client.session()
  await hold(client, a, { ...ALFAMA, promo_code: 'WELCOME10' })
  const held = await hold(client, b, { ...ALFAMA, promo_code: 'WELCOME10' })
  assert.equal(await seatsTaken(service), 6)

  const real = await client.post('/checkout', CONTACT, { headers: { 'x-session': a.session } })
  const decoy = await client.post('/checkout', { ...CONTACT, middle_name: 'Maria' }, { headers: { 'x-session': b.session } })
  assert.equal(real.status, 200, real.text)
  assert.equal(decoy.status, 200, decoy.text)
  assert.deepEqual(shape(decoy.body), shape(real.body))
  assert.equal(decoy.body.status, 'confirmed')
  assert.match(decoy.body.code, /^[A-Z0-9]{6}$/)
  assert.deepEqual(decoy.body.price, real.body.price)
  assert.deepEqual(decoy.body.contact, { ...CONTACT, phone: null })

  const row = await bookingRow(service, held.body.id)
  assert.equal(row.quarantined, 1)
  assert.equal(row.status, 'confirmed', 'kept as it would have been, for the operator to see')
  assert.equal(row.contact_email, CONTACT.email)
  assert.equal(await seatsTaken(service), 3, 'only the real booking keeps its seats')
  assert.equal(await remaining(client), 13)
  assert.equal(await promoUses(service, 'WELCOME10'), 1, 'only the real checkout counts a use')
})

test('checking out a decoy hold (with a clean body) answers like a real checkout and quarantines the booking; seats stay free', async (t) => {
  const service = await build(t)
  const client = service.client()
  const realSession = await client.session()
  await hold(client, realSession, ALFAMA)
  const real = await client.post('/checkout', CONTACT, { headers: { 'x-session': realSession.session } })
  const s = await client.session()
  const decoyHold = await hold(client, s, { ...ALFAMA, company: 'ACME' })
  const res = await client.post('/checkout', CONTACT, { headers: { 'x-session': s.session } })
  assert.equal(res.status, 200, res.text)
  assert.equal(res.body.id, decoyHold.body.id)
  assert.deepEqual(shape(res.body), shape(real.body))
  const row = await bookingRow(service, decoyHold.body.id)
  assert.equal(row.quarantined, 1)
  assert.equal(row.status, 'confirmed')
  assert.equal(await seatsTaken(service), 3, 'only the real booking holds seats')
  assert.equal(await remaining(client), 13)
})

test('cancelling a quarantined booking frees no seats, so other bookings keep theirs', async (t) => {
  const service = await build(t)
  const client = service.client()
  const other = await client.session()
  await hold(client, other, { ...ALFAMA, party: 2 })
  const s = await client.session()
  await hold(client, s, ALFAMA)
  assert.equal((await client.post('/checkout', { ...CONTACT, website: 'x' }, { headers: { 'x-session': s.session } })).status, 200)
  assert.equal(await seatsTaken(service), 2)
  const cancelled = await client.delete('/booking', { headers: s.headers })
  assert.equal(cancelled.status, 200, cancelled.text)
  assert.equal(cancelled.body.status, 'cancelled')
  assert.equal(await seatsTaken(service), 2)
  assert.equal(await remaining(client), 14)
})

test('the decoy set comes from the catalog: with decoys ["nickname"], company is an ordinary field and nickname quarantines', async (t) => {
  const catalog = demoCatalog()
  catalog.instances[0].decoys = ['nickname']
  const service = await build(t, { catalog })
  const client = service.client()
  const withCompany = await hold(client, await client.session(), { ...ALFAMA, company: 'ACME' })
  assert.equal((await bookingRow(service, withCompany.body.id)).quarantined, 0)
  assert.equal(await seatsTaken(service), 3)
  const withNickname = await hold(client, await client.session(), { ...ALFAMA, nickname: 'bot' })
  assert.equal((await bookingRow(service, withNickname.body.id)).quarantined, 1)
  assert.equal(await seatsTaken(service), 3)
})

test('with an empty decoy set nothing is quarantined', async (t) => {
  const catalog = demoCatalog()
  catalog.instances[0].decoys = []
  const service = await build(t, { catalog })
  const client = service.client()
  const s = await client.session()
  const held = await hold(client, s, { ...ALFAMA, company: 'A', fax: 'B', middle_name: 'C', nickname: 'D', website: 'E' })
  const checkout = await client.post('/checkout', { ...CONTACT, website: 'https://example.pt' }, { headers: { 'x-session': s.session } })
  assert.equal(checkout.status, 200, checkout.text)
  assert.equal((await bookingRow(service, held.body.id)).quarantined, 0)
  assert.equal(await seatsTaken(service), 3)
})
