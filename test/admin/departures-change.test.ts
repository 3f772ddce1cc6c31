import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build } from '../helpers/build.ts'
import { ALFAMA_TUE_0930, ALFAMA_TUE_1400, seatsTaken } from '../helpers/booking-fixtures.ts'
import { OperatorClient, signedInStaff } from '../helpers/operator.ts'
import { auditEntries, departurePath, departureRow, guestBooking, guestHold, operator } from './departures-fixtures.ts'

const ALFAMA_0930 = departurePath('alfama-walk', ALFAMA_TUE_0930)

test('PATCH /departures/{tour}/{start} sets capacity, closed and note, raises the version and audits the change', async (t) => {
  const service = await build(t)
  await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 2 })
  const { client: staff } = await signedInStaff(service, 'staff')

  const res = await staff.patch(ALFAMA_0930, { capacity: 6, note: '  Meet at the tram stop  ' }, { 'if-match': '"1"' })
  assert.equal(res.status, 200, res.text)
  assert.equal(res.body.capacity, 6)
  assert.equal(res.body.capacity_source, 'operator')
  assert.equal(res.body.note, 'Meet at the tram stop')
  assert.equal(res.body.version, 2)
  assert.deepEqual(res.body.seats, { held: 0, requested: 0, confirmed: 2, completed: 0, no_show: 0, free: 4 })
  const [entry] = await auditEntries(service, 'departure.changed')
  assert.equal(entry.actor_type, 'staff')
  assert.equal(entry.target_id, 'alfama-walk/2026-06-02T08:30:00.000Z')
  assert.deepEqual(JSON.parse(entry.before!), { capacity: 16, capacity_source: 'tour', note: null })
  assert.deepEqual(JSON.parse(entry.after!), { capacity: 6, capacity_source: 'operator', note: 'Meet at the tram stop' })
  assert.ok(entry.request_id)

  // The same values again change nothing: same version, no second audit entry.
  const again = await staff.patch(ALFAMA_0930, { capacity: 6 }, { 'if-match': '2' })
  assert.equal(again.status, 200)
  assert.equal(again.body.version, 2)
  assert.equal((await auditEntries(service, 'departure.changed')).length, 1)

  // The capacity stays whatever later holds do.
  await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 4 })
  assert.equal((await departureRow(service, 'alfama-walk', ALFAMA_TUE_0930))!.capacity, 6)
  const full = await service.client().get('/availability?tour=alfama-walk&date=2026-06-02&days=1')
  assert.deepEqual([full.body.slots[0].capacity, full.body.slots[0].remaining, full.body.slots[0].status], [6, 0, 'sold_out'])

  const cleared = await staff.patch(ALFAMA_0930, { note: null })
  assert.equal(cleared.body.note, null)
  assert.equal(cleared.body.version, 3)
})

test('PATCH creates the row of a departure nobody booked yet, and later holds keep its capacity', async (t) => {
  const service = await build(t)
  const staff = await operator(service)
  assert.equal(await departureRow(service, 'alfama-walk', ALFAMA_TUE_1400), undefined)
  const res = await staff.patch(departurePath('alfama-walk', ALFAMA_TUE_1400), { capacity: 3 })
  assert.equal(res.status, 200, res.text)
  assert.equal(res.body.version, 2)
  const guest = await guestHold(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE_1400, party: 3 })
  assert.equal(guest.booking.status, 'held')
  const other = await guest.client.session()
  const refused = await guest.client.post('/booking', { tour_id: 'alfama-walk', start: ALFAMA_TUE_1400, party: 1 }, { headers: other.headers })
  assert.deepEqual([refused.status, refused.body.code, refused.body.remaining], [409, 'insufficient_capacity', 0])
})

test('PATCH capacity below the seats taken is 409 capacity_below_booked with seats_taken, and changes nothing', async (t) => {
  const service = await build(t)
  await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 4 })
  await guestHold(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 3 })
  const staff = await operator(service)
  const res = await staff.patch(ALFAMA_0930, { capacity: 6, note: 'x' })
  assert.equal(res.status, 409, res.text)
  assert.equal(res.body.code, 'capacity_below_booked')
  assert.equal(res.body.seats_taken, 7)
  const row = (await departureRow(service, 'alfama-walk', ALFAMA_TUE_0930))!
  assert.deepEqual([row.capacity, row.note, row.version, row.capacity_source], [16, null, 1, 'tour'])
  assert.equal((await staff.patch(ALFAMA_0930, { capacity: 7 })).status, 200, 'exactly the seats taken fits')

  // A lapsed hold nobody swept does not stand in the way: it is expired by the change.
  service.clock.advance({ minutes: 16 })
  const lower = await staff.patch(ALFAMA_0930, { capacity: 4 })
  assert.equal(lower.status, 200, lower.text)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 4)
})

test('PATCH with a stale If-Match is 412 precondition_failed with the current version and changes nothing', async (t) => {
  const service = await build(t)
  const staff = await operator(service)
  assert.equal((await staff.patch(ALFAMA_0930, { note: 'first' }, { 'if-match': '"1"' })).status, 200)
  const stale = await staff.patch(ALFAMA_0930, { note: 'second' }, { 'if-match': '"1"' })
  assert.equal(stale.status, 412, stale.text)
  assert.equal(stale.body.code, 'precondition_failed')
  assert.equal(stale.body.version, 2)
  assert.equal((await departureRow(service, 'alfama-walk', ALFAMA_TUE_0930))!.note, 'first')
  const malformed = await staff.patch(ALFAMA_0930, { note: 'third' }, { 'if-match': 'W/"x"' })
  assert.equal(malformed.status, 400)
  assert.equal(malformed.body.code, 'validation_failed')
  assert.equal((await staff.patch(ALFAMA_0930, { note: 'third' }, { 'if-match': '*' })).status, 200)
})

test('a closed departure shows closed in guest availability and refuses holds; its bookings stand; reopening lets guests in again', async (t) => {
  const service = await build(t)
  const mine = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 2 })
  const staff = await operator(service)
  const guest = service.client()
  const before = await guest.get('/availability?tour=alfama-walk&date=2026-06-02&days=1&party=2')
  assert.equal(before.body.slots[0].status, 'available')

  const closed = await staff.patch(ALFAMA_0930, { closed: true })
  assert.equal(closed.status, 200)
  assert.equal(closed.body.closed, true)
  const after = await guest.get('/availability?tour=alfama-walk&date=2026-06-02&days=1&party=2')
  assert.deepEqual([after.body.slots[0].status, after.body.slots[0].bookable, after.body.slots[1].status], ['closed', false, 'available'])
  const session = await guest.session()
  const hold = await guest.post('/booking', { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 1 }, { headers: session.headers })
  assert.equal(hold.status, 409)
  assert.equal(hold.body.code, 'insufficient_capacity')
  assert.equal(hold.body.remaining, 0)
  const standing = await guest.get('/booking', { headers: { 'x-session': mine.session.session } })
  assert.deepEqual([standing.body.id, standing.body.status], [mine.booking.id, 'confirmed'])

  const reopened = await staff.patch(ALFAMA_0930, { closed: false })
  assert.equal(reopened.body.closed, false)
  assert.equal(reopened.body.version, 3)
  const again = await guest.post('/booking', { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 1 }, { headers: session.headers })
  assert.equal(again.status, 200, again.text)
  const [closing, reopening] = await auditEntries(service, 'departure.changed')
  assert.deepEqual([JSON.parse(closing.after!), JSON.parse(reopening.after!)], [{ closed: 1 }, { closed: 0 }])
})

test('PATCH: 404 for no such departure, 400 for an empty or unknown body; a guide or viewer may not change; no credential is 401', async (t) => {
  const service = await build(t)
  const staff = await operator(service)
  const cases: Array<[string, unknown, number, string]> = [
    [departurePath('alfama-walk', '2026-06-02T08:31:00Z'), { note: 'x' }, 404, 'departure_not_found'],
    [departurePath('nowhere', ALFAMA_TUE_0930), { note: 'x' }, 404, 'tour_not_found'],
    [ALFAMA_0930, {}, 400, 'validation_failed'],
    [ALFAMA_0930, { capacity: 0 }, 400, 'validation_failed'],
    [ALFAMA_0930, { seats: 3 }, 400, 'validation_failed'],
    [ALFAMA_0930, { closed: 'yes' }, 400, 'validation_failed'],
  ]
  for (const [path, body, status, code] of cases) {
    const res = await staff.patch(path, body)
    assert.equal(res.status, status, `${JSON.stringify(body)}: ${res.text}`)
    assert.equal(res.body.code, code)
  }
  for (const role of ['guide', 'viewer'] as const) {
    const res = await (await operator(service, role)).patch(ALFAMA_0930, { closed: true })
    assert.equal(res.status, 403, role)
    assert.equal(res.body.code, 'forbidden')
  }
  assert.equal((await new OperatorClient(service.origin, 'lisbon').patch(ALFAMA_0930, { closed: true })).status, 401)
  const { client: signedIn } = await signedInStaff(service, 'manager')
  const noCsrf = await signedIn.patch(ALFAMA_0930, { closed: true }, { 'x-csrf-token': '' })
  assert.equal(noCsrf.status, 403)
  assert.equal(noCsrf.body.code, 'csrf_missing')
  assert.equal(await departureRow(service, 'alfama-walk', ALFAMA_TUE_0930), undefined, 'no refused request left a row behind')
})
