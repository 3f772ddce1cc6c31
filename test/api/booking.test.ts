import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, demoCatalog, type TestService } from '../helpers/build.ts'
import type { ApiClient, ApiResponse } from '../helpers/client.ts'
import { ALFAMA_TUE_0930, ALFAMA_TUE_1400, WORKSHOP_TUE, WORKSHOP_THU, ALFAMA, CONTACT, db, bookingRow, transitions, seatsTaken, holding, type Session } from '../helpers/booking-fixtures.ts'

async function countBookings(service: TestService): Promise<number> {
  const row = await db(service).selectFrom('bookings').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  return Number(row.n)
}

async function hold(client: ApiClient, session: Session, body: Record<string, unknown>) {
  return client.post('/booking', body, { headers: session.headers })
}

async function checkedOut(client: ApiClient, body: Record<string, unknown>) {
  const { session, booking } = await holding(client, body)
  const res = await client.post('/checkout', CONTACT, { headers: { 'x-session': session.session } })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return { session, booking: res.body, heldBooking: booking }
}

// ---------------------------------------------------------------- CSRF

test('POST /booking without X-CSRF-Token is 403 csrf_missing and stores nothing', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  for (const headers of [{ 'x-session': s.session }, { 'x-session': s.session, 'x-csrf-token': '' }]) {
    const res = await client.post('/booking', ALFAMA, { headers })
    assert.equal(res.status, 403)
    assert.equal(res.body.code, 'csrf_missing')
    assert.equal(res.headers.get('content-type')?.split(';')[0], 'application/problem+json')
  }
  assert.equal(await countBookings(service), 0)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 0)
})

test('POST /booking with a wrong token is 403 csrf_invalid and stores nothing', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  for (const token of ['nonsense', s.csrf.slice(0, -1) + (s.csrf.endsWith('A') ? 'B' : 'A'), s.csrf + 'x']) {
    const res = await client.post('/booking', ALFAMA, { headers: { 'x-session': s.session, 'x-csrf-token': token } })
    assert.equal(res.status, 403, token)
    assert.equal(res.body.code, 'csrf_invalid')
  }
  assert.equal(await countBookings(service), 0)
})

test("POST /booking with another session's token is 403 csrf_invalid and stores nothing", async (t) => {
  const service = await build(t)
  const client = service.client()
  const a = await client.session()
  const b = await client.session()
  const res = await client.post('/booking', ALFAMA, { headers: { 'x-session': a.session, 'x-csrf-token': b.csrf } })
  assert.equal(res.status, 403)
  assert.equal(res.body.code, 'csrf_invalid')
  assert.equal(await countBookings(service), 0)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 0)
})

test('POST /booking with a token but naming no session is 403 csrf_invalid', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  const res = await client.post('/booking', ALFAMA, { headers: { 'x-csrf-token': s.csrf } })
  assert.equal(res.status, 403)
  assert.equal(res.body.code, 'csrf_invalid')
  assert.equal(await countBookings(service), 0)
})

test('403 outranks 400: an invalid body without a token is csrf_missing, with a wrong token csrf_invalid', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  const invalid = { tour_id: 'alfama-walk', start: 'tomorrow', party: 'two', colour: 'red' }
  const missing = await client.post('/booking', invalid, { headers: { 'x-session': s.session } })
  assert.equal(missing.status, 403)
  assert.equal(missing.body.code, 'csrf_missing')
  const wrong = await client.post('/booking', invalid, { headers: { 'x-session': s.session, 'x-csrf-token': 'wrong' } })
  assert.equal(wrong.status, 403)
  assert.equal(wrong.body.code, 'csrf_invalid')
  const right = await client.post('/booking', invalid, { headers: s.headers })
  assert.equal(right.status, 400, 'the same body with the right token is a validation error')
  assert.equal(right.body.code, 'validation_failed')
})

test("a 403 on POST /booking leaves the session's existing hold and seats as they were", async (t) => {
  const service = await build(t)
  const client = service.client()
  const { session, booking } = await holding(client, ALFAMA)
  const res = await client.post('/booking', { ...ALFAMA, start: ALFAMA_TUE_1400 }, { headers: { 'x-session': session.session } })
  assert.equal(res.status, 403)
  assert.equal((await bookingRow(service, booking.id)).status, 'held')
  assert.equal(await countBookings(service), 1)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 2)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_1400), 0)
})

// ---------------------------------------------------------------- a valid hold

test('a valid hold answers 200 held with the whole booking record and stores it with its seats', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  const res = await hold(client, s, {
    tour_id: 'alfama-walk',
    start: ALFAMA_TUE_0930,
    party: 3,
    addons: { 'ginjinha-tasting': 2, 'illustrated-map': 1 },
    promo_code: 'welcome10',
  })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  const b = res.body
  assert.equal(b.status, 'held')
  assert.equal(b.code, null)
  assert.equal(b.contact, null)
  assert.equal(b.cancellation, null)
  assert.deepEqual(b.tour, { id: 'alfama-walk', title: 'Alfama & Mouraria Walking Tour' })
  assert.equal(b.start, '2026-06-02T09:30:00+01:00')
  assert.equal(b.end, '2026-06-02T12:00:00+01:00')
  assert.equal(b.timezone, 'Europe/Lisbon')
  assert.equal(b.party, 3)
  assert.deepEqual(b.addons, [
    { id: 'ginjinha-tasting', name: 'Ginjinha tasting', quantity: 2, amount: 350 * 2 },
    { id: 'illustrated-map', name: 'Illustrated Alfama map', quantity: 1, amount: 600 },
  ])
  assert.equal(b.promo_code, 'WELCOME10')
  assert.equal(b.referral_code, null)
  // 1900 × 3 = 5700; add-ons 700 + 600 = 1300; 10% of 7000 = 700.
  assert.deepEqual(b.price, { currency: 'EUR', subtotal: 5700, addons: 1300, discount: 700, total: 6300, due_now: 0, due_on_arrival: 6300 })
  assert.equal(b.hold_expires_at, '2026-06-01T09:15:00+01:00')
  assert.equal(b.cancellable_until, '2026-06-02T09:30:00+01:00')
  assert.equal(b.created_at, '2026-06-01T09:00:00+01:00')

  const row = await bookingRow(service, b.id)
  assert.equal(row.status, 'held')
  assert.equal(row.session_id, s.session)
  assert.equal(row.instance_id, 'lx4t7k2m')
  assert.equal(row.party, 3)
  assert.equal(row.total, 6300)
  assert.equal(row.promo_code, 'WELCOME10')
  assert.equal(Date.parse(row.hold_expires_at!), Date.parse('2026-06-01T08:15:00Z'))
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 3)
  assert.deepEqual(await transitions(service, b.id), ['->held'])
})

test('a per-person add-on costs its price times the people who take it, a per-booking one its price times the quantity, and no promo means no discount', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { booking } = await holding(client, { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 4, addons: { 'ginjinha-tasting': 1, 'illustrated-map': 3 } })
  // 1900 × 4 = 7600; one of the four takes a ginjinha: 350; map 600 × 3 = 1800.
  assert.deepEqual(booking.addons, [
    { id: 'ginjinha-tasting', name: 'Ginjinha tasting', quantity: 1, amount: 350 },
    { id: 'illustrated-map', name: 'Illustrated Alfama map', quantity: 3, amount: 1800 },
  ])
  assert.deepEqual(booking.price, { currency: 'EUR', subtotal: 7600, addons: 2150, discount: 0, total: 9750, due_now: 0, due_on_arrival: 9750 })
  assert.equal(booking.promo_code, null)
})

test('"Ginjinha tasting × 2" for a party of 2 charges two tastings, and the stored booking keeps that amount', async (t) => {
  const service = await build(t)
  const { booking } = await holding(service.client(), { ...ALFAMA, addons: { 'ginjinha-tasting': 2 } })
  assert.deepEqual(booking.addons, [{ id: 'ginjinha-tasting', name: 'Ginjinha tasting', quantity: 2, amount: 700 }])
  assert.equal(booking.price.total, 1900 * 2 + 700)
  const row = await bookingRow(service, booking.id)
  assert.deepEqual([row.addons_total, row.total], [700, 4500])
})

test('a percentage promo is rounded half up to the cent', async (t) => {
  const catalog = demoCatalog()
  catalog.instances[0].tours.find((tour: { id: string }) => tour.id === 'alfama-walk').price = 1985
  const service = await build(t, { catalog })
  const client = service.client()
  const { booking } = await holding(client, { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 1, promo_code: 'WELCOME10' })
  // 10% of 1985 is 198.5: half up gives 199 (half-even or floor would give 198).
  assert.equal(booking.price.discount, 199)
  assert.equal(booking.price.total, 1786)
  assert.equal(booking.price.due_on_arrival, 1786)
  assert.equal((await bookingRow(service, booking.id)).discount, 199)
})

test('start is accepted in any offset for the same instant and lands on one departure', async (t) => {
  const service = await build(t)
  const client = service.client()
  const spellings = ['2026-06-02T08:30:00Z', '2026-06-02T09:30:00+01:00', '2026-06-02T04:30:00-04:00', '2026-06-02T08:30:00.000Z']
  for (const start of spellings) {
    const { booking } = await holding(client, { tour_id: 'alfama-walk', start, party: 1 })
    assert.equal(booking.start, '2026-06-02T09:30:00+01:00', start)
  }
  const departures = await db(service).selectFrom('departures').selectAll().execute()
  assert.equal(departures.length, 1)
  assert.equal(departures[0].seats_taken, spellings.length)
})

test('referral_code is kept on the booking', async (t) => {
  const service = await build(t)
  const { booking } = await holding(service.client(), { ...ALFAMA, referral_code: 'HOTEL-ALFAMA' })
  assert.equal(booking.referral_code, 'HOTEL-ALFAMA')
  assert.equal((await bookingRow(service, booking.id)).referral_code, 'HOTEL-ALFAMA')
})

// ---------------------------------------------------------------- business errors

async function refused(service: TestService, body: Record<string, unknown>, status: number, code: string) {
  const client = service.client()
  const s = await client.session()
  const res = await hold(client, s, body)
  assert.equal(res.status, status, JSON.stringify(res.body))
  assert.equal(res.body.code, code)
  assert.equal(await countBookings(service), 0, 'a refused hold stores no booking')
  const departures = await db(service).selectFrom('departures').selectAll().execute()
  assert.ok(departures.every((d) => d.seats_taken === 0), 'a refused hold takes no seat')
  return res.body
}

test('an unknown tour is 404 tour_not_found', async (t) => {
  const service = await build(t)
  await refused(service, { ...ALFAMA, tour_id: 'moon-walk' }, 404, 'tour_not_found')
})

test('a start that is not scheduled is 422 slot_not_found naming start', async (t) => {
  const service = await build(t)
  const body = await refused(service, { ...ALFAMA, start: '2026-06-02T08:45:00Z' }, 422, 'slot_not_found')
  assert.equal(body.errors?.[0]?.field, 'start')
})

test('the same wall-clock time read as UTC is not a scheduled start (09:30Z is 10:30 in Lisbon)', async (t) => {
  const service = await build(t)
  await refused(service, { ...ALFAMA, start: '2026-06-02T09:30:00Z' }, 422, 'slot_not_found')
})

test('a start on a blackout date is 422 slot_not_found', async (t) => {
  const service = await build(t)
  await refused(service, { ...ALFAMA, start: '2026-06-13T08:30:00Z' }, 422, 'slot_not_found')
})

test('a start past the tour cutoff is 422 cutoff_passed; one second earlier it is accepted', async (t) => {
  // The workshop closes 720 minutes before its 10:00 (09:00Z) start: at 2026-06-01T21:00:00Z.
  const service = await build(t)
  service.clock.set('2026-06-01T21:00:00Z')
  await refused(service, { tour_id: 'pastel-de-nata-workshop', start: WORKSHOP_TUE, party: 1 }, 422, 'cutoff_passed')
  service.clock.set('2026-06-01T20:59:59Z')
  const { booking } = await holding(service.client(), { tour_id: 'pastel-de-nata-workshop', start: WORKSHOP_TUE, party: 1 })
  assert.equal(booking.status, 'held')
})

test('a start already begun is 422 cutoff_passed even for a tour without cutoff', async (t) => {
  const service = await build(t)
  service.clock.set(ALFAMA_TUE_0930)
  await refused(service, ALFAMA, 422, 'cutoff_passed')
})

test('a party outside the tour range is 422 party_out_of_range with min and max', async (t) => {
  const service = await build(t)
  const tooBig = await refused(service, { ...ALFAMA, party: 11 }, 422, 'party_out_of_range')
  assert.equal(tooBig.min, 1)
  assert.equal(tooBig.max, 10)
  // port-wine-tasting takes parties of 2 to 8; Tuesday 16:00 is 15:00Z.
  const tooSmall = await refused(service, { tour_id: 'port-wine-tasting', start: '2026-06-02T15:00:00Z', party: 1 }, 422, 'party_out_of_range')
  assert.equal(tooSmall.min, 2)
  assert.equal(tooSmall.max, 8)
})

test('an unknown add-on is 422 invalid_addon naming it', async (t) => {
  const service = await build(t)
  const body = await refused(service, { ...ALFAMA, addons: { 'vinho-verde': 1 } }, 422, 'invalid_addon')
  assert.equal(body.errors?.[0]?.field, 'addons.vinho-verde')
})

test('an add-on quantity above its max is 422 invalid_addon; the max itself is accepted', async (t) => {
  const service = await build(t)
  await refused(service, { ...ALFAMA, party: 10, addons: { 'ginjinha-tasting': 11 } }, 422, 'invalid_addon')
  await refused(service, { ...ALFAMA, addons: { 'illustrated-map': 4 } }, 422, 'invalid_addon')
  const { booking } = await holding(service.client(), { ...ALFAMA, party: 10, addons: { 'ginjinha-tasting': 10, 'illustrated-map': 3 } })
  assert.equal(booking.price.addons, 350 * 10 + 600 * 3)
})

test('a per-person add-on taken by more people than the party is 422 invalid_addon naming it; the whole party is accepted', async (t) => {
  const service = await build(t)
  const body = await refused(service, { ...ALFAMA, addons: { 'ginjinha-tasting': 3 } }, 422, 'invalid_addon')
  assert.deepEqual(body.errors, [{ field: 'addons.ginjinha-tasting', message: 'must be at most the party size, 2' }])
  const { booking } = await holding(service.client(), { ...ALFAMA, addons: { 'ginjinha-tasting': 2 } })
  assert.equal(booking.price.addons, 700)
})

test('an unknown promo code is 422 invalid_promo_code', async (t) => {
  const service = await build(t)
  const body = await refused(service, { ...ALFAMA, promo_code: 'FREEBIE' }, 422, 'invalid_promo_code')
  assert.equal(body.errors?.[0]?.field, 'promo_code')
})

test('a promo code for another tour (SAIL5 on alfama-walk) is 422 invalid_promo_code', async (t) => {
  const service = await build(t)
  await refused(service, { ...ALFAMA, promo_code: 'SAIL5' }, 422, 'invalid_promo_code')
})

test('a start past the 365-day horizon is 422 date_out_of_range; the last day is accepted', async (t) => {
  const service = await build(t)
  // Today is 2026-06-01 in Lisbon, so the last bookable date is 2027-06-01.
  await refused(service, { ...ALFAMA, start: '2027-06-02T08:30:00Z' }, 422, 'date_out_of_range')
  const { booking } = await holding(service.client(), { ...ALFAMA, start: '2027-06-01T08:30:00Z' })
  assert.equal(booking.start, '2027-06-01T09:30:00+01:00')
})

// ---------------------------------------------------------------- validation

test('party as "2", 2.5, 0, -1 or null is 400 validation_failed naming party', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  for (const party of ['2', 2.5, 0, -1, null]) {
    const res = await hold(client, s, { ...ALFAMA, party })
    assert.equal(res.status, 400, `party ${JSON.stringify(party)}`)
    assert.equal(res.body.code, 'validation_failed')
    assert.ok(res.body.errors.some((e: { field: string }) => e.field === 'party'), JSON.stringify(res.body.errors))
  }
  assert.equal(await countBookings(service), 0)
})

test('a missing required field is 400 validation_failed naming it', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  for (const field of ['tour_id', 'start', 'party']) {
    const body: Record<string, unknown> = { ...ALFAMA }
    delete body[field]
    const res = await hold(client, s, body)
    assert.equal(res.status, 400, field)
    assert.equal(res.body.code, 'validation_failed')
    assert.deepEqual(res.body.errors.map((e: { field: string }) => e.field), [field])
  }
  assert.equal(await countBookings(service), 0)
})

test('a start that is not a date-time is 400 validation_failed naming start', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  for (const start of ['tomorrow', '2026-06-02', '2026-06-02T09:30:00']) {
    const res = await hold(client, s, { ...ALFAMA, start })
    assert.equal(res.status, 400, start)
    assert.equal(res.body.errors[0].field, 'start')
  }
})

test('an unknown body field is 400 validation_failed naming that field', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  const res = await hold(client, s, { ...ALFAMA, colour: 'red' })
  assert.equal(res.status, 400)
  assert.equal(res.body.code, 'validation_failed')
  assert.deepEqual(res.body.errors.map((e: { field: string }) => e.field), ['colour'])
  assert.equal(await countBookings(service), 0)
})

// ---------------------------------------------------------------- replacing a hold

test('a second POST /booking replaces the hold: the old one is released, its seats move to the new departure', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { session, booking: first } = await holding(client, ALFAMA)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 2)

  service.clock.advance({ minutes: 1 })
  const res = await hold(client, session, { ...ALFAMA, start: ALFAMA_TUE_1400, party: 3 })
  assert.equal(res.status, 200)
  assert.notEqual(res.body.id, first.id)
  assert.equal(res.body.status, 'held')

  assert.equal((await bookingRow(service, first.id)).status, 'released')
  assert.deepEqual(await transitions(service, first.id), ['->held', 'held>released'])
  assert.deepEqual(await transitions(service, res.body.id), ['->held'])
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 0)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_1400), 3)
  const held = await db(service).selectFrom('bookings').select('id').where('session_id', '=', session.session).where('status', '=', 'held').execute()
  assert.deepEqual(held.map((r) => r.id), [res.body.id], 'the session has exactly one held booking')

  const current = await client.get('/booking', { headers: { 'x-session': session.session } })
  assert.equal(current.body.id, res.body.id)
})

test("replacing a hold on the same departure counts the session's own seats as free", async (t) => {
  const service = await build(t)
  const client = service.client()
  const workshop = { tour_id: 'pastel-de-nata-workshop', start: WORKSHOP_TUE, party: 4 }
  const { session, booking: first } = await holding(client, workshop)
  const again = await hold(client, session, workshop)
  assert.equal(again.status, 200, JSON.stringify(again.body))
  assert.equal((await bookingRow(service, first.id)).status, 'released')
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), 4)
})

test('a departure without enough seats is 409 insufficient_capacity with remaining', async (t) => {
  const service = await build(t)
  const client = service.client()
  const workshop = { tour_id: 'pastel-de-nata-workshop', start: WORKSHOP_TUE }
  await holding(client, { ...workshop, party: 3 })
  const s = await client.session()
  const tooMany = await hold(client, s, { ...workshop, party: 2 })
  assert.equal(tooMany.status, 409)
  assert.equal(tooMany.body.code, 'insufficient_capacity')
  assert.equal(tooMany.body.remaining, 1)

  await holding(client, { ...workshop, party: 1 })
  const full = await hold(client, s, { ...workshop, party: 1 })
  assert.equal(full.status, 409)
  assert.equal(full.body.code, 'insufficient_capacity')
  assert.equal(full.body.remaining, 0)
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), 4)
  assert.equal(await countBookings(service), 2)
})

test("a failed replacement keeps the session's old hold and its seats", async (t) => {
  const service = await build(t)
  const client = service.client()
  const { session, booking: old } = await holding(client, { tour_id: 'pastel-de-nata-workshop', start: WORKSHOP_THU, party: 1 })
  await holding(client, { tour_id: 'pastel-de-nata-workshop', start: WORKSHOP_TUE, party: 3 })

  const res = await hold(client, session, { tour_id: 'pastel-de-nata-workshop', start: WORKSHOP_TUE, party: 2 })
  assert.equal(res.status, 409)
  assert.equal(res.body.code, 'insufficient_capacity')
  assert.equal(res.body.remaining, 1)

  assert.equal((await bookingRow(service, old.id)).status, 'held')
  assert.deepEqual(await transitions(service, old.id), ['->held'])
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_THU), 1)
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), 3)
  assert.equal(await countBookings(service), 2)
  const current = await client.get('/booking', { headers: { 'x-session': session.session } })
  assert.equal(current.body.id, old.id)
  assert.equal(current.body.status, 'held')
})

test("a hold refused for a business reason keeps the session's old hold", async (t) => {
  const service = await build(t)
  const client = service.client()
  const { session, booking: old } = await holding(client, ALFAMA)
  const res = await hold(client, session, { ...ALFAMA, start: '2026-06-02T08:45:00Z' })
  assert.equal(res.status, 422)
  assert.equal((await bookingRow(service, old.id)).status, 'held')
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 2)
})

// ---------------------------------------------------------------- naming the session

test('the body session field outranks X-Session on POST /booking', async (t) => {
  const service = await build(t)
  const client = service.client()
  const a = await client.session()
  const b = await client.session()
  const res = await client.post('/booking', { ...ALFAMA, session: a.session }, { headers: { 'x-session': b.session, 'x-csrf-token': a.csrf } })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  assert.equal((await bookingRow(service, res.body.id)).session_id, a.session)
  const refusedForB = await client.post('/booking', { ...ALFAMA, session: a.session }, { headers: { 'x-session': b.session, 'x-csrf-token': b.csrf } })
  assert.equal(refusedForB.status, 403)
  assert.equal(refusedForB.body.code, 'csrf_invalid')
})

test('POST /booking names its session by the sid cookie too', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  const res = await client.post('/booking', ALFAMA, { headers: { cookie: `sid=${s.session}`, 'x-csrf-token': s.csrf } })
  assert.equal(res.status, 200)
  assert.equal((await bookingRow(service, res.body.id)).session_id, s.session)
})

// ---------------------------------------------------------------- GET /booking

test('GET /booking without a session, with an unknown one or with no booking is 404 no_booking', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  for (const headers of [{}, { 'x-session': 'zzzzzzzzzzzz' }, { 'x-session': s.session }]) {
    const res = await client.get('/booking', { headers })
    assert.equal(res.status, 404, JSON.stringify(headers))
    assert.equal(res.body.code, 'no_booking')
  }
})

test('GET /booking finds the session by cookie, X-Session or ?session=', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { session, booking } = await holding(client, ALFAMA)
  const answers = [
    await client.get('/booking', { headers: { cookie: `sid=${session.session}` } }),
    await client.get('/booking', { headers: { 'x-session': session.session } }),
    await client.get(`/booking?session=${session.session}`),
  ]
  for (const res of answers) {
    assert.equal(res.status, 200)
    assert.deepEqual(res.body, booking)
  }
})

test('GET /booking takes X-Session before ?session= and ?session= before the cookie', async (t) => {
  const service = await build(t)
  const client = service.client()
  const a = await holding(client, ALFAMA)
  const b = await holding(client, { ...ALFAMA, start: ALFAMA_TUE_1400 })
  const headerFirst = await client.get(`/booking?session=${b.session.session}`, { headers: { 'x-session': a.session.session } })
  assert.equal(headerFirst.body.id, a.booking.id)
  const queryFirst = await client.get(`/booking?session=${a.session.session}`, { headers: { cookie: `sid=${b.session.session}` } })
  assert.equal(queryFirst.body.id, a.booking.id)
})

test('GET /booking with ?session= that cannot be a session id is 400 validation_failed naming session, not "no session"', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { session } = await holding(client, ALFAMA)
  for (const query of ['session=abc', 'session=ABCDEFGHIJKL', `session=${session.session}x`, 'session=', 'session=..%2F..%2Fetc%2Fpasswd', `session=${session.session}&session=${session.session}`]) {
    const res = await client.get(`/booking?${query}`)
    assert.equal(res.status, 400, `${query}: ${res.text}`)
    assert.equal(res.body.code, 'validation_failed')
    assert.deepEqual(res.body.errors.map((e: { field: string }) => e.field), ['session'], query)
  }
  // Well-formed but nobody's: still no booking.
  assert.equal((await client.get('/booking?session=zzzzzzzzzzzz')).status, 404)
})

test('an X-Session that cannot be a session id is 400 validation_failed naming X-Session wherever a session is read; a write still answers 403 first', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { session, booking } = await holding(client, ALFAMA)
  const bad = { 'x-session': 'NOT-A-SESSION' }
  const reads: [string, () => Promise<ApiResponse>][] = [
    ['GET /booking', () => client.get('/booking', { headers: bad })],
    ['GET /booking (with a good ?session=)', () => client.get(`/booking?session=${session.session}`, { headers: bad })],
    ['GET /', () => client.get('/', { headers: bad })],
    ['POST /session', () => client.post('/session', undefined, { headers: bad })],
    ['POST /checkout', () => client.post('/checkout', CONTACT, { headers: bad })],
    ['POST /contact', () => client.post('/contact', { message: 'hello' }, { headers: bad })],
    ['POST /newsletter', () => client.post('/newsletter', { email: 'ana@example.pt' }, { headers: bad })],
  ]
  for (const [label, read] of reads) {
    const res = await read()
    assert.equal(res.status, 400, `${label}: ${res.text}`)
    assert.equal(res.body.code, 'validation_failed', label)
    assert.deepEqual(res.body.errors.map((e: { field: string }) => e.field), ['X-Session'], label)
  }
  // The contract ranks 403 above 400 validation_failed: a malformed session cannot own the token.
  for (const res of [await client.post('/booking', ALFAMA, { headers: { ...bad, 'x-csrf-token': session.csrf } }), await client.delete('/booking', { headers: { ...bad, 'x-csrf-token': session.csrf } })]) {
    assert.equal(res.status, 403, res.text)
    assert.equal(res.body.code, 'csrf_invalid')
  }
  assert.equal((await bookingRow(service, booking.id)).status, 'held')
  // A stale or garbage sid cookie is only ignored: the page cannot clear an HttpOnly cookie.
  assert.equal((await client.get('/booking', { headers: { cookie: 'sid=NOT-A-SESSION' } })).body.code, 'no_booking')
})

test('GET /booking answers the latest booking the session has not released', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { session, booking: first } = await checkedOut(client, ALFAMA)
  service.clock.advance({ minutes: 1 })
  const second = await hold(client, session, { ...ALFAMA, start: ALFAMA_TUE_1400 })
  assert.equal(second.status, 200)
  const read = () => client.get('/booking', { headers: { 'x-session': session.session } })
  assert.equal((await read()).body.id, second.body.id)

  service.clock.advance({ minutes: 1 })
  const released = await client.delete('/booking', { headers: session.headers })
  assert.equal(released.body.id, second.body.id)
  const after = await read()
  assert.equal(after.status, 200)
  assert.equal(after.body.id, first.id, 'the released hold is skipped; the confirmed booking shows')
  assert.equal(after.body.status, 'confirmed')
})

test('GET /booking is 404 no_booking when the session only has released bookings', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { session } = await holding(client, ALFAMA)
  await hold(client, session, { ...ALFAMA, start: ALFAMA_TUE_1400 })
  await client.delete('/booking', { headers: session.headers })
  const res = await client.get('/booking', { headers: { 'x-session': session.session } })
  assert.equal(res.status, 404)
  assert.equal(res.body.code, 'no_booking')
  assert.equal(await countBookings(service), 2, 'released bookings stay on record')
})

test("GET /booking never shows another session's booking", async (t) => {
  const service = await build(t)
  const client = service.client()
  await holding(client, ALFAMA)
  const other = await client.session()
  const res = await client.get('/booking', { headers: { 'x-session': other.session } })
  assert.equal(res.status, 404)
})

// ---------------------------------------------------------------- DELETE /booking

test('DELETE /booking releases a hold: 200 with the booking released, seats freed, event recorded', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { session, booking } = await holding(client, ALFAMA)
  service.clock.advance({ minutes: 2 })
  const res = await client.delete('/booking', { headers: session.headers })
  assert.equal(res.status, 200)
  assert.equal(res.body.id, booking.id)
  assert.equal(res.body.status, 'released')
  assert.equal(res.body.hold_expires_at, null)
  assert.equal(res.body.updated_at, '2026-06-01T09:02:00+01:00')
  assert.equal(res.body.cancellation, null)

  const row = await bookingRow(service, booking.id)
  assert.equal(row.status, 'released')
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 0)
  assert.deepEqual(await transitions(service, booking.id), ['->held', 'held>released'])
})

test('DELETE /booking with nothing held, requested or confirmed is 404 no_booking', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  const none = await client.delete('/booking', { headers: s.headers })
  assert.equal(none.status, 404)
  assert.equal(none.body.code, 'no_booking')

  await hold(client, s, ALFAMA)
  assert.equal((await client.delete('/booking', { headers: s.headers })).status, 200)
  const twice = await client.delete('/booking', { headers: s.headers })
  assert.equal(twice.status, 404)
  assert.equal(twice.body.code, 'no_booking')
})

test('DELETE /booking without a token is 403 csrf_missing, with a wrong one 403 csrf_invalid, and the hold stays', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { session, booking } = await holding(client, ALFAMA)
  const other = await client.session()
  const missing = await client.delete('/booking', { headers: { 'x-session': session.session } })
  assert.equal(missing.status, 403)
  assert.equal(missing.body.code, 'csrf_missing')
  const wrong = await client.delete('/booking', { headers: { 'x-session': session.session, 'x-csrf-token': other.csrf } })
  assert.equal(wrong.status, 403)
  assert.equal(wrong.body.code, 'csrf_invalid')
  assert.equal((await bookingRow(service, booking.id)).status, 'held')
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 2)
  assert.deepEqual(await transitions(service, booking.id), ['->held'])
})

test('DELETE /booking takes no body fields: each is 400 validation_failed naming it, and nothing is released', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { session, booking } = await holding(client, ALFAMA)
  const bodies: [unknown, string][] = [[{ reason: 'changed my mind' }, 'reason'], [{ session: session.session }, 'session'], [{ __proto__x: 1 }, '__proto__x'], [[], 'body'], ['x', 'body']]
  for (const [body, field] of bodies) {
    const res = await client.delete('/booking', { headers: session.headers, body })
    assert.equal(res.status, 400, res.text)
    assert.equal(res.body.code, 'validation_failed')
    assert.deepEqual(res.body.errors.map((e: { field: string }) => e.field), [field])
  }
  assert.equal((await bookingRow(service, booking.id)).status, 'held')
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 2)
})

test("DELETE /booking never takes its session from the body: naming another session's hold there releases nothing", async (t) => {
  const service = await build(t)
  const client = service.client()
  const victim = await holding(client, ALFAMA)
  const caller = await holding(client, { ...ALFAMA, start: ALFAMA_TUE_1400 })
  // With the victim's token (leaked, say) but the caller's own session header: the token is not the caller's.
  const leaked = await client.delete('/booking', { headers: { 'x-session': caller.session.session, 'x-csrf-token': victim.session.csrf }, body: { session: victim.session.session } })
  assert.equal(leaked.status, 403, leaked.text)
  assert.equal(leaked.body.code, 'csrf_invalid')
  // With the caller's own token: the body field is refused, not obeyed.
  const own = await client.delete('/booking', { headers: caller.session.headers, body: { session: victim.session.session } })
  assert.equal(own.status, 400, own.text)
  assert.deepEqual(own.body.errors.map((e: { field: string }) => e.field), ['session'])
  assert.equal((await bookingRow(service, victim.booking.id)).status, 'held')
  assert.equal((await bookingRow(service, caller.booking.id)).status, 'held')
})

test('DELETE /booking with no body, an empty JSON body or {} releases the hold', async (t) => {
  const service = await build(t)
  const client = service.client()
  const sends: [string, (headers: Record<string, string>) => Promise<ApiResponse>][] = [
    ['no body', (headers) => client.delete('/booking', { headers })],
    ['empty application/json', (headers) => client.delete('/booking', { headers: { ...headers, 'content-type': 'application/json' }, body: '', raw: true })],
    ['{}', (headers) => client.delete('/booking', { headers, body: {} })],
  ]
  for (const [label, send] of sends) {
    const { session, booking } = await holding(client, ALFAMA)
    const res = await send(session.headers)
    assert.equal(res.status, 200, `${label}: ${res.text}`)
    assert.equal(res.body.id, booking.id)
    assert.equal(res.body.status, 'released', label)
  }
})

test('DELETE /booking well ahead cancels a confirmed booking with a 0% fee and frees its seats', async (t) => {
  const service = await build(t)
  const client = service.client()
  const start = '2026-06-10T08:30:00Z'
  const { session, booking } = await checkedOut(client, { ...ALFAMA, start })
  assert.equal(booking.status, 'confirmed')
  service.clock.advance({ hours: 1 })
  const res = await client.delete('/booking', { headers: session.headers })
  assert.equal(res.status, 200)
  assert.equal(res.body.status, 'cancelled')
  assert.deepEqual(res.body.cancellation, { cancelled_at: '2026-06-01T10:00:00+01:00', fee_percent: 0, fee: 0 })
  assert.equal(res.body.code, booking.code)

  const row = await bookingRow(service, booking.id)
  assert.equal(row.status, 'cancelled')
  assert.equal(row.cancellation_fee_percent, 0)
  assert.equal(row.cancellation_fee, 0)
  assert.equal(await seatsTaken(service, 'alfama-walk', start), 0)
  assert.deepEqual(await transitions(service, booking.id), ['->held', 'held>confirmed', 'confirmed>cancelled'])

  const shown = await client.get('/booking', { headers: { 'x-session': session.session } })
  assert.equal(shown.body.status, 'cancelled', 'a cancelled booking still shows on GET /booking')
  const again = await client.delete('/booking', { headers: session.headers })
  assert.equal(again.status, 404)
  assert.equal(again.body.code, 'no_booking')
})

test('DELETE /booking 30 hours before the start costs 50%', async (t) => {
  const service = await build(t)
  const client = service.client()
  const start = '2026-06-03T08:30:00Z'
  const { session, booking } = await checkedOut(client, { ...ALFAMA, start })
  assert.equal(booking.price.total, 3800)
  service.clock.set('2026-06-02T02:30:00Z')
  const res = await client.delete('/booking', { headers: session.headers })
  assert.equal(res.status, 200)
  assert.equal(res.body.status, 'cancelled')
  assert.equal(res.body.cancellation.fee_percent, 50)
  assert.equal(res.body.cancellation.fee, 1900)
  assert.equal((await bookingRow(service, booking.id)).cancellation_fee, 1900)
  assert.equal(await seatsTaken(service, 'alfama-walk', start), 0)
})

test('the 48-hour tier boundary: exactly 48 hours before is free, one second later costs 50%', async (t) => {
  const service = await build(t)
  const client = service.client()
  const start = '2026-06-05T08:30:00Z'
  const a = await checkedOut(client, { ...ALFAMA, start })
  const b = await checkedOut(client, { ...ALFAMA, start })
  service.clock.set('2026-06-03T08:30:00Z')
  const free = await client.delete('/booking', { headers: a.session.headers })
  assert.equal(free.body.cancellation.fee_percent, 0)
  service.clock.set('2026-06-03T08:30:01Z')
  const half = await client.delete('/booking', { headers: b.session.headers })
  assert.equal(half.body.cancellation.fee_percent, 50)
})

test('DELETE /booking withdraws a requested (on-request) booking free of charge, even under 24 hours; then nothing is due (issue 25, item 3)', async (t) => {
  const service = await build(t)
  const client = service.client()
  // fado-night 20:30 on Monday 1 June is 19:30Z, 11.5 hours away: a confirmed booking would pay 100%.
  const start = '2026-06-01T19:30:00Z'
  const { session, booking } = await checkedOut(client, { tour_id: 'fado-night', start, party: 2 })
  assert.equal(booking.status, 'requested')
  assert.deepEqual(booking.cancellation_now, { allowed: true, fee_percent: 0, fee: 0 }, 'nobody has accepted the request yet')
  assert.equal(booking.price.due_on_arrival, 11000)
  const res = await client.delete('/booking', { headers: session.headers })
  assert.equal(res.status, 200)
  assert.equal(res.body.status, 'cancelled')
  assert.equal(res.body.cancellation.fee_percent, 0)
  assert.equal(res.body.cancellation.fee, 0)
  assert.equal(res.body.price.total, 11000, 'the price it was made at stays on record')
  assert.equal(res.body.price.due_on_arrival, 0, 'a cancelled booking owes nothing on arrival')
  assert.deepEqual(await transitions(service, booking.id), ['->held', 'held>requested', 'requested>cancelled'])
  assert.equal(await seatsTaken(service, 'fado-night', start), 0)
})

test('DELETE /booking once cancellable_until has come is 409 cancellation_not_allowed and changes nothing', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { session, booking } = await checkedOut(client, ALFAMA)
  assert.equal(booking.cancellable_until, '2026-06-02T09:30:00+01:00', 'the smallest tier notice is 0 hours, so the start itself')

  service.clock.set(ALFAMA_TUE_0930)
  const res = await client.delete('/booking', { headers: session.headers })
  assert.equal(res.status, 409)
  assert.equal(res.body.code, 'cancellation_not_allowed')
  const row = await bookingRow(service, booking.id)
  assert.equal(row.status, 'confirmed')
  assert.equal(row.cancelled_at, null)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 2)
  assert.deepEqual(await transitions(service, booking.id), ['->held', 'held>confirmed'])
})

test('DELETE /booking one second before cancellable_until still cancels, at 100%', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { session, booking } = await checkedOut(client, ALFAMA)
  service.clock.set('2026-06-02T08:29:59Z')
  const res = await client.delete('/booking', { headers: session.headers })
  assert.equal(res.status, 200)
  assert.equal(res.body.status, 'cancelled')
  assert.equal(res.body.cancellation.fee_percent, 100)
  assert.equal(res.body.cancellation.fee, booking.price.total)
})
