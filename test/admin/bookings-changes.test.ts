import assert from 'node:assert/strict'
import { test } from 'node:test'
import { bookingRow, db, promoUses, seatsTaken } from '../helpers/booking-fixtures.ts'
import { ALFAMA_TUE, ALFAMA_TUE_PM, auditEntries, FADO_TUE, guestBooking, operatorService, WORKSHOP_TUE } from './bookings-fixtures.ts'

const WORKSHOP_THU = '2026-06-04T09:00:00Z'
const BELEM_TUE = '2026-06-02T08:30:00Z'

test('PATCH moves and resizes a booking in one go: seats taken there, freed here, price from the catalog, version raised, audited', async (t) => {
  const { service, staff } = await operatorService(t)
  const { client, session, booking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2, addons: { 'illustrated-map': 1 } })
  assert.equal(booking.price.total, 2 * 1900 + 600)

  const moved = await staff.patch(`/bookings/${booking.code}`, { start: '2026-06-02T14:00:00+01:00', party: 3 })
  assert.equal(moved.status, 200, moved.text)
  assert.equal(moved.body.start, '2026-06-02T14:00:00+01:00')
  assert.equal(moved.body.end, '2026-06-02T16:30:00+01:00')
  assert.equal(moved.body.party, 3)
  assert.deepEqual(moved.body.price, { currency: 'EUR', subtotal: 5700, addons: 600, discount: 0, total: 6300, due_now: 0, due_on_arrival: 6300 })
  assert.equal(moved.body.cancellable_until, moved.body.start, "the booking's policy lets it be cancelled until the start")
  assert.equal(moved.body.version, 3)
  assert.equal(moved.headers.get('etag'), '"3"')
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE), 0)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_PM), 3)
  assert.equal((await client.get('/booking', { headers: session.headers })).body.party, 3, 'the guest sees the change')

  const otherTour = await staff.patch(`/bookings/${booking.code}`, { tour_id: 'belem-bike', start: BELEM_TUE, addons: {} })
  assert.equal(otherTour.status, 200, otherTour.text)
  assert.deepEqual(otherTour.body.tour, { id: 'belem-bike', title: service.context.catalogs.get('lisbon')!.tourById.get('belem-bike')!.catalog.title })
  assert.deepEqual(otherTour.body.addons, [])
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_PM), 0)
  assert.equal(await seatsTaken(service, 'belem-bike', BELEM_TUE), 3)

  const [first] = await auditEntries(service, booking.id)
  assert.equal(first.action, 'booking.changed')
  assert.deepEqual(JSON.parse(first.before!).party, 2)
  assert.deepEqual(JSON.parse(first.after!).party, 3)
  assert.equal(JSON.parse(first.after!).version, 3)
})

test('a move or resize that does not fit is 409 insufficient_capacity and changes nothing; one that fits after the old seats go does', async (t) => {
  const { service, staff } = await operatorService(t)
  const a = await guestBooking(service, { tour_id: 'pastel-de-nata-workshop', start: WORKSHOP_TUE, party: 3 })
  await guestBooking(service, { tour_id: 'pastel-de-nata-workshop', start: WORKSHOP_TUE, party: 1 })
  const c = await guestBooking(service, { tour_id: 'pastel-de-nata-workshop', start: WORKSHOP_THU, party: 2 })

  const full = await staff.patch(`/bookings/${c.booking.code}`, { start: WORKSHOP_TUE })
  assert.equal(full.status, 409)
  assert.equal(full.body.code, 'insufficient_capacity')
  assert.equal(full.body.remaining, 0)
  const grow = await staff.patch(`/bookings/${a.booking.code}`, { party: 4 })
  assert.equal(grow.status, 409)
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), 4)
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_THU), 2)
  assert.equal((await bookingRow(service, c.booking.id)).version, 2, 'the refused move changed nothing')

  assert.equal((await staff.patch(`/bookings/${a.booking.code}`, { party: 2 })).status, 200)
  const tooMany = await staff.patch(`/bookings/${c.booking.code}`, { start: WORKSHOP_TUE })
  assert.equal(tooMany.status, 409)
  assert.equal(tooMany.body.remaining, 1)
  const fits = await staff.patch(`/bookings/${c.booking.code}`, { start: WORKSHOP_TUE, party: 1 })
  assert.equal(fits.status, 200, fits.text)
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), 4)
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_THU), 0)

  await db(service).updateTable('departures').set({ closed: 1 }).where('start_at', '=', '2026-06-04T09:00:00.000Z').execute()
  const closed = await staff.patch(`/bookings/${c.booking.code}`, { start: WORKSHOP_THU })
  assert.equal(closed.status, 409)
  assert.equal(closed.body.code, 'insufficient_capacity')
  assert.equal(closed.body.remaining, 0)
})

test('PATCH refuses what cannot be: unknown tour, no such departure, an ended one, a party or add-on the tour does not take, a booking no longer live', async (t) => {
  const { service, staff } = await operatorService(t)
  const { booking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2, addons: { 'ginjinha-tasting': 1 } })
  const cases: Array<[unknown, number, string]> = [
    [{ tour_id: 'space-walk' }, 404, 'tour_not_found'],
    [{ start: '2026-06-02T10:00:00Z' }, 422, 'slot_not_found'],
    [{ start: '2026-05-31T08:30:00Z' }, 409, 'departure_ended'],
    [{ party: 11 }, 422, 'party_out_of_range'],
    [{ tour_id: 'belem-bike', start: BELEM_TUE }, 422, 'invalid_addon'],
    [{ addons: { 'illustrated-map': 4 } }, 422, 'invalid_addon'],
    [{}, 400, 'validation_failed'],
    [{ party: 2, status: 'confirmed' }, 400, 'validation_failed'],
    [{ contact: { phone: '12' } }, 400, 'validation_failed'],
  ]
  for (const [body, status, code] of cases) {
    const res = await staff.patch(`/bookings/${booking.code}`, body)
    assert.equal(res.status, status, `${JSON.stringify(body)}: ${res.text}`)
    assert.equal(res.body.code, code)
  }
  assert.equal((await bookingRow(service, booking.id)).version, 2, 'nothing refused changed anything')
  assert.equal((await staff.patch('/bookings/NOSUCH', { party: 3 })).status, 404)

  await staff.post(`/bookings/${booking.code}/cancel`)
  const move = await staff.patch(`/bookings/${booking.code}`, { party: 3 })
  assert.equal(move.status, 409)
  assert.equal(move.body.code, 'invalid_transition')
  assert.equal(move.body.booking_status, 'cancelled')
  const note = await staff.patch(`/bookings/${booking.code}`, { internal_note: 'refund the deposit by hand' })
  assert.equal(note.status, 200, 'a note can go on any checked-out booking')
})

test('contact and internal note: a change raises the version, a body that changes nothing does not', async (t) => {
  const { service, staff } = await operatorService(t)
  const { client, session, booking } = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })
  const changed = await staff.patch(`/bookings/${booking.code}`, { contact: { name: ' Ana Sousa ', phone: '+351 912 000 111' }, internal_note: 'vegetarian' })
  assert.equal(changed.status, 200, changed.text)
  assert.deepEqual(changed.body.contact, { name: 'Ana Sousa', email: 'ana@example.pt', phone: '+351912000111' })
  assert.equal(changed.body.internal_note, 'vegetarian')
  assert.equal(changed.body.version, 3)
  assert.equal((await client.get('/booking', { headers: session.headers })).body.contact.name, 'Ana Sousa')
  assert.equal('internal_note' in (await client.get('/booking', { headers: session.headers })).body, false, 'guests never see the note')

  const same = await staff.patch(`/bookings/${booking.code}`, { internal_note: 'vegetarian', party: 2, start: FADO_TUE })
  assert.equal(same.status, 200)
  assert.equal(same.body.version, 3)
  const cleared = await staff.patch(`/bookings/${booking.code}`, { internal_note: null, contact: { phone: null } })
  assert.equal(cleared.body.internal_note, null)
  assert.equal(cleared.body.contact.phone, null)
  assert.equal(cleared.body.version, 4)
  assert.equal((await auditEntries(service, booking.id)).length, 2)
})

test("a move keeps the promo code while the catalog has it for the new tour, else drops it and gives its use back", async (t) => {
  const { service, staff } = await operatorService(t)
  const sail = await guestBooking(service, { tour_id: 'tagus-sunset-sail', start: '2026-06-02T16:30:00Z', party: 2, promo_code: 'SAIL5' })
  const welcome = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2, promo_code: 'WELCOME10' })
  assert.equal(sail.booking.price.discount, 500)
  assert.equal(await promoUses(service, 'SAIL5'), 1)

  const kept = await staff.patch(`/bookings/${welcome.booking.code}`, { party: 4 })
  assert.equal(kept.body.promo_code, 'WELCOME10')
  assert.equal(kept.body.price.discount, Math.round(4 * 1900 / 10))
  const dropped = await staff.patch(`/bookings/${sail.booking.code}`, { tour_id: 'alfama-walk', start: ALFAMA_TUE })
  assert.equal(dropped.status, 200, dropped.text)
  assert.equal(dropped.body.promo_code, null)
  assert.equal(dropped.body.price.discount, 0)
  assert.equal(await promoUses(service, 'SAIL5'), 0)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE), 6)
})
