import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build } from '../helpers/build.ts'
import type { ApiClient } from '../helpers/client.ts'
import { ALFAMA_TUE_0930, WORKSHOP_TUE, ALFAMA, CONTACT, bookingRow, transitions, seatsTaken, holding } from '../helpers/booking-fixtures.ts'

// The clock stands at 2026-06-01T08:00:00Z, Monday 09:00 in Lisbon (+01:00); holds last 15 minutes.
const HOLD_EXPIRES_AT = '2026-06-01T08:15:00Z'
const WORKSHOP = { tour_id: 'pastel-de-nata-workshop', start: WORKSHOP_TUE, party: 3 }

async function workshopRemaining(client: ApiClient): Promise<number> {
  const res = await client.get('/availability?tour=pastel-de-nata-workshop&date=2026-06-02&days=1')
  assert.equal(res.status, 200)
  const slot = res.body.slots.find((s: { start: string }) => Date.parse(s.start) === Date.parse(WORKSHOP_TUE))
  assert.ok(slot, 'the 10:00 workshop is listed')
  return slot.remaining
}

test('a hold counts against availability until hold_expires_at and not from that instant on, before any sweep', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { booking } = await holding(client, WORKSHOP)
  assert.equal(booking.hold_expires_at, '2026-06-01T09:15:00+01:00')
  assert.equal(await workshopRemaining(client), 1)

  service.clock.set('2026-06-01T08:14:59Z')
  assert.equal(await workshopRemaining(client), 1, 'one second before expiry the seats are still held')

  service.clock.set(HOLD_EXPIRES_AT)
  assert.equal(await workshopRemaining(client), 4, 'at hold_expires_at the seats are back')
  const row = await bookingRow(service, booking.id)
  assert.equal(row.status, 'held', 'nothing has written the expiry yet')
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), 3, 'the counter is untouched: availability discounts the lapsed hold itself')
})

test('seats of a lapsed hold can be taken by another session before any sweep, which expires the lapsed hold', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { booking: lapsed } = await holding(client, WORKSHOP)
  service.clock.set(HOLD_EXPIRES_AT)
  const { booking: fresh } = await holding(client, { ...WORKSHOP, party: 4 })
  assert.equal(fresh.status, 'held')
  assert.equal((await bookingRow(service, lapsed.id)).status, 'expired')
  assert.deepEqual(await transitions(service, lapsed.id), ['->held', 'held>expired'])
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), 4)
  assert.equal(await workshopRemaining(client), 0)
})

test('GET /booking after hold_expires_at shows the booking expired and writes it, freeing its seats', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { session, booking } = await holding(client, WORKSHOP)
  service.clock.advance({ minutes: 16 })
  const res = await client.get('/booking', { headers: { 'x-session': session.session } })
  assert.equal(res.status, 200)
  assert.equal(res.body.id, booking.id)
  assert.equal(res.body.status, 'expired')
  assert.equal(res.body.hold_expires_at, null)

  assert.equal((await bookingRow(service, booking.id)).status, 'expired')
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), 0)
  assert.deepEqual(await transitions(service, booking.id), ['->held', 'held>expired'])

  const again = await client.get('/booking', { headers: { 'x-session': session.session } })
  assert.equal(again.body.status, 'expired')
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), 0, 'reading twice frees nothing more')
  assert.deepEqual(await transitions(service, booking.id), ['->held', 'held>expired'])
})

test('DELETE /booking after the hold lapsed is 404 no_booking and records the hold as expired, not released', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { session, booking } = await holding(client, WORKSHOP)
  service.clock.set(HOLD_EXPIRES_AT)
  const res = await client.delete('/booking', { headers: session.headers })
  assert.equal(res.status, 404)
  assert.equal(res.body.code, 'no_booking')
  assert.equal((await bookingRow(service, booking.id)).status, 'expired')
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), 0)
  assert.deepEqual(await transitions(service, booking.id), ['->held', 'held>expired'])
})

test('the sweep writes expired for lapsed holds nobody read and frees their seats exactly once', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { booking: a } = await holding(client, ALFAMA)
  const { booking: b } = await holding(client, WORKSHOP)
  service.clock.advance({ minutes: 10 })
  const { booking: live } = await holding(client, { ...ALFAMA, party: 1 })
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 3)

  service.clock.advance({ minutes: 6 })
  const swept = await service.context.bookings.sweepLapsedHolds(service.clock.now())
  assert.equal(swept, 2)
  assert.equal((await bookingRow(service, a.id)).status, 'expired')
  assert.equal((await bookingRow(service, b.id)).status, 'expired')
  assert.equal((await bookingRow(service, live.id)).status, 'held', 'a hold still running is left alone')
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 1)
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), 0)

  const sweptAgain = await service.context.bookings.sweepLapsedHolds(service.clock.now())
  assert.equal(sweptAgain, 0)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 1, 'a second sweep frees nothing')
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), 0)
  assert.deepEqual(await transitions(service, a.id), ['->held', 'held>expired'])
  assert.deepEqual(await transitions(service, b.id), ['->held', 'held>expired'])
  assert.deepEqual(await transitions(service, live.id), ['->held'])
})

test('reads after the sweep show expired without freeing the seats a second time', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { session, booking } = await holding(client, WORKSHOP)
  await holding(client, { ...WORKSHOP, party: 1 })
  service.clock.set(HOLD_EXPIRES_AT)
  assert.equal(await service.context.bookings.sweepLapsedHolds(service.clock.now()), 2)
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), 0)

  const shown = await client.get('/booking', { headers: { 'x-session': session.session } })
  assert.equal(shown.body.status, 'expired')
  const checkout = await client.post('/checkout', CONTACT, { headers: { 'x-session': session.session } })
  assert.equal(checkout.status, 410)
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), 0)
  assert.deepEqual(await transitions(service, booking.id), ['->held', 'held>expired'])
  assert.equal(await workshopRemaining(client), 4)
})

test('the sweep before hold_expires_at expires nothing', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { booking } = await holding(client, WORKSHOP)
  service.clock.set('2026-06-01T08:14:59Z')
  assert.equal(await service.context.bookings.sweepLapsedHolds(service.clock.now()), 0)
  assert.equal((await bookingRow(service, booking.id)).status, 'held')
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), 3)
})

test('checkout exactly at hold_expires_at is 410 hold_expired', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { session, booking } = await holding(client, WORKSHOP)
  service.clock.set(HOLD_EXPIRES_AT)
  const res = await client.post('/checkout', CONTACT, { headers: { 'x-session': session.session } })
  assert.equal(res.status, 410)
  assert.equal(res.body.code, 'hold_expired')
  const row = await bookingRow(service, booking.id)
  assert.equal(row.status, 'expired')
  assert.equal(row.code, null)
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), 0)
})

test('checkout one second before hold_expires_at succeeds and keeps the seats past the hold time', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { session, booking } = await holding(client, WORKSHOP)
  service.clock.set('2026-06-01T08:14:59Z')
  const res = await client.post('/checkout', CONTACT, { headers: { 'x-session': session.session } })
  assert.equal(res.status, 200)
  assert.equal(res.body.status, 'requested')
  assert.equal(res.body.hold_expires_at, null)

  service.clock.advance({ hours: 1 })
  assert.equal(await service.context.bookings.sweepLapsedHolds(service.clock.now()), 0, 'a requested booking is not a lapsed hold')
  assert.equal((await bookingRow(service, booking.id)).status, 'requested')
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), 3)
  assert.equal(await workshopRemaining(client), 1)
})

test('the hold length follows the instance setting (TOURDESK_HOLD_SECONDS-style override)', async (t) => {
  const service = await build(t, { holdSeconds: 90 })
  const client = service.client()
  const { session, booking } = await holding(client, WORKSHOP)
  assert.equal(booking.hold_expires_at, '2026-06-01T09:01:30+01:00')
  service.clock.advance({ seconds: 90 })
  const res = await client.post('/checkout', CONTACT, { headers: { 'x-session': session.session } })
  assert.equal(res.status, 410)
  assert.equal((await bookingRow(service, booking.id)).status, 'expired')
})

test('a lapsed hold replaced by a new hold on another departure is recorded as expired, not released', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { session, booking: lapsed } = await holding(client, WORKSHOP)
  service.clock.advance({ minutes: 16 })
  const res = await client.post('/booking', ALFAMA, { headers: session.headers })
  assert.equal(res.status, 200)
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), 0)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 2)
  // Its timer ran out before the new hold was made: GET /booking would already have shown it expired.
  assert.equal((await bookingRow(service, lapsed.id)).status, 'expired')
  assert.deepEqual(await transitions(service, lapsed.id), ['->held', 'held>expired'])
})
