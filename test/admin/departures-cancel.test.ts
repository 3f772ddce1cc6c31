import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build } from '../helpers/build.ts'
import { bookingRow, db, promoUses, seatsTaken, transitions } from '../helpers/booking-fixtures.ts'
import { OperatorClient, signedInStaff } from '../helpers/operator.ts'
import { auditEntries, departurePath, departureRow, guestBooking, guestHold, operator } from './departures-fixtures.ts'

/** fado-night (on request) at 20:30 on Tuesday 2 June. */
const FADO_TUE = '2026-06-02T19:30:00Z'
const FADO = departurePath('fado-night', FADO_TUE)
const STORM = { reason: 'Storm warning: the venue is closed' }

/** A departure with a lapsed hold, a live hold, two requests (one confirmed since, one with a promo code) and a checked-in guest. */
async function busyDeparture(service: Awaited<ReturnType<typeof build>>) {
  const lapsed = await guestHold(service, { tour_id: 'fado-night', start: FADO_TUE, party: 1 })
  service.clock.advance({ minutes: 16 })
  const live = await guestHold(service, { tour_id: 'fado-night', start: FADO_TUE, party: 3 })
  const requested = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2, promo_code: 'WELCOME10' })
  const confirmed = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 4 })
  const checkedIn = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 1 })
  // As if an operator had confirmed one request and checked another guest in early.
  await db(service).updateTable('bookings').set({ status: 'confirmed' }).where('id', '=', confirmed.booking.id).execute()
  await db(service).updateTable('bookings').set({ status: 'completed', checked_in_at: '2026-06-01T09:00:00.000Z' }).where('id', '=', checkedIn.booking.id).execute()
  return { lapsed, live, requested, confirmed, checkedIn }
}

test('POST …/cancel closes the departure, cancels its requests and bookings with the fee waived, releases its holds and frees the seats', async (t) => {
  const service = await build(t)
  const { lapsed, live, requested, confirmed, checkedIn } = await busyDeparture(service)
  assert.equal(await seatsTaken(service, 'fado-night', FADO_TUE), 11)
  assert.equal(await promoUses(service, 'WELCOME10'), 1)
  const { client: staff } = await signedInStaff(service, 'staff')

  const res = await staff.post(`${FADO}/cancel`, STORM, { 'if-match': '"1"' })
  assert.equal(res.status, 200, res.text)
  assert.equal(res.body.cancelled_bookings, 2)
  assert.equal(res.body.released_holds, 1)
  const { departure } = res.body
  assert.deepEqual([departure.closed, departure.cancelled, departure.version], [true, true, 2])
  assert.deepEqual(departure.seats, { held: 0, requested: 0, confirmed: 0, completed: 1, no_show: 0, free: 23 })

  for (const { booking } of [requested, confirmed]) {
    const row = await bookingRow(service, booking.id)
    assert.deepEqual([row.status, row.cancelled_by, row.cancellation_reason, row.fee_waived, row.cancellation_fee, row.cancellation_fee_percent],
      ['cancelled', 'operator', STORM.reason, 1, 0, 0])
    assert.equal(row.cancelled_at, '2026-06-01T08:16:00.000Z')
  }
  assert.deepEqual((await transitions(service, confirmed.booking.id)).at(-1), 'confirmed>cancelled')
  assert.equal((await bookingRow(service, live.booking.id)).status, 'released')
  assert.equal((await bookingRow(service, lapsed.booking.id)).status, 'expired')
  assert.equal((await bookingRow(service, checkedIn.booking.id)).status, 'completed', 'a checked-in guest stays checked in')
  assert.equal(await seatsTaken(service, 'fado-night', FADO_TUE), 1)
  assert.equal(await promoUses(service, 'WELCOME10'), 0, 'the promo use is given back')

  // The guests see it.
  const mine = await requested.client.get('/booking', { headers: { 'x-session': requested.session.session } })
  assert.equal(mine.body.status, 'cancelled')
  assert.deepEqual([mine.body.cancellation.fee, mine.body.cancellation.fee_percent], [0, 0])
  const held = await live.client.get('/booking', { headers: { 'x-session': live.session.session } })
  assert.equal(held.status, 404, 'a released hold is no longer the session\'s booking')
  const availability = await service.client().get('/availability?tour=fado-night&date=2026-06-02&days=1&party=1')
  assert.deepEqual([availability.body.slots[0].status, availability.body.slots[0].bookable], ['closed', false])
  const session = await live.client.session()
  const again = await live.client.post('/booking', { tour_id: 'fado-night', start: FADO_TUE, party: 1 }, { headers: session.headers })
  assert.deepEqual([again.status, again.body.code], [409, 'insufficient_capacity'])

  const [entry] = await auditEntries(service, 'departure.cancelled')
  assert.equal(entry.target_id, 'fado-night/2026-06-02T19:30:00.000Z')
  assert.deepEqual(JSON.parse(entry.after!), { closed: true, cancelled: true, reason: STORM.reason, cancelled_bookings: 2, released_holds: 1 })
  const bookingEntries = await auditEntries(service, 'booking.cancelled')
  assert.deepEqual(bookingEntries.map((e) => e.target_id).sort(), [requested.booking.id, confirmed.booking.id].sort())
  assert.deepEqual(bookingEntries.map((e) => JSON.parse(e.before!).status).sort(), ['confirmed', 'requested'])
})

test('cancelling a cancelled departure answers it as it is; it cannot be reopened; an Idempotency-Key replays the first answer', async (t) => {
  const service = await build(t)
  await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })
  const staff = await operator(service)
  const first = await staff.post(`${FADO}/cancel`, STORM, { 'idempotency-key': 'storm-1' })
  assert.equal(first.status, 200)
  const replay = await staff.post(`${FADO}/cancel`, STORM, { 'idempotency-key': 'storm-1' })
  assert.equal(replay.headers.get('idempotent-replayed'), 'true')
  assert.deepEqual(replay.body, first.body)
  const repeat = await staff.post(`${FADO}/cancel`, { reason: 'again' })
  assert.equal(repeat.status, 200)
  assert.deepEqual([repeat.body.cancelled_bookings, repeat.body.released_holds, repeat.body.departure.version], [0, 0, 2])
  assert.equal((await auditEntries(service, 'departure.cancelled')).length, 1)

  const reopen = await staff.patch(FADO, { closed: false })
  assert.deepEqual([reopen.status, reopen.body.code], [409, 'departure_cancelled'])
  const note = await staff.patch(FADO, { note: 'Refunds by phone' })
  assert.equal(note.status, 200, 'its note can still change')
})

test('a departure nobody booked can be cancelled too; guests then see it closed', async (t) => {
  const service = await build(t)
  const staff = await operator(service)
  const res = await staff.post(`${departurePath('alfama-walk', '2026-06-03T08:30:00Z')}/cancel`, STORM)
  assert.equal(res.status, 200, res.text)
  assert.deepEqual([res.body.departure.cancelled, res.body.cancelled_bookings], [true, 0])
  const availability = await service.client().get('/availability?tour=alfama-walk&date=2026-06-03&days=1')
  assert.equal(availability.body.slots[0].status, 'closed')
  assert.equal(availability.body.slots[1].status, 'available')
})

test('cancel: a stale If-Match is 412 and changes nothing; reason is required; no such departure is 404; only departures.change may cancel', async (t) => {
  const service = await build(t)
  const { booking } = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })
  const staff = await operator(service)
  assert.equal((await staff.patch(FADO, { note: 'v2' })).status, 200)
  const stale = await staff.post(`${FADO}/cancel`, STORM, { 'if-match': '"1"' })
  assert.deepEqual([stale.status, stale.body.code, stale.body.version], [412, 'precondition_failed', 2])
  assert.equal((await bookingRow(service, booking.id)).status, 'requested')
  assert.equal((await departureRow(service, 'fado-night', FADO_TUE))!.cancelled, 0)

  const cases: Array<[string, unknown, number, string]> = [
    [`${FADO}/cancel`, {}, 400, 'validation_failed'],
    [`${FADO}/cancel`, { reason: '   ' }, 400, 'validation_failed'],
    [`${FADO}/cancel`, { reason: 'x', refund: true }, 400, 'validation_failed'],
    [`${departurePath('fado-night', '2026-06-02T19:31:00Z')}/cancel`, STORM, 404, 'departure_not_found'],
  ]
  for (const [path, body, status, code] of cases) {
    const res = await staff.post(path, body)
    assert.equal(res.status, status, `${JSON.stringify(body)}: ${res.text}`)
    assert.equal(res.body.code, code)
  }
  for (const role of ['guide', 'viewer'] as const) {
    assert.equal((await (await operator(service, role)).post(`${FADO}/cancel`, STORM)).status, 403, role)
  }
  assert.equal((await new OperatorClient(service.origin, 'lisbon').post(`${FADO}/cancel`, STORM)).status, 401)
  assert.equal((await bookingRow(service, booking.id)).status, 'requested', 'nothing refused changed the booking')
})
