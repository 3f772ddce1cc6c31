import assert from 'node:assert/strict'
import { test } from 'node:test'
import { parseCatalogFile } from '../../src/catalog/catalog-file.ts'
import { closeContext, openContext, type AppContext } from '../../src/context.ts'
import { build, DEFAULT_NOW, demoCatalog, type TestService } from '../helpers/build.ts'
import { CONTACT } from '../helpers/booking-fixtures.ts'
import { freshDatabase, testDialect } from '../helpers/database.ts'
import { ManualClock } from '../helpers/manual-clock.ts'
import { ALFAMA_TUE, ALFAMA_TUE_PM, FADO_MON, FADO_TUE } from './bookings-fixtures.ts'
import { departurePath, departureRow, guestBooking, guestHold, operator } from './departures-fixtures.ts'

// From DEFAULT_NOW (Monday 1 June, 09:00 in Lisbon): fado-night runs at 20:30 every day (19:30Z).
const FADO_WED = '2026-06-03T19:30:00Z'
const FADO_THU = '2026-06-04T19:30:00Z'

/** The demo catalog with these minimums to run, by tour id. */
function catalogWithMinimums(minimums: Record<string, { min_participants: number, min_participants_deadline_hours?: number }>) {
  const catalog = demoCatalog()
  for (const tour of catalog.instances[0].tours) Object.assign(tour, minimums[tour.id] ?? {})
  return catalog
}

/** The guest slot starting at `start` (an instant in any offset), read as guests read it. */
async function guestSlot(service: TestService, tourId: string, start: string) {
  const date = new Date(Date.parse(start) + 3_600_000).toISOString().slice(0, 10)
  const res = await service.client().get(`/availability?tour=${tourId}&date=${date}&days=1`)
  assert.equal(res.status, 200, res.text)
  const slot = res.body.slots.find((s: { start: string }) => Date.parse(s.start) === Date.parse(start))
  assert.ok(slot, `no slot at ${start}`)
  return slot
}

/** Departure events of one type from the feed, as [tour, start] pairs. */
async function departureEvents(staff: Awaited<ReturnType<typeof operator>>, type: string) {
  const res = await staff.get(`/events?types=${type}&limit=100`)
  assert.equal(res.status, 200, res.text)
  return res.body.events as Array<{ type: string, data: any }>
}

const iso = (instant: string) => new Date(instant).toISOString()
const startOf = (event: { data: any }) => iso(event.data.start)

test('the departure and its guest slot show the minimum; holds do not count; the checkout that reaches it writes departure.guaranteed, and a new crossing after a fall writes another', async (t) => {
  const service = await build(t, { catalog: catalogWithMinimums({ 'alfama-walk': { min_participants: 4 } }) })
  const staff = await operator(service)
  const first = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 })

  const before = (await staff.get(departurePath('alfama-walk', ALFAMA_TUE))).body.departure
  assert.deepEqual([before.min_participants, before.guaranteed], [4, false])
  assert.equal((await guestSlot(service, 'alfama-walk', ALFAMA_TUE)).guaranteed, false)
  const fado = (await staff.get(departurePath('fado-night', FADO_TUE))).body.departure
  assert.deepEqual([fado.min_participants, fado.guaranteed], [null, false], 'a tour without a minimum has none to reach')
  assert.equal((await guestSlot(service, 'fado-night', FADO_TUE)).guaranteed, false)

  const hold = await guestHold(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 })
  assert.equal((await staff.get(departurePath('alfama-walk', ALFAMA_TUE))).body.departure.guaranteed, false, 'a hold does not count')
  assert.equal((await guestSlot(service, 'alfama-walk', ALFAMA_TUE)).guaranteed, false)
  assert.deepEqual(await departureEvents(staff, 'departure.guaranteed'), [])

  const checkout = await hold.client.post('/checkout', CONTACT, { headers: { 'x-session': hold.session.session } })
  assert.equal(checkout.status, 200, checkout.text)
  const after = (await staff.get(departurePath('alfama-walk', ALFAMA_TUE))).body.departure
  assert.deepEqual([after.guaranteed, after.seats.confirmed], [true, 4])
  assert.equal((await guestSlot(service, 'alfama-walk', ALFAMA_TUE)).guaranteed, true, 'the kept availability answer follows the booking')
  assert.equal((await guestSlot(service, 'alfama-walk', ALFAMA_TUE_PM)).guaranteed, false)

  const feed = (await staff.get('/events')).body.events.map((e: any) => e.type)
  assert.deepEqual(feed.slice(-2), ['booking.confirmed', 'departure.guaranteed'], 'told after the booking that reached it, in its transaction')
  const [guaranteed] = await departureEvents(staff, 'departure.guaranteed')
  assert.equal(startOf(guaranteed), iso(ALFAMA_TUE))
  assert.deepEqual([guaranteed.data.tour_id, guaranteed.data.min_participants, guaranteed.data.guaranteed, guaranteed.data.seats.confirmed], ['alfama-walk', 4, true, 4])

  await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1 })
  assert.equal((await departureEvents(staff, 'departure.guaranteed')).length, 1, 'a booking above the minimum tells nothing new')

  assert.equal((await staff.post(`/bookings/${first.booking.code}/cancel`, { reason: 'Changed plans' })).status, 200)
  assert.equal((await staff.get(departurePath('alfama-walk', ALFAMA_TUE))).body.departure.guaranteed, false, 'back below: 3 of 4')
  assert.equal((await guestSlot(service, 'alfama-walk', ALFAMA_TUE)).guaranteed, false)
  const staffBooking = await staff.post('/bookings', { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1, contact: CONTACT })
  assert.equal(staffBooking.status, 201, staffBooking.text)
  assert.equal((await departureEvents(staff, 'departure.guaranteed')).length, 2, 'reaching it again is told again')
  assert.equal((await guestSlot(service, 'alfama-walk', ALFAMA_TUE)).guaranteed, true)
})

test('a staff booking, a larger party and a release from quarantine each tell the crossing they make; requests count', async (t) => {
  const service = await build(t, { catalog: catalogWithMinimums({ 'fado-night': { min_participants: 3 } }) })
  const staff = await operator(service)
  const created = await staff.post('/bookings', { tour_id: 'fado-night', start: FADO_TUE, party: 2, contact: CONTACT, status: 'requested' })
  assert.equal(created.status, 201, created.text)
  assert.deepEqual(await departureEvents(staff, 'departure.guaranteed'), [])
  const resized = await staff.patch(`/bookings/${created.body.code}`, { party: 3 })
  assert.equal(resized.status, 200, resized.text)
  const told = await departureEvents(staff, 'departure.guaranteed')
  assert.deepEqual(told.map(startOf), [iso(FADO_TUE)])
  assert.deepEqual([told[0].data.seats.requested, told[0].data.guaranteed], [3, true], 'requests count towards the minimum')

  const moved = await staff.patch(`/bookings/${created.body.code}`, { start: FADO_WED })
  assert.equal(moved.status, 200, moved.text)
  assert.deepEqual((await departureEvents(staff, 'departure.guaranteed')).map(startOf), [FADO_TUE, FADO_WED].map(iso),
    'a move takes its guests to the new departure')
  assert.equal((await staff.get(departurePath('fado-night', FADO_TUE))).body.departure.guaranteed, false)

  const decoy = service.client()
  const session = await decoy.session()
  assert.equal((await decoy.post('/booking', { tour_id: 'fado-night', start: FADO_THU, party: 3, company: 'ACME Ltd' }, { headers: session.headers })).status, 200)
  const quarantined = await decoy.post('/checkout', CONTACT, { headers: session.headers })
  assert.equal(quarantined.status, 200, quarantined.text)
  assert.equal((await staff.get(departurePath('fado-night', FADO_THU))).body.departure.guaranteed, false, 'a quarantined booking does not count')
  assert.equal((await departureEvents(staff, 'departure.guaranteed')).length, 2)
  const released = await staff.post(`/bookings/${quarantined.body.code}/release-quarantine`)
  assert.equal(released.status, 200, released.text)
  assert.equal((await departureEvents(staff, 'departure.guaranteed')).length, 3)
  assert.equal((await staff.get(departurePath('fado-night', FADO_THU))).body.departure.guaranteed, true)
})

test(`two checkouts that reach the minimum together tell it once (${testDialect})`, async (t) => {
  const service = await build(t, { catalog: catalogWithMinimums({ 'alfama-walk': { min_participants: 4 } }) })
  const staff = await operator(service)
  for (let round = 0; round < 5; round++) {
    const start = new Date(Date.parse(ALFAMA_TUE) + round * 86_400_000).toISOString()
    const holds = await Promise.all([1, 2].map(() => guestHold(service, { tour_id: 'alfama-walk', start, party: 2 })))
    const checkouts = await Promise.all(holds.map((h) => h.client.post('/checkout', CONTACT, { headers: { 'x-session': h.session.session } })))
    assert.deepEqual(checkouts.map((c) => c.status), [200, 200])
  }
  const told = await departureEvents(staff, 'departure.guaranteed')
  assert.equal(told.length, 5, JSON.stringify(told.map(startOf)))
  assert.equal(new Set(told.map(startOf)).size, 5)
})

test('at its deadline a departure below the minimum is at risk, once, scheduled ones nobody booked included; cancelled and guaranteed ones are not', async (t) => {
  const service = await build(t, { catalog: catalogWithMinimums({ 'fado-night': { min_participants: 3, min_participants_deadline_hours: 6 } }) })
  const staff = await operator(service)
  const run = () => service.context.scheduler.runNow('departure-deadlines')
  await guestBooking(service, { tour_id: 'fado-night', start: FADO_MON, party: 2 })
  await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 3 })
  assert.equal((await staff.post(`${departurePath('fado-night', FADO_THU)}/cancel`, { reason: 'Venue closed' })).status, 200)

  assert.deepEqual(await run(), { departuresAtRisk: 0 }, 'no deadline has come at 09:00')
  service.clock.set('2026-06-01T13:29:59Z')
  assert.deepEqual(await run(), { departuresAtRisk: 0 })
  service.clock.set('2026-06-01T13:30:00Z')
  assert.deepEqual(await run(), { departuresAtRisk: 1 }, 'six hours before 20:30')
  assert.deepEqual(await run(), { departuresAtRisk: 0 }, 'told once')
  const [atRisk, ...more] = await departureEvents(staff, 'departure.at_risk')
  assert.deepEqual(more, [])
  assert.equal(startOf(atRisk), iso(FADO_MON))
  assert.deepEqual([atRisk.data.tour_id, atRisk.data.min_participants, atRisk.data.guaranteed, atRisk.data.seats.requested], ['fado-night', 3, false, 2])
  assert.ok((await departureRow(service, 'fado-night', FADO_MON))?.at_risk_at)

  const rescue = await staff.post('/bookings', { tour_id: 'fado-night', start: FADO_MON, party: 1, contact: CONTACT })
  assert.equal(rescue.status, 201, rescue.text)
  assert.deepEqual((await departureEvents(staff, 'departure.guaranteed')).map(startOf), [FADO_TUE, FADO_MON].map(iso),
    'reaching the minimum after the deadline is told too')

  service.clock.set('2026-06-02T13:30:00Z')
  assert.deepEqual(await run(), { departuresAtRisk: 0 }, 'Tuesday has its three')
  const tuesday = await departureRow(service, 'fado-night', FADO_TUE)
  assert.deepEqual([tuesday?.deadline_checked_at !== null, tuesday?.at_risk_at], [true, null])

  assert.equal(await departureRow(service, 'fado-night', FADO_WED), undefined, 'nobody booked Wednesday')
  service.clock.set('2026-06-03T14:00:00Z')
  assert.deepEqual(await run(), { departuresAtRisk: 1 }, 'a departure nobody booked is below any minimum')
  const wednesday = (await staff.get(departurePath('fado-night', FADO_WED))).body.departure
  assert.deepEqual([wednesday.version, wednesday.seats.requested, wednesday.guaranteed, wednesday.capacity_source], [1, 0, false, 'tour'])

  service.clock.set('2026-06-04T14:00:00Z')
  assert.deepEqual(await run(), { departuresAtRisk: 0 }, 'a cancelled departure is not checked')
  assert.deepEqual((await departureEvents(staff, 'departure.at_risk')).map(startOf), [FADO_MON, FADO_WED].map(iso))
})

test(`two nodes checking deadlines at once tell each departure at risk once (${testDialect})`, async (t) => {
  const database = await freshDatabase()
  const clock = new ManualClock(DEFAULT_NOW)
  const catalog = parseCatalogFile(JSON.stringify(catalogWithMinimums({ 'fado-night': { min_participants: 3, min_participants_deadline_hours: 36 } })), 'test catalog')
  const nodes: AppContext[] = []
  t.after(async () => {
    for (const node of nodes) await closeContext(node)
    await database.drop()
  })
  for (let i = 0; i < 2; i++) nodes.push(await openContext({ database: database.target, catalog, clock }))
  const [a, b] = nodes
  const lisbon = a.catalogs.get('lisbon')!
  await a.operatorBookings.create({ catalog: lisbon, now: clock.now(), actor: { type: 'system', id: null, name: 'test' }, requestId: null, ifMatch: null },
    { tour_id: 'fado-night', start: FADO_TUE, party: 1, contact: CONTACT })

  // Monday 19:30Z (nobody booked, no row) and Tuesday 19:30Z (one guest) are both within 36 hours; Wednesday's is not.
  const reports = await Promise.all([a, b, a, b].map((node) => node.scheduler.runNow('departure-deadlines')))
  assert.equal(reports.reduce((sum, r) => sum + (r as { departuresAtRisk: number }).departuresAtRisk, 0), 2, JSON.stringify(reports))
  const events = await a.store.db.selectFrom('events').select(['type', 'subject_id']).where('type', '=', 'departure.at_risk').execute()
  assert.deepEqual(events.map((e) => e.subject_id).sort(), [`fado-night/${new Date(FADO_MON).toISOString()}`, `fado-night/${new Date(FADO_TUE).toISOString()}`])
  const flagged = await a.store.db.selectFrom('departures').select('start_at').where('at_risk_at', 'is not', null).execute()
  assert.equal(flagged.length, 2)
})
