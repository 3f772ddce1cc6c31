import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build } from '../helpers/build.ts'
import { ALFAMA_TUE_0930, CONTACT } from '../helpers/booking-fixtures.ts'
import { OperatorClient } from '../helpers/operator.ts'
import { auditEntries, departurePath, guestBooking, operator, orphan } from './departures-fixtures.ts'

const EXTRA = { tour_id: 'alfama-walk', start: '2026-06-02T11:00:00+01:00' }

test('POST /departures adds a departure that guests see in availability and book like a scheduled one', async (t) => {
  const service = await build(t)
  const staff = await operator(service)
  const res = await staff.post('/departures', EXTRA)
  assert.equal(res.status, 201, res.text)
  assert.deepEqual(res.body, {
    tour_id: 'alfama-walk',
    start: '2026-06-02T11:00:00+01:00',
    end: '2026-06-02T13:30:00+01:00',
    date: '2026-06-02',
    time: '11:00',
    capacity: 16,
    capacity_source: 'tour',
    seats: { held: 0, requested: 0, confirmed: 0, completed: 0, no_show: 0, free: 16 },
    closed: false,
    cancelled: false,
    note: null,
    extra: true,
    orphaned: false,
    min_participants: null,
    guaranteed: false,
    version: 1,
  })
  const [entry] = await auditEntries(service, 'departure.added')
  assert.equal(entry.target_id, 'alfama-walk/2026-06-02T10:00:00.000Z')

  const guest = service.client()
  const availability = await guest.get('/availability?tour=alfama-walk&date=2026-06-02&days=1&party=2')
  assert.deepEqual(availability.body.slots.map((s: any) => [s.time, s.status]), [['09:30', 'available'], ['11:00', 'available'], ['14:00', 'available'], ['17:30', 'available']])
  assert.equal(availability.body.slots[1].end, '2026-06-02T13:30:00+01:00')

  // The start in UTC names the same departure.
  const { booking } = await guestBooking(service, { tour_id: 'alfama-walk', start: '2026-06-02T10:00:00Z', party: 2, addons: { 'illustrated-map': 1 } })
  assert.deepEqual([booking.status, booking.start, booking.end], ['confirmed', '2026-06-02T11:00:00+01:00', '2026-06-02T13:30:00+01:00'])
  const manifest = await staff.get(departurePath('alfama-walk', EXTRA.start))
  assert.deepEqual(manifest.body.manifest.map((m: any) => [m.code, m.name]), [[booking.code, CONTACT.name]])
  assert.equal(manifest.body.departure.seats.confirmed, 2)
  const later = await guest.get('/availability?tour=alfama-walk&date=2026-06-02&days=1&party=2')
  assert.equal(later.body.slots[1].remaining, 14, 'the kept availability answer was read again after the booking')
})

test('an added departure keeps a capacity given at creation; once cancelled guests see it closed', async (t) => {
  const service = await build(t)
  const staff = await operator(service)
  const res = await staff.post('/departures', { ...EXTRA, capacity: 2 })
  assert.deepEqual([res.status, res.body.capacity, res.body.capacity_source], [201, 2, 'operator'])
  const guest = service.client()
  const session = await guest.session()
  const tooMany = await guest.post('/booking', { tour_id: 'alfama-walk', start: EXTRA.start, party: 3 }, { headers: session.headers })
  assert.deepEqual([tooMany.status, tooMany.body.code, tooMany.body.remaining], [409, 'insufficient_capacity', 2])
  assert.equal((await staff.post(`${departurePath('alfama-walk', EXTRA.start)}/cancel`, { reason: 'guide ill' })).status, 200)
  const availability = await guest.get('/availability?tour=alfama-walk&date=2026-06-02&days=1')
  assert.deepEqual(availability.body.slots[1].time, '11:00')
  assert.deepEqual(availability.body.slots[1].status, 'closed')
  const refused = await guest.post('/booking', { tour_id: 'alfama-walk', start: EXTRA.start, party: 1 }, { headers: session.headers })
  assert.deepEqual([refused.status, refused.body.code], [409, 'insufficient_capacity'])
  assert.deepEqual([(await staff.post('/departures', EXTRA)).body.code], ['departure_exists'])
})

test('an orphaned departure can be added back; its bookings stay and guests can book it again', async (t) => {
  const service = await build(t)
  const staff = await operator(service)
  await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 5 })
  await orphan(service, 'alfama-walk', ALFAMA_TUE_0930, '2026-06-02T09:00:00Z')
  const guest = service.client()
  const session = await guest.session()
  const before = await guest.post('/booking', { tour_id: 'alfama-walk', start: '2026-06-02T09:00:00Z', party: 1 }, { headers: session.headers })
  assert.deepEqual([before.status, before.body.code], [422, 'slot_not_found'], 'guests cannot book an orphaned departure')

  const low = await staff.post('/departures', { tour_id: 'alfama-walk', start: '2026-06-02T09:00:00Z', capacity: 4 })
  assert.deepEqual([low.status, low.body.code, low.body.seats_taken], [409, 'capacity_below_booked', 5])
  const res = await staff.post('/departures', { tour_id: 'alfama-walk', start: '2026-06-02T09:00:00Z' })
  assert.equal(res.status, 201, res.text)
  assert.deepEqual([res.body.extra, res.body.orphaned, res.body.seats.confirmed, res.body.version], [true, false, 5, 2])
  const after = await guest.post('/booking', { tour_id: 'alfama-walk', start: '2026-06-02T09:00:00Z', party: 1 }, { headers: session.headers })
  assert.equal(after.status, 200, after.text)
})

test('POST /departures refuses a scheduled or added start, the past, a start off the minute, an unknown tour; replays an Idempotency-Key', async (t) => {
  const service = await build(t)
  const staff = await operator(service)
  const first = await staff.post('/departures', EXTRA, { 'idempotency-key': 'extra-1' })
  const replay = await staff.post('/departures', EXTRA, { 'idempotency-key': 'extra-1' })
  assert.deepEqual([replay.status, replay.headers.get('idempotent-replayed')], [201, 'true'])
  assert.deepEqual(replay.body, first.body)
  const cases: Array<[unknown, number, string]> = [
    [EXTRA, 409, 'departure_exists'],
    [{ tour_id: 'alfama-walk', start: ALFAMA_TUE_0930 }, 409, 'departure_exists'],
    [{ tour_id: 'alfama-walk', start: '2026-06-01T07:00:00Z' }, 422, 'date_out_of_range'],
    [{ tour_id: 'alfama-walk', start: '2026-06-02T10:00:30Z' }, 400, 'validation_failed'],
    [{ tour_id: 'nowhere', start: '2026-06-02T10:00:00Z' }, 404, 'tour_not_found'],
    [{ tour_id: 'alfama-walk', start: 'tomorrow' }, 400, 'validation_failed'],
    [{ tour_id: 'alfama-walk', start: '2026-06-03T10:00:00Z', capacity: 0 }, 400, 'validation_failed'],
    [{ tour_id: 'alfama-walk', start: '2026-06-03T10:00:00Z', extra: true }, 400, 'validation_failed'],
  ]
  for (const [body, status, code] of cases) {
    const res = await staff.post('/departures', body)
    assert.equal(res.status, status, `${JSON.stringify(body)}: ${res.text}`)
    assert.equal(res.body.code, code, JSON.stringify(body))
  }
  for (const role of ['guide', 'viewer'] as const) {
    assert.equal((await (await operator(service, role)).post('/departures', { ...EXTRA, start: '2026-06-04T10:00:00Z' })).status, 403, role)
  }
  assert.equal((await new OperatorClient(service.origin, 'lisbon').post('/departures', EXTRA)).status, 401)
  assert.equal((await auditEntries(service, 'departure.added')).length, 1)
})
