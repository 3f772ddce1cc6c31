import assert from 'node:assert/strict'
import { test } from 'node:test'
import { bookingRow, promoUses, seatsTaken, transitions } from '../helpers/booking-fixtures.ts'
import { OperatorClient, signedInStaff } from '../helpers/operator.ts'
import { ALFAMA_TUE, auditEntries, FADO_MON, FADO_TUE, guestBooking, keyOf, operatorService } from './bookings-fixtures.ts'

test('the Fado evening: a staff member finds the request, confirms it, and the guest sees it confirmed', async (t) => {
  const { service, staff } = await operatorService(t)
  const { client, session, booking } = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })
  assert.equal(booking.status, 'requested')

  const list = await staff.get('/bookings?tour=fado-night&status=requested')
  assert.equal(list.status, 200, list.text)
  assert.deepEqual(list.body.bookings.map((b: { code: string }) => b.code), [booking.code])
  const found = list.body.bookings[0]
  assert.equal(found.channel, 'web')
  assert.equal(found.quarantined, false)
  assert.deepEqual(found.contact, { name: 'Ana Silva', email: 'ana@example.pt', phone: null })
  assert.deepEqual(found.policy, { id: 'flexible-48', version: 3 })
  assert.equal(found.version, 2)

  const confirmed = await staff.post(`/bookings/${booking.code}/confirm`)
  assert.equal(confirmed.status, 200, confirmed.text)
  assert.equal(confirmed.body.status, 'confirmed')
  assert.equal(confirmed.body.version, 3)
  assert.equal(confirmed.headers.get('etag'), '"3"')

  const guestView = await client.get('/booking', { headers: session.headers })
  assert.equal(guestView.status, 200)
  assert.equal(guestView.body.status, 'confirmed')

  const detail = await staff.get(`/bookings/${booking.code}`)
  assert.equal(detail.status, 200)
  assert.deepEqual(detail.body.history.map((h: any) => [h.from, h.to, h.actor.type]), [
    [null, 'held', 'guest'], ['held', 'requested', 'guest'], ['requested', 'confirmed', 'staff'],
  ])
  assert.equal(detail.body.history[2].actor.name, 'A staff')
  assert.match(detail.body.history[2].at, /\+01:00$/)
  const [entry] = await auditEntries(service, booking.id)
  assert.equal(entry.action, 'booking.confirmed')
  assert.equal(entry.actor_type, 'staff')
  assert.deepEqual(JSON.parse(entry.before!), { status: 'requested', version: 2 })
  assert.ok(entry.request_id)
})

test('confirm: repeating it answers 200 unchanged; an action the status does not allow is 409 invalid_transition', async (t) => {
  const { service, staff } = await operatorService(t)
  const { booking } = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })
  const first = await staff.post(`/bookings/${booking.code}/confirm`, {})
  const again = await staff.post(`/bookings/${booking.code}/confirm`)
  assert.equal(again.status, 200)
  assert.equal(again.body.version, first.body.version, 'nothing changed the second time')
  assert.deepEqual(await transitions(service, booking.id), ['->held', 'held>requested', 'requested>confirmed'])

  const decline = await staff.post(`/bookings/${booking.code}/decline`, { reason: 'too late' })
  assert.equal(decline.status, 409)
  assert.equal(decline.body.code, 'invalid_transition')
  assert.equal(decline.body.booking_status, 'confirmed')
  const undo = await staff.delete(`/bookings/${booking.code}/no-show`)
  assert.equal(undo.status, 200, 'undoing a no-show of a confirmed booking: already the case')
  assert.equal(undo.body.version, first.body.version)
  assert.equal((await staff.delete(`/bookings/${booking.code}/check-in`)).status, 200)
})

test('decline frees the seats and gives back the promo use; the reason is kept', async (t) => {
  const { service, staff } = await operatorService(t)
  const { booking } = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 3, promo_code: 'WELCOME10' })
  assert.equal(await seatsTaken(service, 'fado-night', FADO_TUE), 3)
  assert.equal(await promoUses(service, 'WELCOME10'), 1)

  const declined = await staff.post(`/bookings/${booking.id}/decline`, { reason: ' Fully booked by a group ' })
  assert.equal(declined.status, 200, declined.text)
  assert.equal(declined.body.status, 'declined')
  assert.equal(declined.body.decline_reason, 'Fully booked by a group')
  assert.equal(await seatsTaken(service, 'fado-night', FADO_TUE), 0)
  assert.equal(await promoUses(service, 'WELCOME10'), 0)

  const again = await staff.post(`/bookings/${booking.id}/decline`)
  assert.equal(again.status, 200)
  assert.equal(await seatsTaken(service, 'fado-night', FADO_TUE), 0, 'freed once')
  const confirm = await staff.post(`/bookings/${booking.id}/confirm`)
  assert.equal(confirm.status, 409)
  assert.equal(confirm.body.booking_status, 'declined')
})

test('cancel: the fee is waived unless the policy fee is asked for; seats freed; the guest sees the cancellation', async (t) => {
  const { service, staff } = await operatorService(t)
  const waived = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 })
  const charged = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 4 })
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE), 6)

  const first = await staff.post(`/bookings/${waived.booking.code}/cancel`, { reason: 'storm warning' })
  assert.equal(first.status, 200, first.text)
  assert.deepEqual({ ...first.body.cancellation, at: undefined }, { at: undefined, by: 'operator', reason: 'storm warning', fee_percent: 0, fee: 0, fee_waived: true })

  // 24.5 hours before the start: the policy's 24-48 hour tier, 50%.
  const second = await staff.post(`/bookings/${charged.booking.code}/cancel`, { fee: 'policy' })
  assert.equal(second.status, 200, second.text)
  assert.equal(second.body.cancellation.fee_percent, 50)
  assert.equal(second.body.cancellation.fee, Math.round(charged.booking.price.total / 2))
  assert.equal(second.body.cancellation.fee_waived, false)
  assert.equal(second.body.cancellation.reason, null)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE), 0)

  const guestView = await charged.client.get('/booking', { headers: charged.session.headers })
  assert.equal(guestView.body.status, 'cancelled')
  assert.equal(guestView.body.cancellation.fee_percent, 50)

  const repeat = await staff.post(`/bookings/${charged.booking.code}/cancel`, { fee: 'waived' })
  assert.equal(repeat.status, 200)
  assert.equal(repeat.body.cancellation.fee_percent, 50, 'a repeat changes nothing, not even the fee')
  const row = await bookingRow(service, charged.booking.id)
  assert.equal(row.cancelled_by, 'operator')
})

test('check-in and its undo, from the departure\'s day until it ends; a checked-in booking keeps its seats', async (t) => {
  const { service, key: staff } = await operatorService(t)
  const { booking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 })
  const requested = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 1 })

  const early = await staff.post(`/bookings/${requested.booking.code}/check-in`)
  assert.equal(early.status, 409)
  assert.equal(early.body.booking_status, 'requested')

  // The evening before, in Lisbon: the guest cannot be checked in yet, and nothing changes.
  service.clock.set('2026-06-01T22:59:00Z')
  const dayBefore = await staff.post(`/bookings/${booking.code}/check-in`)
  assert.equal(dayBefore.status, 409)
  assert.match(dayBefore.headers.get('content-type')!, /^application\/problem\+json/)
  assert.equal(dayBefore.body.code, 'departure_not_today')
  assert.equal(dayBefore.body.detail, "Check-in opens on the departure's day, 2026-06-02 (Europe/Lisbon)")
  assert.equal((await bookingRow(service, booking.id)).status, 'confirmed')
  // Midnight in Lisbon (23:00 UTC): the departure's day has begun.
  service.clock.set('2026-06-01T23:00:00Z')
  const atMidnight = await staff.post(`/bookings/${booking.code}/check-in`)
  assert.equal(atMidnight.status, 200, atMidnight.text)
  assert.equal((await staff.delete(`/bookings/${booking.code}/check-in`)).status, 200)

  service.clock.set('2026-06-02T08:20:00Z')
  const checkedIn = await staff.post(`/bookings/${booking.code}/check-in`)
  assert.equal(checkedIn.status, 200, checkedIn.text)
  assert.equal(checkedIn.body.status, 'completed')
  assert.equal(checkedIn.body.checked_in_at, '2026-06-02T09:20:00+01:00')
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE), 2, 'checked in before the start: the seats stay taken')
  const again = await staff.post(`/bookings/${booking.code}/check-in`)
  assert.equal(again.body.version, checkedIn.body.version)

  const undone = await staff.delete(`/bookings/${booking.code}/check-in`)
  assert.equal(undone.status, 200, undone.text)
  assert.equal(undone.body.status, 'confirmed')
  assert.equal(undone.body.checked_in_at, null)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE), 2)

  service.clock.set('2026-06-02T11:00:00Z')
  const late = await staff.post(`/bookings/${booking.code}/check-in`)
  assert.equal(late.status, 409)
  assert.equal(late.body.code, 'departure_ended')
  assert.deepEqual((await auditEntries(service, booking.id)).map((e) => e.action), ['booking.checked_in', 'booking.check_in_undone', 'booking.checked_in', 'booking.check_in_undone'])
})

test('no-show once the departure has started, with the policy fee as information, and its undo', async (t) => {
  const { service, key: staff } = await operatorService(t)
  const { booking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 })
  const before = await staff.post(`/bookings/${booking.code}/no-show`)
  assert.equal(before.status, 409)
  assert.equal(before.body.code, 'departure_not_started')

  service.clock.set(ALFAMA_TUE)
  const marked = await staff.post(`/bookings/${booking.code}/no-show`)
  assert.equal(marked.status, 200, marked.text)
  assert.equal(marked.body.status, 'no_show')
  assert.deepEqual(marked.body.no_show, { fee_percent: 100, fee: booking.price.total })
  const checkIn = await staff.post(`/bookings/${booking.code}/check-in`)
  assert.equal(checkIn.status, 409)
  assert.equal(checkIn.body.booking_status, 'no_show')

  const undone = await staff.delete(`/bookings/${booking.code}/no-show`)
  assert.equal(undone.status, 200)
  assert.equal(undone.body.status, 'confirmed')
  assert.equal(undone.body.no_show, null)
  assert.deepEqual(await transitions(service, booking.id), ['->held', 'held>confirmed', 'confirmed>no_show', 'no_show>confirmed'])
})

test('If-Match: a stale version is 412 with the current one and changes nothing; the current one, quoted or bare, works', async (t) => {
  const { service, staff } = await operatorService(t)
  const { booking } = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })
  const stale = await staff.post(`/bookings/${booking.code}/confirm`, undefined, { 'if-match': '"1"' })
  assert.equal(stale.status, 412)
  assert.equal(stale.body.code, 'precondition_failed')
  assert.equal(stale.body.version, 2)
  assert.equal((await bookingRow(service, booking.id)).status, 'requested')
  const malformed = await staff.post(`/bookings/${booking.code}/confirm`, undefined, { 'if-match': 'soon' })
  assert.equal(malformed.status, 400)
  assert.equal(malformed.body.errors[0].field, 'If-Match')

  const current = await staff.post(`/bookings/${booking.code}/confirm`, undefined, { 'if-match': '"2"' })
  assert.equal(current.status, 200)
  const patched = await staff.patch(`/bookings/${booking.code}`, { internal_note: 'window table' }, { 'if-match': '3' })
  assert.equal(patched.status, 200, patched.text)
  assert.equal(patched.body.version, 4)
  const stalePatch = await staff.patch(`/bookings/${booking.code}`, { internal_note: 'other' }, { 'if-match': '"3"' })
  assert.equal(stalePatch.status, 412)
  assert.equal((await bookingRow(service, booking.id)).internal_note, 'window table')
})

test('a booking is addressed by its code in any case or by its id; other instances and unknown codes are 404', async (t) => {
  const { service, staff } = await operatorService(t)
  const { booking } = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })
  assert.equal((await staff.get(`/bookings/${booking.code.toLowerCase()}`)).body.id, booking.id)
  assert.equal((await staff.get(`/bookings/${booking.id}`)).body.code, booking.code)
  const unknown = await staff.get('/bookings/ZZZZZZ')
  assert.equal(unknown.status, 404)
  assert.equal(unknown.body.code, 'not_found')
  const nyc = await keyOf(service, 'manager', 'nyc')
  assert.equal((await nyc.get(`/bookings/${booking.code}`)).status, 404)
  assert.equal((await nyc.post(`/bookings/${booking.code}/confirm`)).status, 404)
  assert.equal((await nyc.get('/bookings')).body.bookings.length, 0)
})

test('Idempotency-Key: a repeated confirm replays the first answer', async (t) => {
  const { service, staff } = await operatorService(t)
  const { booking } = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })
  const first = await staff.post(`/bookings/${booking.code}/confirm`, undefined, { 'idempotency-key': 'confirm-1' })
  const replay = await staff.post(`/bookings/${booking.code}/confirm`, undefined, { 'idempotency-key': 'confirm-1' })
  assert.equal(replay.status, 200)
  assert.equal(replay.headers.get('idempotent-replayed'), 'true')
  assert.deepEqual(replay.body, first.body)
})

test('who may do what: reads need bookings.read, actions bookings.change, check-in and no-show the check-in permission', async (t) => {
  const { service } = await operatorService(t)
  const { booking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 })
  const request = await guestBooking(service, { tour_id: 'fado-night', start: FADO_MON, party: 1 })
  const guide = await keyOf(service, 'guide')
  const viewer = await keyOf(service, 'viewer')
  const nobody = new OperatorClient(service.origin, 'lisbon')

  for (const path of ['/bookings', `/bookings/${booking.code}`, '/exports/bookings.csv']) {
    assert.equal((await guide.get(path)).status, 403, `guide GET ${path}`)
    assert.equal((await viewer.get(path)).status, 200, `viewer GET ${path}`)
    const anonymous = await nobody.get(path)
    assert.equal(anonymous.status, 401)
    assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer realm="tourdesk"')
  }
  for (const [method, path, body] of [['POST', `/bookings/${request.booking.code}/confirm`], ['POST', `/bookings/${request.booking.code}/decline`],
    ['POST', `/bookings/${booking.code}/cancel`], ['PATCH', `/bookings/${booking.code}`, { internal_note: 'x' }],
    ['POST', `/bookings/${booking.code}/release-quarantine`], ['POST', '/bookings', { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1, contact: { name: 'A', email: 'a@example.com' } }]] as const) {
    for (const client of [guide, viewer]) {
      const res = await client.request(method, path, body)
      assert.equal(res.status, 403, `${method} ${path}: ${res.text}`)
      assert.equal(res.body.code, 'forbidden')
    }
    assert.equal((await nobody.request(method, path, body)).status, 401)
  }
  assert.equal((await bookingRow(service, request.booking.id)).status, 'requested', 'nothing refused changed anything')
  assert.equal((await viewer.post(`/bookings/${booking.code}/check-in`)).status, 403)
  service.clock.set('2026-06-02T07:00:00Z')
  const checkIn = await guide.post(`/bookings/${booking.code}/check-in`)
  assert.equal(checkIn.status, 200, checkIn.text)
  assert.equal((await guide.delete(`/bookings/${booking.code}/check-in`)).status, 200)

  // A staff session's write needs its CSRF token.
  const { client: staffSession } = await signedInStaff(service, 'staff')
  const withoutCsrf = await staffSession.post(`/bookings/${request.booking.code}/confirm`, undefined, { 'x-csrf-token': '' })
  assert.equal(withoutCsrf.status, 403)
  assert.equal(withoutCsrf.body.code, 'csrf_missing')
  const history = (await (await keyOf(service, 'staff')).get(`/bookings/${booking.code}`)).body.history
  assert.deepEqual(history.slice(-2).map((h: any) => [h.to, h.actor.type, h.actor.name]), [['completed', 'key', 'guide key'], ['confirmed', 'key', 'guide key']])
})
