import assert from 'node:assert/strict'
import { test } from 'node:test'
import { demoCatalog, type TestService } from '../helpers/build.ts'
import { CONTACT, db, seatsTaken } from '../helpers/booking-fixtures.ts'
import { parseCsv } from '../helpers/csv.ts'
import { ALFAMA_TUE, ALFAMA_TUE_PM, guestBooking, operatorService } from './bookings-fixtures.ts'
import { departurePath, departureRow } from './departures-fixtures.ts'

/**
 * The demo catalog with alfama-walk priced by units: adults at the tour's price, children and
 * infants (on a lap: no seat) who come with an adult, and a family ticket of 4 on 4 seats.
 * A small capacity comes with a party of at most as many (a catalog rule).
 */
function unitsCatalog(alfama: Record<string, unknown>) {
  const catalog = demoCatalog()
  const tour = catalog.instances[0].tours.find((t: { id: string }) => t.id === 'alfama-walk')
  Object.assign(tour, {
    units: [
      { id: 'adult', type: 'adult', name: 'Adult', price: 1900 },
      { id: 'child', type: 'child', name: 'Child', price: 1000, min_age: 4, max_age: 12, accompanied_by: ['adult'] },
      { id: 'infant', type: 'infant', name: 'Infant', price: 0, seats: 0, max_age: 3, accompanied_by: ['adult'] },
      { id: 'family', type: 'family', name: 'Family', price: 5000, seats: 4, pax: 4 },
    ],
  }, alfama, typeof alfama.capacity === 'number' ? { party: { min: 1, max: Math.min(10, alfama.capacity) } } : {})
  // The demo's translations name its implicit "person" unit, which these units replace.
  for (const texts of Object.values(tour.translations ?? {})) delete (texts as { units?: unknown }).units
  return catalog
}

const line = (id: string, type: string, name: string, quantity: number, amount: number) => ({ id, type, name, quantity, amount })
const fieldsOf = (body: { errors?: Array<{ field: string }> }) => body.errors?.map((e) => e.field)

async function bookingVersion(staff: Awaited<ReturnType<typeof operatorService>>['staff'], code: string) {
  return (await staff.get(`/bookings/${code}`)).body.version as number
}

test('staff book units: seats are Σ quantity × seats, the price Σ quantity × price; each refusal names its field and changes nothing', async (t) => {
  const { service, staff } = await operatorService(t, { catalog: unitsCatalog({ capacity: 6 }) })
  const base = { tour_id: 'alfama-walk', start: ALFAMA_TUE, contact: CONTACT }
  const made = await staff.post('/bookings', { ...base, party: 4, units: { adult: 2, child: 1, infant: 1 } })
  assert.equal(made.status, 201, made.text)
  assert.deepEqual([made.body.party, made.body.seats, made.body.channel], [4, 3, 'staff'])
  assert.deepEqual(made.body.units, [line('adult', 'adult', 'Adult', 2, 3800), line('child', 'child', 'Child', 1, 1000), line('infant', 'infant', 'Infant', 1, 0)])
  assert.equal(made.body.price.subtotal, 4800)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE), 3)

  const refusals: Array<[Record<string, unknown>, string, string]> = [
    [{ party: 3, units: { adult: 2, child: 1, infant: 1 } }, 'party_mismatch', 'party'],
    [{ party: 2, units: { adult: 1, dolphin: 1 } }, 'invalid_unit', 'units.dolphin'],
    [{ party: 1, units: { child: 1 } }, 'unit_not_allowed', 'units.child'],
    [{ party: 4, units: { family: 1 } }, 'insufficient_capacity', ''],
  ]
  for (const [body, code, field] of refusals) {
    const res = await staff.post('/bookings', { ...base, ...body })
    assert.equal(res.body.code, code, res.text)
    if (field) assert.deepEqual([res.status, fieldsOf(res.body)], [422, [field]])
  }
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE), 3, 'no refusal took a seat')
  assert.equal((await staff.get('/bookings?tour=alfama-walk')).body.bookings.length, 1)
})

test('PATCH units re-prices and changes seats under the capacity rule (infants take none); party alone on a mix is 422 units_required', async (t) => {
  const { service, staff } = await operatorService(t, { catalog: unitsCatalog({ capacity: 6 }) })
  const made = await staff.post('/bookings', { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 4, units: { adult: 2, child: 1, infant: 1 }, contact: CONTACT })
  assert.equal(made.status, 201, made.text)
  const code = made.body.code as string

  const partyAlone = await staff.patch(`/bookings/${code}`, { party: 5 })
  assert.deepEqual([partyAlone.status, partyAlone.body.code, fieldsOf(partyAlone.body)], [422, 'units_required', ['units']])
  assert.equal(await bookingVersion(staff, code), 1, 'refused: nothing changed')

  const addonsOnly = await staff.patch(`/bookings/${code}`, { party: 4, addons: { 'illustrated-map': 1 } })
  assert.equal(addonsOnly.status, 200, addonsOnly.text)
  assert.deepEqual(addonsOnly.body.units, made.body.units, 'a change without units keeps them')
  assert.equal(addonsOnly.body.seats, 3)

  await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1 })
  const grown = await staff.patch(`/bookings/${code}`, { units: { adult: 3, child: 2, infant: 1 } })
  assert.equal(grown.status, 200, grown.text)
  assert.deepEqual([grown.body.party, grown.body.seats, grown.body.price.subtotal], [6, 5, 3 * 1900 + 2 * 1000])
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE), 6, 'the departure is full')

  const infants = await staff.patch(`/bookings/${code}`, { units: { adult: 3, child: 1, infant: 2 }, party: 6 })
  assert.equal(infants.status, 200, infants.text)
  assert.deepEqual([infants.body.party, infants.body.seats], [6, 4], 'infants on a lap take no seat')
  const full = await staff.patch(`/bookings/${code}`, { units: { adult: 3, child: 2, infant: 1 } })
  assert.equal(full.status, 200, full.text)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE), 6, 'full again')

  const version = await bookingVersion(staff, code)
  const tooMany = await staff.patch(`/bookings/${code}`, { units: { adult: 3, child: 3 } })
  assert.deepEqual([tooMany.status, tooMany.body.code], [409, 'insufficient_capacity'])
  const mismatch = await staff.patch(`/bookings/${code}`, { units: { adult: 1 }, party: 2 })
  assert.deepEqual([mismatch.status, mismatch.body.code, fieldsOf(mismatch.body)], [422, 'party_mismatch', ['party']])
  assert.equal(await bookingVersion(staff, code), version, 'refused: nothing changed')
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE), 6)

  const detail = (await staff.get(`/bookings/${code}`)).body
  const unitChanges = detail.history.flatMap((h: any) => h.changes).filter((c: any) => c.field === 'units')
  assert.deepEqual(unitChanges[0], { field: 'units', from: '2 Adult, 1 Child, 1 Infant', to: '3 Adult, 2 Child, 1 Infant' })

  const changed = (await staff.get('/events?types=booking.changed&limit=100')).body.events
  const last = changed[changed.length - 1].data
  assert.deepEqual([last.code, last.seats, last.units], [code, 5, [line('adult', 'adult', 'Adult', 3, 5700), line('child', 'child', 'Child', 2, 2000), line('infant', 'infant', 'Infant', 1, 0)]],
    'events (and so webhooks, which send the same record) carry the units and seats')

  const plain = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE_PM, party: 1 })
  const resized = await staff.patch(`/bookings/${plain.booking.code}`, { party: 2 })
  assert.equal(resized.status, 200, resized.text)
  assert.deepEqual([resized.body.seats, resized.body.units], [2, [line('adult', 'adult', 'Adult', 2, 3800)]], 'party alone still resizes a booking of the first unit')
})

async function bookedDeparture(service: TestService, staff: Awaited<ReturnType<typeof operatorService>>['staff']) {
  const mix = await staff.post('/bookings', { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 4, units: { adult: 2, child: 1, infant: 1 }, contact: { name: 'Ana Silva', email: 'ana@example.pt' } })
  assert.equal(mix.status, 201, mix.text)
  const plain = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 }, { name: 'Bruno Costa', email: 'bruno@example.pt' })
  const family = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 4, units: { family: 1 } }, { name: 'Carla Dias', email: 'carla@example.pt' })
  return { mix: mix.body, plain: plain.booking, family: family.booking }
}

test('the manifest lists each booking\'s units and seats and totals each unit, seats and people; both CSV exports carry seats and units', async (t) => {
  const { service, staff } = await operatorService(t, { catalog: unitsCatalog({ capacity: 10 }) })
  const { mix, plain, family } = await bookedDeparture(service, staff)

  const read = await staff.get(departurePath('alfama-walk', ALFAMA_TUE))
  assert.equal(read.status, 200, read.text)
  const { departure, manifest, totals } = read.body
  assert.deepEqual(manifest.map((e: any) => [e.code, e.party, e.seats, e.units.map((u: any) => `${u.quantity} ${u.id}`)]), [
    [mix.code, 4, 3, ['2 adult', '1 child', '1 infant']],
    [plain.code, 2, 2, ['2 adult']],
    [family.code, 4, 4, ['1 family']],
  ])
  assert.deepEqual(totals.units, [
    line('adult', 'adult', 'Adult', 4, 7600), line('child', 'child', 'Child', 1, 1000), line('infant', 'infant', 'Infant', 1, 0), line('family', 'family', 'Family', 1, 5000),
  ], "per unit, in the tour's order")
  assert.deepEqual([totals.guests, totals.seats, departure.seats.confirmed, departure.seats.free], [10, 9, 9, 1])

  // seats and units follow the columns from before units, which a spreadsheet may read by position.
  const seatsAndUnits = (header: string[], row: string[]) => [row[header.indexOf('seats')], row[header.indexOf('units')]]
  const manifestCsv = parseCsv((await staff.get(departurePath('alfama-walk', ALFAMA_TUE), { accept: 'text/csv' })).text)
  assert.deepEqual(manifestCsv[0].slice(manifestCsv[0].indexOf('note') + 1).slice(0, 2), ['seats', 'units'])
  assert.deepEqual(manifestCsv.slice(1).map((r) => [r[0], ...seatsAndUnits(manifestCsv[0], r)]),
    [[mix.code, '3', '2 Adult, 1 Child, 1 Infant'], [plain.code, '2', '2 Adult'], [family.code, '4', '1 Family']])

  const exported = parseCsv((await staff.get('/exports/bookings.csv?tour=alfama-walk')).text)
  assert.deepEqual(exported[0].slice(exported[0].indexOf('version') + 1).slice(0, 2), ['seats', 'units'])
  const byCode = new Map(exported.slice(1).map((r) => [r[0], seatsAndUnits(exported[0], r)]))
  assert.deepEqual(byCode.get(mix.code), ['3', '2 Adult, 1 Child, 1 Infant'])
  assert.deepEqual(byCode.get(family.code), ['4', '1 Family'])
  assert.deepEqual(byCode.get(plain.code), ['2', '2 Adult'])
})

test('the minimum to run counts people, not seats: infants on a lap and a family ticket reach it; at the deadline it stays reached', async (t) => {
  const { service, staff } = await operatorService(t, { catalog: unitsCatalog({ capacity: 6, min_participants: 4 }) })
  await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 4, units: { adult: 2, infant: 2 } })
  const morning = (await staff.get(departurePath('alfama-walk', ALFAMA_TUE))).body.departure
  assert.deepEqual([morning.seats.confirmed, morning.guaranteed], [2, true], '2 seats, 4 people: guaranteed')
  const slots = (await service.client().get('/availability?tour=alfama-walk&date=2026-06-02&days=1')).body.slots
  const slot = slots.find((s: { start: string }) => Date.parse(s.start) === Date.parse(ALFAMA_TUE))
  assert.deepEqual([slot.remaining, slot.guaranteed], [4, true], 'guests see the seats left and the guarantee')

  await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE_PM, party: 3, units: { adult: 3 } })
  assert.equal((await staff.get(departurePath('alfama-walk', ALFAMA_TUE_PM))).body.departure.guaranteed, false, '3 people of 4')
  const family = await staff.post('/bookings', { tour_id: 'alfama-walk', start: ALFAMA_TUE_PM, party: 4, units: { family: 1 }, contact: CONTACT })
  assert.equal(family.status, 409, 'a family ticket takes 4 seats of the 3 left')
  const child = await staff.post('/bookings', { tour_id: 'alfama-walk', start: ALFAMA_TUE_PM, party: 1, units: { infant: 1 }, contact: CONTACT })
  assert.equal(child.body.code, 'unit_not_allowed', 'an infant comes with an adult')
  const withInfant = await staff.patch(`/bookings/${(await staff.get('/bookings?tour=alfama-walk')).body.bookings.find((b: any) => b.party === 3).code}`, { units: { adult: 3, infant: 1 } })
  assert.equal(withInfant.status, 200, withInfant.text)
  const afternoon = (await staff.get(departurePath('alfama-walk', ALFAMA_TUE_PM))).body.departure
  assert.deepEqual([afternoon.seats.confirmed, afternoon.guaranteed], [3, true], 'an infant added by PATCH reaches it')

  const guaranteed = (await staff.get('/events?types=departure.guaranteed&limit=100')).body.events
  assert.deepEqual(guaranteed.map((e: any) => Date.parse(e.data.start)), [Date.parse(ALFAMA_TUE), Date.parse(ALFAMA_TUE_PM)])

  service.clock.set('2026-06-01T08:30:00Z')
  await service.context.scheduler.runNow('departure-deadlines')
  const row = await departureRow(service, 'alfama-walk', ALFAMA_TUE)
  assert.deepEqual([row?.deadline_checked_at !== null, row?.at_risk_at], [true, null], 'at its deadline 4 people on 2 seats are not at risk')
})

test('an event kept from before units (a booking row without seats and units) reads as the migration made its booking, not as a 500', async (t) => {
  const { service, staff } = await operatorService(t)
  const { booking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 })
  const [event] = await db(service).selectFrom('events').select(['id', 'data']).where('subject_id', '=', booking.id).execute()
  const { seats: _seats, units: _units, ...before } = JSON.parse(event.data)
  await db(service).updateTable('events').set({ data: JSON.stringify(before) }).where('id', '=', event.id).execute()

  const feed = await staff.get('/events')
  assert.equal(feed.status, 200, feed.text)
  const data = feed.body.events.find((e: { id: string }) => e.id === event.id).data
  assert.deepEqual([data.party, data.seats, data.units], [2, 2, [line('person', 'adult', 'Person', 2, 3800)]])
})
