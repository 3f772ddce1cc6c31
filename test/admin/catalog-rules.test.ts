import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build } from '../helpers/build.ts'
import { ALFAMA_TUE_0930, ALFAMA_TUE_1400, holding } from '../helpers/booking-fixtures.ts'
import { departurePath, departureRow, guestBooking, guestHold } from './departures-fixtures.ts'
import { assertProblem, catalogAudit, catalogVersion, manager } from './catalog-fixtures.ts'

/** alfama-walk at 09:30 on Wednesday 3 June (48.5 hours after DEFAULT_NOW). */
const ALFAMA_WED_0930 = '2026-06-03T08:30:00Z'
const STRICT_TERMS = {
  summary: 'Cancel free of charge up to 72 hours before the start; after that, the full price.',
  tiers: [{ hours_before_start: 72, fee_percent: 0 }, { hours_before_start: 0, fee_percent: 100 }],
  no_show_fee_percent: 100,
}

test('PUT /policy publishes a new version; a booking made before keeps its terms (its cancellation fee follows the old tiers), new bookings take the new', async (t) => {
  const service = await build(t)
  const operator = await manager(service)
  const old = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 2 })
  assert.deepEqual((await operator.get('/policy')).body.version, 3)

  const dry = await operator.put('/policy?dry_run=true', STRICT_TERMS)
  assert.deepEqual([dry.status, dry.body.dry_run, dry.body.policy.version], [200, true, 4])
  assert.equal((await operator.get('/policy')).body.version, 3)

  const published = await operator.put('/policy', STRICT_TERMS)
  assert.equal(published.status, 200, published.text)
  assert.deepEqual(published.body.policy, { id: 'flexible-48', version: 4, ...STRICT_TERMS })
  assert.deepEqual(published.body.changes.map((c: any) => c.action), ['policy.published'])
  assert.deepEqual((await operator.get('/policy')).body, published.body.policy)
  assert.equal((await service.client().get('/policies')).body.cancellation.version, 4, 'guests see the new terms at once')
  const [entry] = await catalogAudit(service, 'catalog.policy.published')
  assert.deepEqual([entry.before.version, entry.after.version, entry.after.tiers], [3, 4, STRICT_TERMS.tiers])

  const same = await operator.put('/policy', STRICT_TERMS)
  assert.deepEqual([same.body.changes, same.body.policy.version], [[], 4])

  // 24.5 hours before its start: 50 % under version 3's tiers, 100 % under version 4's.
  const code = old.booking.code
  assert.deepEqual((await operator.get(`/bookings/${code}`)).body.policy, { id: 'flexible-48', version: 3 })
  const cancelled = await operator.post(`/bookings/${code}/cancel`, { fee: 'policy' })
  assert.equal(cancelled.status, 200, cancelled.text)
  assert.deepEqual([cancelled.body.cancellation.fee_percent, cancelled.body.cancellation.fee], [50, 1900])

  // 48.5 hours before its start: free under version 3, the full price under version 4.
  const later = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_WED_0930, party: 1 })
  assert.deepEqual((await operator.get(`/bookings/${later.booking.code}`)).body.policy, { id: 'flexible-48', version: 4 })
  const laterCancelled = await operator.post(`/bookings/${later.booking.code}/cancel`, { fee: 'policy' })
  assert.equal(laterCancelled.body.cancellation.fee_percent, 100)
})

test('time zone and currency change freely before the instance has bookings, and are 409 catalog_frozen once it has one', async (t) => {
  const service = await build(t)
  const operator = await manager(service)
  const changed = await operator.patch('/settings', { timezone: 'Atlantic/Madeira', currency: 'USD' })
  assert.equal(changed.status, 200, changed.text)
  assert.deepEqual([changed.body.settings.timezone, changed.body.settings.currency], ['Atlantic/Madeira', 'USD'])
  assert.equal((await service.client().get('/tours/alfama-walk')).body.price.currency, 'USD')

  const { booking } = await holding(service.client(), { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 1 })
  assert.equal(booking.price.currency, 'USD')
  const version = await catalogVersion(service)
  assertProblem(await operator.patch('/settings', { currency: 'EUR' }), 409, 'catalog_frozen', ['currency'])
  assertProblem(await operator.patch('/settings', { timezone: 'Europe/Lisbon', name: 'Renamed' }), 409, 'catalog_frozen', ['timezone'])
  const catalog = (await operator.get('/catalog')).body
  assertProblem(await operator.put('/catalog?dry_run=true', { ...catalog, currency: 'GBP' }), 409, 'catalog_frozen', ['currency'])
  assert.equal(await catalogVersion(service), version)
  assert.equal((await operator.get('/settings')).body.name, 'Alfama & Tejo Tours', 'a refused edit changes nothing at all')
  assert.equal((await operator.patch('/settings', { name: 'Renamed' })).status, 200, 'the other settings stay editable')
})

test("lowering a tour's capacity moves the departures that fit; one an operator set and one with more seats taken keep theirs and are listed", async (t) => {
  const service = await build(t)
  const operator = await manager(service)
  await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 2 })
  assert.equal((await operator.patch(departurePath('alfama-walk', ALFAMA_TUE_1400), { capacity: 14 })).status, 200)
  await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_WED_0930, party: 5 })
  await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_WED_0930, party: 5 })
  const lower = { capacity: 8, party: { min: 1, max: 8 } }
  const kept = [
    { tour_id: 'alfama-walk', start: '2026-06-02T14:00:00+01:00', capacity: 14, seats_taken: 0, reason: 'set_by_operator' },
    { tour_id: 'alfama-walk', start: '2026-06-03T09:30:00+01:00', capacity: 16, seats_taken: 10, reason: 'seats_taken_above_new_capacity' },
  ]

  const dry = await operator.patch('/tours/alfama-walk?dry_run=true', lower)
  assert.deepEqual([dry.status, dry.body.capacity_kept], [200, kept])
  assert.equal((await departureRow(service, 'alfama-walk', ALFAMA_TUE_0930))!.capacity, 16)

  const res = await operator.patch('/tours/alfama-walk', lower)
  assert.equal(res.status, 200, res.text)
  assert.deepEqual(res.body.capacity_kept, kept)
  const rows = await Promise.all([ALFAMA_TUE_0930, ALFAMA_TUE_1400, ALFAMA_WED_0930].map((start) => departureRow(service, 'alfama-walk', start)))
  assert.deepEqual(rows.map((row) => [row!.capacity, row!.capacity_source, row!.seats_taken]), [[8, 'tour', 2], [14, 'operator', 0], [16, 'tour', 10]])
  assert.equal(rows[0]!.version, 2, 'a departure whose capacity moved has a new version')

  const day = await service.client().get('/availability?tour=alfama-walk&date=2026-06-02&days=1')
  assert.deepEqual(day.body.slots.map((s: any) => [s.capacity, s.remaining]), [[8, 6], [14, 14], [8, 8]])
  const listed = await operator.get('/departures?from=2026-06-03&to=2026-06-03&tour=alfama-walk')
  assert.deepEqual(listed.body.departures.map((d: any) => d.capacity), [16, 8, 8])
})

test('a schedule edit that takes departures with live bookings off the schedule keeps them (orphaned) and lists them; the bookings stand', async (t) => {
  const service = await build(t)
  const operator = await manager(service)
  const confirmed = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 2 })
  const held = await guestHold(service, { tour_id: 'alfama-walk', start: ALFAMA_WED_0930, party: 1 })
  const alfama = (await operator.get('/tours/alfama-walk')).body
  const schedule = [{ ...alfama.schedule[0], times: ['14:00', '17:30'] }]
  const orphaned = [
    { tour_id: 'alfama-walk', start: '2026-06-02T09:30:00+01:00', seats_taken: 2 },
    { tour_id: 'alfama-walk', start: '2026-06-03T09:30:00+01:00', seats_taken: 1 },
  ]

  const dry = await operator.patch('/tours/alfama-walk?dry_run=true', { schedule })
  assert.deepEqual([dry.status, dry.body.orphaned_departures], [200, orphaned])
  const res = await operator.patch('/tours/alfama-walk', { schedule })
  assert.equal(res.status, 200, res.text)
  assert.deepEqual(res.body.orphaned_departures, orphaned)

  const guest = service.client()
  const day = await guest.get('/availability?tour=alfama-walk&date=2026-06-02&days=1')
  assert.deepEqual(day.body.slots.map((s: any) => s.start), ['2026-06-02T14:00:00+01:00', '2026-06-02T17:30:00+01:00'])
  const standing = await guest.get('/booking', { headers: { 'x-session': confirmed.session.session } })
  assert.deepEqual([standing.status, standing.body.status], [200, 'confirmed'])
  const booking = await operator.get(`/bookings/${confirmed.booking.code}`)
  assert.equal(booking.body.status, 'confirmed')
  const departure = await operator.get(departurePath('alfama-walk', ALFAMA_TUE_0930))
  assert.deepEqual([departure.status, departure.body.departure.orphaned, departure.body.manifest.length], [200, true, 1])
  const checkout = await guest.post('/checkout', { name: 'Rui Costa', email: 'rui@example.pt' }, { headers: held.session.headers })
  assert.deepEqual([checkout.status, checkout.body.status], [200, 'confirmed'], 'a hold on an orphaned departure can still be checked out')
})

test('PUT /catalog without a tour that has bookings archives it instead of deleting it; one without bookings is deleted', async (t) => {
  const service = await build(t)
  const operator = await manager(service)
  const booked = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 2 })
  const catalog = (await operator.get('/catalog')).body
  const without = { ...catalog, tours: catalog.tours.filter((tour: any) => !['alfama-walk', 'belem-bike'].includes(tour.id)) }
  const res = await operator.put('/catalog', without)
  assert.equal(res.status, 200, res.text)
  const changes = new Map<string, string>(res.body.changes.map((c: any) => [c.target.id, `${c.action} ${[...c.fields].sort().join(',')}`]))
  assert.equal(changes.get('belem-bike')?.split(' ')[0], 'tour.deleted')
  assert.equal(changes.get('alfama-walk'), 'tour.updated archived,position', 'kept, archived, at the end of the list')
  for (const tour of catalog.tours.slice(1, 6)) assert.equal(changes.get(tour.id), 'tour.updated position', 'the others moved up a place')
  assert.deepEqual(res.body.catalog.tours.map((tour: any) => [tour.id, tour.archived ?? false]).at(-1), ['alfama-walk', true])
  assert.deepEqual((await operator.get('/tours/alfama-walk')).body.archived, true)
  assertProblem(await operator.get('/tours/belem-bike'), 404, 'tour_not_found')
  assertProblem(await service.client().get('/tours/alfama-walk'), 404, 'tour_not_found')
  assert.equal((await operator.get(`/bookings/${booked.booking.code}`)).body.status, 'confirmed')
})
