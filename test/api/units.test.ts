import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, demoCatalog, type TestService } from '../helpers/build.ts'
import type { ApiClient, ApiResponse } from '../helpers/client.ts'
import { ALFAMA, ALFAMA_TUE_0930, bookingRow, CONTACT, db, holding, seatsTaken } from '../helpers/booking-fixtures.ts'
import { operator } from '../admin/departures-fixtures.ts'

// Price categories over HTTP (docs/units.md), on SQLite and PostgreSQL. The sail is the demo's
// with units, 6 seats and parties of up to 6 people: an infant on a lap takes no seat, so a
// departure can carry more people than seats. Clock: DEFAULT_NOW, Monday 1 June 2026 09:00 Lisbon.

/** tagus-sunset-sail 17:30 on Tuesday 2 June (Lisbon, +01:00). */
const SAIL_TUE_1730 = '2026-06-02T16:30:00Z'
const SAIL = { tour_id: 'tagus-sunset-sail', start: SAIL_TUE_1730 }

const SAIL_UNITS = [
  { id: 'adult', type: 'adult', name: 'Adult', price: 6500, min_age: 13 },
  { id: 'child', type: 'child', name: 'Child', price: 3200, min_age: 4, max_age: 12, accompanied_by: ['adult'] },
  { id: 'infant', type: 'infant', name: 'Infant', description: 'On a lap', price: 0, seats: 0, max_age: 3, max_quantity: 2, accompanied_by: ['adult'] },
  { id: 'family', type: 'family', name: 'Family (2+2)', price: 18000, seats: 4, pax: 4, max_quantity: 1 },
]

function unitsCatalog(): any {
  const catalog = demoCatalog()
  const sail = catalog.instances[0].tours.find((tour: any) => tour.id === 'tagus-sunset-sail')
  Object.assign(sail, { price: 6500, capacity: 6, party: { min: 1, max: 6 }, units: SAIL_UNITS })
  return catalog
}

const start = (t: Parameters<typeof build>[0]) => build(t, { catalog: unitsCatalog() })

async function hold(client: ApiClient, body: Record<string, unknown>): Promise<ApiResponse> {
  const session = await client.session()
  return client.post('/booking', body, { headers: session.headers })
}

/** A refusal in problem+json, naming `field` in errors[]. */
function assertRefused(res: ApiResponse, status: number, code: string, field?: string): void {
  assert.equal(res.status, status, res.text)
  assert.equal(res.headers.get('content-type')?.split(';')[0], 'application/problem+json')
  assert.equal(res.body.code, code, res.text)
  if (field !== undefined) assert.deepEqual(res.body.errors.map((e: { field: string }) => e.field), [field], res.text)
}

async function bookingCount(service: TestService): Promise<number> {
  const row = await db(service).selectFrom('bookings').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  return Number(row.n)
}

async function sailSlot(client: ApiClient, query: string) {
  const res = await client.get(`/availability?tour=tagus-sunset-sail&date=2026-06-02&days=1&${query}`)
  assert.equal(res.status, 200, res.text)
  const slot = res.body.slots.find((s: { start: string }) => Date.parse(s.start) === Date.parse(SAIL_TUE_1730))
  assert.ok(slot, res.text)
  return { party: res.body.party as number | null, slot }
}

// ---------------------------------------------------------------- the tour record

test('the tour record lists its units with every default filled in and prices in money; a tour without units lists its person', async (t) => {
  const service = await start(t)
  const client = service.client()
  const sail = (await client.get('/tours/tagus-sunset-sail')).body
  assert.deepEqual(sail.price, { amount: 6500, currency: 'EUR' })
  assert.deepEqual(sail.units, [
    { id: 'adult', type: 'adult', name: 'Adult', description: '', price: { amount: 6500, currency: 'EUR' }, seats: 1, pax: 1,
      min_age: 13, max_age: null, min_quantity: 1, max_quantity: null, accompanied_by: [] },
    { id: 'child', type: 'child', name: 'Child', description: '', price: { amount: 3200, currency: 'EUR' }, seats: 1, pax: 1,
      min_age: 4, max_age: 12, min_quantity: 1, max_quantity: null, accompanied_by: ['adult'] },
    { id: 'infant', type: 'infant', name: 'Infant', description: 'On a lap', price: { amount: 0, currency: 'EUR' }, seats: 0, pax: 1,
      min_age: null, max_age: 3, min_quantity: 1, max_quantity: 2, accompanied_by: ['adult'] },
    { id: 'family', type: 'family', name: 'Family (2+2)', description: '', price: { amount: 18000, currency: 'EUR' }, seats: 4, pax: 4,
      min_age: null, max_age: null, min_quantity: 1, max_quantity: 1, accompanied_by: [] },
  ])
  assert.deepEqual((await client.get('/tours/alfama-walk')).body.units, [
    { id: 'person', type: 'adult', name: 'Person', description: '', price: { amount: 1900, currency: 'EUR' }, seats: 1, pax: 1,
      min_age: null, max_age: null, min_quantity: 1, max_quantity: null, accompanied_by: [] },
  ])
})

// ---------------------------------------------------------------- refusals

test('every refusal of a mix is 422 naming its field, and holds nothing', async (t) => {
  const service = await start(t)
  const client = service.client()
  const cases: [Record<string, unknown>, string, string][] = [
    [{ party: 2, units: { adult: 1, dog: 1 } }, 'invalid_unit', 'units.dog'],
    [{ party: 1, units: { person: 1 } }, 'invalid_unit', 'units.person'],
    [{ party: 1, units: { child: 1 } }, 'unit_not_allowed', 'units.child'],
    [{ party: 2, units: { infant: 1, child: 0, family: 0, adult: 0 } }, 'unit_not_allowed', 'units.infant'],
    [{ party: 4, units: { adult: 1, infant: 3 } }, 'unit_not_allowed', 'units.infant'],
    [{ party: 8, units: { family: 2 } }, 'unit_not_allowed', 'units.family'],
    [{ party: 3, units: { adult: 2, child: 2 } }, 'party_mismatch', 'party'],
    [{ party: 1, units: { adult: 1, infant: 1 } }, 'party_mismatch', 'party'],
    [{ party: 1, units: { family: 1 } }, 'party_mismatch', 'party'],
    // Party bounds count people: 7 people on 5 seats fit the boat but not the tour's parties of 1 to 6.
    [{ party: 7, units: { adult: 5, infant: 2 } }, 'party_out_of_range', 'party'],
    [{ party: 8, units: { family: 1, adult: 4 } }, 'party_out_of_range', 'party'],
  ]
  for (const [body, code, field] of cases) assertRefused(await hold(client, { ...SAIL, ...body }), 422, code, field)
  // The unit map's own form is the schema's: a quantity out of 0-100 or a non-integer is 400 naming the unit.
  for (const units of [{ adult: 101 }, { adult: -1 }, { adult: 1.5 }]) {
    assertRefused(await hold(client, { ...SAIL, party: 1, units }), 400, 'validation_failed', 'units.adult')
  }
  // A tour without units knows only person.
  assertRefused(await hold(client, { ...ALFAMA, units: { adult: 2 } }), 422, 'invalid_unit', 'units.adult')
  assert.equal(await bookingCount(service), 0)
  assert.equal(await seatsTaken(service, 'tagus-sunset-sail', SAIL_TUE_1730), 0)
})

// ---------------------------------------------------------------- bookings with units

test('a mix books its lines, seats and people: 2 adults, 1 child and 1 infant are 4 people on 3 seats', async (t) => {
  const service = await start(t)
  const client = service.client()
  const { session, booking } = await holding(client, { ...SAIL, party: 4, units: { infant: 1, child: 1, adult: 2 }, addons: { 'vinho-verde': 2 } })
  assert.equal(booking.party, 4)
  assert.equal(booking.seats, 3)
  assert.deepEqual(booking.units, [
    { id: 'adult', type: 'adult', name: 'Adult', quantity: 2, amount: 13000 },
    { id: 'child', type: 'child', name: 'Child', quantity: 1, amount: 3200 },
    { id: 'infant', type: 'infant', name: 'Infant', quantity: 1, amount: 0 },
  ])
  assert.deepEqual(booking.price, { currency: 'EUR', subtotal: 16200, addons: 1200, discount: 0, total: 17400, due_now: 0, due_on_arrival: 17400 })
  assert.equal(await seatsTaken(service, 'tagus-sunset-sail', SAIL_TUE_1730), 3)
  const row = await bookingRow(service, booking.id)
  assert.deepEqual([row.party, row.seats, JSON.parse(row.units)], [4, 3, booking.units])
  const checkedOut = await client.post('/checkout', CONTACT, { headers: { 'x-session': session.session } })
  assert.equal(checkedOut.status, 200, checkedOut.text)
  assert.deepEqual([checkedOut.body.seats, checkedOut.body.units], [3, booking.units])
  assert.deepEqual((await client.get('/booking', { headers: { 'x-session': session.session } })).body.units, booking.units)
})

test('a family ticket is four people on four seats at one price', async (t) => {
  const service = await start(t)
  const { booking } = await holding(service.client(), { ...SAIL, party: 4, units: { family: 1 } })
  assert.deepEqual([booking.party, booking.seats, booking.price.subtotal, booking.price.total], [4, 4, 18000, 18000])
  assert.deepEqual(booking.units, [{ id: 'family', type: 'family', name: 'Family (2+2)', quantity: 1, amount: 18000 }])
  assert.equal(await seatsTaken(service, 'tagus-sunset-sail', SAIL_TUE_1730), 4)
})

test('capacity counts seats: 6 adults and 2 infants fill the 6 seats exactly, then one more adult is insufficient_capacity', async (t) => {
  const service = await start(t)
  const client = service.client()
  await holding(client, { ...SAIL, party: 6, units: { adult: 4, infant: 2 } })
  await holding(client, { ...SAIL, party: 2, units: { adult: 2 } })
  assert.equal(await seatsTaken(service, 'tagus-sunset-sail', SAIL_TUE_1730), 6)
  const full = await sailSlot(client, 'units=adult:1')
  assert.deepEqual([full.slot.remaining, full.slot.status, full.slot.bookable, full.slot.reason], [0, 'sold_out', false, 'sold_out'])

  const refused = await hold(client, { ...SAIL, party: 1, units: { adult: 1 } })
  assertRefused(refused, 409, 'insufficient_capacity')
  assert.equal(refused.body.remaining, 0)
  assertRefused(await hold(client, { ...SAIL, party: 1 }), 409, 'insufficient_capacity')
  assert.equal(await seatsTaken(service, 'tagus-sunset-sail', SAIL_TUE_1730), 6)
  assert.equal(await bookingCount(service), 2)
})

test('an infant takes no seat: one seat left still takes an adult with two infants, not two adults', async (t) => {
  const service = await start(t)
  const client = service.client()
  await holding(client, { ...SAIL, party: 5, units: { adult: 5 } })
  const mix = await sailSlot(client, 'units=adult:1,infant:2')
  assert.deepEqual([mix.party, mix.slot.remaining, mix.slot.bookable, mix.slot.price], [3, 1, true, { amount: 6500, currency: 'EUR' }])
  const two = await sailSlot(client, 'units=adult:2')
  assert.deepEqual([two.slot.bookable, two.slot.reason], [false, 'insufficient_capacity'])
  assertRefused(await hold(client, { ...SAIL, party: 2, units: { adult: 2 } }), 409, 'insufficient_capacity')
  const { booking } = await holding(client, { ...SAIL, party: 3, units: { adult: 1, infant: 2 } })
  assert.deepEqual([booking.party, booking.seats], [3, 1])
  assert.equal(await seatsTaken(service, 'tagus-sunset-sail', SAIL_TUE_1730), 6)
})

test("a unit price edit through the operator's catalog leaves an existing booking's lines and totals alone", async (t) => {
  const service = await start(t)
  const client = service.client()
  const { session, booking } = await holding(client, { ...SAIL, party: 3, units: { adult: 2, child: 1 } })
  const edited = SAIL_UNITS.map((unit) => (unit.id === 'child' ? { ...unit, name: 'Kid', price: 4000 } : unit))
  const manager = await operator(service, 'manager')
  const patch = await manager.patch('/tours/tagus-sunset-sail', { units: edited })
  assert.equal(patch.status, 200, patch.text)
  const child = (await client.get('/tours/tagus-sunset-sail')).body.units[1]
  assert.deepEqual([child.name, child.price.amount], ['Kid', 4000], 'the guest side sees the new price')

  const kept = await client.get('/booking', { headers: { 'x-session': session.session } })
  assert.deepEqual(kept.body.units, booking.units)
  assert.deepEqual(kept.body.price, booking.price)
  const checkedOut = await client.post('/checkout', CONTACT, { headers: { 'x-session': session.session } })
  assert.deepEqual([checkedOut.body.units, checkedOut.body.price.total], [booking.units, 16200], 'checkout does not reprice')
  const row = await bookingRow(service, booking.id)
  assert.deepEqual([JSON.parse(row.units), row.total], [booking.units, 16200])

  // A new booking and the availability price use the new one.
  const { booking: later } = await holding(client, { ...SAIL, party: 2, units: { adult: 1, child: 1 } })
  assert.deepEqual(later.units[1], { id: 'child', type: 'child', name: 'Kid', quantity: 1, amount: 4000 })
  assert.equal((await sailSlot(client, 'units=adult:2,child:1')).slot.price.amount, 17000)
})

// ---------------------------------------------------------------- a client of the seed

test('a client sending only party books and pays exactly as the seed contract says, one line of the first unit', async (t) => {
  const service = await start(t)
  const client = service.client()
  const { booking } = await holding(client, { ...ALFAMA, addons: { 'ginjinha-tasting': 1 } })
  // The seed's fields, then the ones added since (meeting_point, cancellation_now, seats, units).
  const seed = ['id', 'code', 'status', 'tour', 'start', 'end', 'timezone', 'party', 'addons', 'promo_code', 'referral_code', 'price',
    'hold_expires_at', 'contact', 'cancellable_until', 'created_at', 'updated_at']
  for (const field of seed) assert.ok(Object.hasOwn(booking, field), field)
  assert.deepEqual({
    status: booking.status, code: booking.code, tour: booking.tour, start: booking.start, end: booking.end, timezone: booking.timezone,
    party: booking.party, addons: booking.addons, promo_code: booking.promo_code, referral_code: booking.referral_code, price: booking.price,
    hold_expires_at: booking.hold_expires_at, contact: booking.contact, cancellable_until: booking.cancellable_until,
  }, {
    status: 'held', code: null, tour: { id: 'alfama-walk', title: 'Alfama & Mouraria Walking Tour' },
    start: '2026-06-02T09:30:00+01:00', end: '2026-06-02T12:00:00+01:00', timezone: 'Europe/Lisbon', party: 2,
    addons: [{ id: 'ginjinha-tasting', name: 'Ginjinha tasting', quantity: 1, amount: 350 }], promo_code: null, referral_code: null,
    // The tour's per-person price times the party, as before units.
    price: { currency: 'EUR', subtotal: 3800, addons: 350, discount: 0, total: 4150, due_now: 0, due_on_arrival: 4150 },
    hold_expires_at: '2026-06-01T09:15:00+01:00', contact: null, cancellable_until: '2026-06-02T09:30:00+01:00',
  })
  assert.deepEqual([booking.seats, booking.units], [2, [{ id: 'person', type: 'adult', name: 'Person', quantity: 2, amount: 3800 }]])
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 2)

  // On a tour with units, party alone is that many of the first unit.
  const { booking: sail } = await holding(client, { ...SAIL, party: 2 })
  assert.deepEqual([sail.seats, sail.price.subtotal, sail.units], [2, 13000, [{ id: 'adult', type: 'adult', name: 'Adult', quantity: 2, amount: 13000 }]])
})

// ---------------------------------------------------------------- availability with units

test('availability with units: party is implied, bookable judges seats, each slot is priced for the mix', async (t) => {
  const service = await start(t)
  const client = service.client()
  const mix = await sailSlot(client, 'units=adult:2,child:1')
  assert.deepEqual([mix.party, mix.slot.bookable, mix.slot.price], [3, true, { amount: 16200, currency: 'EUR' }])
  const agreeing = await sailSlot(client, 'units=child:1,adult:2&party=3')
  assert.deepEqual([agreeing.party, agreeing.slot.price.amount], [3, 16200], 'the same mix written in another order, with its party')
  // Two mixes of the same party are answered apart (the kept answers key on the mix, not the party).
  assert.equal((await sailSlot(client, 'units=adult:2')).slot.price.amount, 13000)
  assert.equal((await sailSlot(client, 'units=adult:1,child:1')).slot.price.amount, 9700)
  assert.equal((await sailSlot(client, 'units=family:1')).slot.price.amount, 18000)
  // Without units: party of the first unit, or one of it.
  assert.deepEqual(await sailSlot(client, 'party=2').then(({ party, slot }) => [party, slot.bookable, slot.price.amount]), [2, true, 13000])
  const bare = await sailSlot(client, '')
  assert.deepEqual([bare.party, bare.slot.price.amount, 'bookable' in bare.slot], [null, 6500, false])

  // Seats decide: a family ticket takes 4 of the seats left, whatever its people.
  await holding(client, { ...SAIL, party: 2, units: { adult: 2 } })
  const family = await sailSlot(client, 'units=family:1')
  assert.deepEqual([family.slot.remaining, family.slot.bookable, family.slot.reason], [4, true, undefined])
  await holding(client, { ...SAIL, party: 1, units: { adult: 1 } })
  const tooMany = await sailSlot(client, 'units=family:1')
  assert.deepEqual([tooMany.slot.remaining, tooMany.slot.bookable, tooMany.slot.reason], [3, false, 'insufficient_capacity'])
})

test('availability refuses a bad mix as POST /booking does, and a malformed units= with 400 naming units, never a 500', async (t) => {
  const service = await start(t)
  const client = service.client()
  const get = (query: string) => client.get(`/availability?tour=tagus-sunset-sail&${query}`)
  assertRefused(await get('units=adult:1,dog:1'), 422, 'invalid_unit', 'units.dog')
  assertRefused(await get('units=child:1'), 422, 'unit_not_allowed', 'units.child')
  assertRefused(await get('units=adult:1,infant:3'), 422, 'unit_not_allowed', 'units.infant')
  assertRefused(await get('units=adult:2&party=3'), 422, 'party_mismatch', 'party')
  assertRefused(await get('units=adult:6,infant:2'), 422, 'party_out_of_range', 'party')
  assertRefused(await get('units=adult:0'), 422, 'party_out_of_range', 'party')
  for (const units of ['', 'adult', 'adult:', 'adult:x', 'adult:2,', ',adult:2', 'Adult:1', 'adult:-1', 'adult:1.5', 'adult:1;child:1',
    'adult:1,adult:1', 'adult:101', 'adult:1000', Array.from({ length: 11 }, (_, i) => `u${i}:1`).join(','), `${'a'.repeat(41)}:1`]) {
    assertRefused(await get(`units=${encodeURIComponent(units)}`), 400, 'validation_failed', 'units')
  }
  assertRefused(await client.get('/availability?tour=alfama-walk&units=adult:1'), 422, 'invalid_unit', 'units.adult')
  assert.equal((await client.get('/availability?tour=alfama-walk&units=person:2')).body.party, 2)
})
