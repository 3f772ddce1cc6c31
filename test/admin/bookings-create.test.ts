import assert from 'node:assert/strict'
import { test } from 'node:test'
import { bookingRow, db, promoUses, seatsTaken, transitions } from '../helpers/booking-fixtures.ts'
import { ALFAMA_TUE, auditEntries, FADO_MON, guestBooking, operatorService, WORKSHOP_TUE } from './bookings-fixtures.ts'

const WALK_IN = { name: 'Walk In', email: 'walkin@example.com', phone: '912 345 678' }

test('POST /bookings: a staff booking, 201, confirmed, channel staff, its own session, the policy in force, seats taken', async (t) => {
  const { service, staff } = await operatorService(t)
  const res = await staff.post('/bookings', {
    tour_id: 'alfama-walk', start: '2026-06-02T09:30:00+01:00', party: 3, addons: { 'illustrated-map': 1 }, contact: WALK_IN,
    promo_code: 'welcome10', internal_note: ' pays cash ', notify_guest: true,
  })
  assert.equal(res.status, 201, res.text)
  const booking = res.body
  assert.equal(booking.status, 'confirmed')
  assert.equal(booking.channel, 'staff')
  assert.match(booking.code, /^[A-Z2-9]{6}$/)
  assert.deepEqual(booking.contact, { name: 'Walk In', email: 'walkin@example.com', phone: '+351912345678' })
  assert.equal(booking.internal_note, 'pays cash')
  assert.equal(booking.promo_code, 'WELCOME10')
  assert.deepEqual(booking.price, { currency: 'EUR', subtotal: 5700, addons: 600, discount: 630, total: 5670, due_now: 0, due_on_arrival: 5670 })
  assert.deepEqual(booking.policy, { id: 'flexible-48', version: 3 })
  assert.equal(booking.hold_expires_at, null)
  assert.equal(booking.version, 1)
  assert.equal(res.headers.get('etag'), '"1"')
  assert.equal((await bookingRow(service, booking.id)).session_id, `staff:${booking.id}`)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE), 3)
  assert.equal(await promoUses(service, 'WELCOME10'), 1)
  const history = (await staff.get(`/bookings/${booking.code}`)).body.history
  assert.deepEqual(history.map((h: any) => [h.from, h.to, h.actor.type]), [[null, 'confirmed', 'staff']])
  const [entry] = await auditEntries(service, booking.id)
  assert.equal(entry.action, 'booking.created')

  const requested = await staff.post('/bookings', { tour_id: 'fado-night', start: FADO_MON, party: 2, contact: WALK_IN, status: 'requested' })
  assert.equal(requested.body.status, 'requested')
  assert.equal((await staff.post(`/bookings/${requested.body.code}/confirm`)).body.status, 'confirmed')
  const cancelled = await staff.post(`/bookings/${booking.code}/cancel`)
  assert.equal(cancelled.status, 200)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE), 0)
  assert.equal(await promoUses(service, 'WELCOME10'), 0)
})

test("POST /bookings: the guests' cutoff and horizon do not apply; a departure that has ended does", async (t) => {
  const { service, key } = await operatorService(t)
  service.clock.set('2026-06-01T17:00:00Z')
  const guest = service.client()
  const session = await guest.session()
  const tooLate = await guest.post('/booking', { tour_id: 'fado-night', start: FADO_MON, party: 2 }, { headers: session.headers })
  assert.equal(tooLate.body.code, 'cutoff_passed')
  assert.equal((await key.post('/bookings', { tour_id: 'fado-night', start: FADO_MON, party: 2, contact: WALK_IN })).status, 201)

  const farAhead = '2027-06-10T08:30:00Z'
  assert.equal((await guest.post('/booking', { tour_id: 'alfama-walk', start: farAhead, party: 1 }, { headers: session.headers })).body.code, 'date_out_of_range')
  assert.equal((await key.post('/bookings', { tour_id: 'alfama-walk', start: farAhead, party: 1, contact: WALK_IN })).status, 201)

  service.clock.set('2026-06-01T19:40:00Z')
  const walkIn = await key.post('/bookings', { tour_id: 'fado-night', start: FADO_MON, party: 1, contact: WALK_IN })
  assert.equal(walkIn.status, 201, 'a walk-in joins a departure under way')
  service.clock.set('2026-06-01T21:30:00Z')
  const ended = await key.post('/bookings', { tour_id: 'fado-night', start: FADO_MON, party: 1, contact: WALK_IN })
  assert.equal(ended.status, 409)
  assert.equal(ended.body.code, 'departure_ended')
})

test('POST /bookings: capacity and closed departures apply as for guests; departures added by hand can be booked', async (t) => {
  const { service, staff } = await operatorService(t)
  const four = await staff.post('/bookings', { tour_id: 'pastel-de-nata-workshop', start: WORKSHOP_TUE, party: 4, contact: WALK_IN })
  assert.equal(four.status, 201, four.text)
  const over = await staff.post('/bookings', { tour_id: 'pastel-de-nata-workshop', start: WORKSHOP_TUE, party: 1, contact: WALK_IN })
  assert.equal(over.status, 409)
  assert.equal(over.body.code, 'insufficient_capacity')
  assert.equal(over.body.remaining, 0)
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), 4)

  await db(service).insertInto('departures').values({ instance_id: 'lx4t7k2m', tour_id: 'alfama-walk', start_at: '2026-06-02T08:30:00.000Z', capacity: 16, seats_taken: 0, closed: 1 }).execute()
  const closed = await staff.post('/bookings', { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1, contact: WALK_IN })
  assert.equal(closed.status, 409)
  assert.equal(closed.body.remaining, 0)

  const unscheduled = '2026-06-02T11:00:00.000Z'
  assert.equal((await staff.post('/bookings', { tour_id: 'alfama-walk', start: unscheduled, party: 1, contact: WALK_IN })).body.code, 'slot_not_found')
  await db(service).insertInto('departures').values({ instance_id: 'lx4t7k2m', tour_id: 'alfama-walk', start_at: unscheduled, capacity: 6, seats_taken: 0, extra: 1 }).execute()
  const extra = await staff.post('/bookings', { tour_id: 'alfama-walk', start: unscheduled, party: 2, contact: WALK_IN })
  assert.equal(extra.status, 201, extra.text)
  assert.equal(extra.body.end, '2026-06-02T14:30:00+01:00')
})

test('POST /bookings: what the tour does not take is refused, and a repeated Idempotency-Key replays the one booking', async (t) => {
  const { service, staff } = await operatorService(t)
  const base = { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2, contact: WALK_IN }
  const cases: Array<[unknown, number, string]> = [
    [{ ...base, tour_id: 'moon-walk' }, 404, 'tour_not_found'],
    [{ ...base, start: '2026-06-02T08:31:00Z' }, 422, 'slot_not_found'],
    [{ ...base, party: 11 }, 422, 'party_out_of_range'],
    [{ ...base, addons: { 'jetpack': 1 } }, 422, 'invalid_addon'],
    [{ ...base, promo_code: 'SAIL5' }, 422, 'invalid_promo_code'],
    [{ ...base, promo_code: 'NOPE' }, 422, 'invalid_promo_code'],
    [{ ...base, contact: undefined }, 400, 'validation_failed'],
    [{ ...base, contact: { name: 'A', email: 'not-an-email' } }, 400, 'validation_failed'],
    [{ ...base, contact: { ...WALK_IN, phone: '12' } }, 400, 'validation_failed'],
    [{ ...base, status: 'held' }, 400, 'validation_failed'],
    [{ ...base, session: 'abcdefabcdef' }, 400, 'validation_failed'],
  ]
  for (const [body, status, code] of cases) {
    const res = await staff.post('/bookings', body)
    assert.equal(res.status, status, `${JSON.stringify(body)}: ${res.text}`)
    assert.equal(res.body.code, code)
  }
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE), 0)

  const first = await staff.post('/bookings', base, { 'idempotency-key': 'phone-call-17' })
  const again = await staff.post('/bookings', base, { 'idempotency-key': 'phone-call-17' })
  assert.equal(first.status, 201)
  assert.equal(again.status, 201)
  assert.equal(again.headers.get('idempotent-replayed'), 'true')
  assert.deepEqual(again.body, first.body)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE), 2)
  const reused = await staff.post('/bookings', { ...base, party: 3 }, { 'idempotency-key': 'phone-call-17' })
  assert.equal(reused.status, 422)
  assert.equal(reused.body.code, 'idempotency_key_reused')
})

test('release-quarantine: a decoy booking takes its seats and becomes ordinary; when they no longer fit it stays quarantined', async (t) => {
  const { service, staff } = await operatorService(t)
  const spam = await guestBooking(service, { tour_id: 'pastel-de-nata-workshop', start: WORKSHOP_TUE, party: 2, promo_code: 'WELCOME10' }, { name: 'Real Person', email: 'real@example.com', website: 'x' })
  assert.equal(spam.booking.status, 'requested')
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), 0)
  assert.equal(await promoUses(service, 'WELCOME10'), 0)
  const filler = await staff.post('/bookings', { tour_id: 'pastel-de-nata-workshop', start: WORKSHOP_TUE, party: 3, contact: WALK_IN })

  const refused = await staff.post(`/bookings/${spam.booking.code}/release-quarantine`)
  assert.equal(refused.status, 409)
  assert.equal(refused.body.code, 'insufficient_capacity')
  assert.equal(refused.body.remaining, 1)
  assert.equal((await bookingRow(service, spam.booking.id)).quarantined, 1)

  await staff.post(`/bookings/${filler.body.code}/cancel`)
  const released = await staff.post(`/bookings/${spam.booking.code}/release-quarantine`)
  assert.equal(released.status, 200, released.text)
  assert.equal(released.body.quarantined, false)
  assert.equal(released.body.status, 'requested', 'the status its checkout gave it')
  assert.equal(released.body.version, 3)
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), 2)
  assert.equal(await promoUses(service, 'WELCOME10'), 1)
  const again = await staff.post(`/bookings/${spam.booking.code}/release-quarantine`)
  assert.equal(again.status, 200)
  assert.equal(again.body.version, 3)
  assert.deepEqual((await auditEntries(service, spam.booking.id)).map((e) => e.action), ['booking.quarantine_released'])

  // Now an ordinary booking: declining it frees its seats and its promo use.
  await staff.post(`/bookings/${spam.booking.code}/decline`)
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), 0)
  assert.equal(await promoUses(service, 'WELCOME10'), 0)
})

test('release-quarantine applies only to a requested or confirmed booking; a quarantined booking ends without touching seats or promo uses', async (t) => {
  const { service, staff } = await operatorService(t)
  const spam = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2, promo_code: 'WELCOME10' }, { name: 'Bot', email: 'bot@example.com', fax: '1' })
  const cancelled = await staff.post(`/bookings/${spam.booking.code}/cancel`)
  assert.equal(cancelled.status, 200)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE), 0)
  assert.equal(await promoUses(service, 'WELCOME10'), 0)
  const res = await staff.post(`/bookings/${spam.booking.code}/release-quarantine`)
  assert.equal(res.status, 409)
  assert.equal(res.body.code, 'invalid_transition')
  assert.equal(res.body.booking_status, 'cancelled')
  assert.deepEqual(await transitions(service, spam.booking.id), ['->held', 'held>confirmed', 'confirmed>cancelled'])
})
