import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build } from '../helpers/build.ts'
import { ALFAMA, ALFAMA_TUE_0930, CONTACT, holding } from '../helpers/booking-fixtures.ts'
import { guestBooking } from './departures-fixtures.ts'
import { assertProblem, catalogAudit, catalogVersion, guestTour, manager } from './catalog-fixtures.ts'

const NEW_TOUR = {
  id: 'tram-28-ride',
  title: 'Tram 28 Ride & Graça Viewpoints',
  summary: 'The yellow tram up to Graça, then three viewpoints on foot.',
  description: 'We ride tram 28 from Martim Moniz to Graça and walk back down.',
  duration_minutes: 120,
  meeting_point: { name: 'Martim Moniz tram stop', address: 'Praça Martim Moniz, Lisboa', lat: 38.7155, lng: -9.1359 },
  languages: ['en', 'pt'],
  tags: ['tram', 'viewpoints'],
  price: 2500,
  party: { min: 1, max: 8 },
  capacity: 12,
  cutoff_minutes: 60,
  confirmation: 'instant',
  addons: [],
  schedule: [{ from: '2026-06-01', until: '2026-10-31', weekdays: ['tue'], times: ['10:00'] }],
  blackouts: [],
}

test('GET /catalog answers the instance in the file format; PUT of it unchanged changes nothing; PUT with edits applies them at once and audits each', async (t) => {
  const service = await build(t)
  const operator = await manager(service)
  const got = await operator.get('/catalog')
  assert.equal(got.status, 200, got.text)
  assert.deepEqual([got.body.prefix, got.body.ref, got.body.currency, got.body.cancellation_policy.version], ['lisbon', 'lx4t7k2m', 'EUR', 3])
  assert.equal(got.body.tours.length, 7)
  const version = await catalogVersion(service)

  const same = await operator.put('/catalog', got.body)
  assert.equal(same.status, 200, same.text)
  assert.deepEqual([same.body.changes, same.body.catalog_version, same.body.dry_run], [[], version, false])
  assert.deepEqual(await catalogAudit(service), [])

  const edited = structuredClone(got.body)
  edited.tours[0].price = 2100
  edited.name = 'Alfama & Tejo'
  edited.promo_codes.push({ code: 'FAIR-2026', kind: 'fixed', value: 300, valid_from: '2026-05-01', valid_until: '2026-12-31' })
  const put = await operator.put('/catalog', edited)
  assert.equal(put.status, 200, put.text)
  assert.equal(put.body.catalog_version, version + 1)
  assert.deepEqual(put.body.changes.map((c: any) => `${c.action} ${c.target.id} ${c.fields.join(',')}`).sort(),
    ['promo_code.created FAIR-2026 code,kind,value,valid_from,valid_until,position', 'settings.updated lx4t7k2m name', 'tour.updated alfama-walk price'].sort())
  assert.equal(put.body.catalog.tours[0].price, 2100)
  assert.equal((await guestTour(service, 'alfama-walk')).price, 2100, 'guests on this node see it when the answer arrives')
  assert.equal((await service.client().get('/tours')).body.tours[0].price.amount, 2100, 'the tour list too')
  assert.equal((await service.client().get('/')).body.name, 'Alfama & Tejo')
  assert.deepEqual((await operator.get('/catalog')).body, put.body.catalog)
  const audit = await catalogAudit(service)
  assert.deepEqual(audit.map((e) => e.action).sort(), ['catalog.promo_code.created', 'catalog.settings.updated', 'catalog.tour.updated'])
  const priceEntry = audit.find((e) => e.action === 'catalog.tour.updated')!
  assert.deepEqual([priceEntry.before, priceEntry.after, priceEntry.target_type, priceEntry.target_id, priceEntry.actor_type], [{ price: 1900 }, { price: 2100 }, 'tour', 'alfama-walk', 'key'])
  assert.ok(priceEntry.request_id)
})

test('PUT /catalog?dry_run=true answers the change summary and changes nothing: same catalog_version, guests see the old catalog, no audit entry', async (t) => {
  const service = await build(t)
  const operator = await manager(service)
  const before = (await operator.get('/catalog')).body
  const version = await catalogVersion(service)
  const edited = structuredClone(before)
  edited.tours[0].price = 9900
  edited.tours = edited.tours.filter((tour: any) => tour.id !== 'belem-bike')
  edited.cancellation_policy.tiers = [{ hours_before_start: 0, fee_percent: 0 }]

  const dry = await operator.put('/catalog?dry_run=true', edited)
  assert.equal(dry.status, 200, dry.text)
  assert.equal(dry.body.dry_run, true)
  assert.equal(dry.body.catalog_version, version)
  assert.deepEqual(dry.body.changes.map((c: any) => `${c.action} ${c.target.id}`).sort(), ['policy.published flexible-48', 'tour.deleted belem-bike', 'tour.updated alfama-walk'])
  assert.equal(dry.body.catalog.cancellation_policy.version, 4, 'the answer shows the version it would publish')
  assert.equal(await catalogVersion(service), version)
  assert.deepEqual((await operator.get('/catalog')).body, before)
  assert.equal((await guestTour(service, 'alfama-walk')).price, 1900)
  assert.equal((await guestTour(service, 'belem-bike')).status, 200)
  assert.equal((await service.client().get('/policies')).body.cancellation.version, 3)
  assert.deepEqual(await catalogAudit(service), [])
})

test('PUT /catalog takes a catalog larger than the 64 KiB other bodies may be', async (t) => {
  const service = await build(t)
  const operator = await manager(service)
  const catalog = (await operator.get('/catalog')).body
  for (const tour of catalog.tours) tour.description = 'Tiles, fado and miradouros. '.repeat(350)
  assert.ok(JSON.stringify(catalog).length > 64 * 1024)
  const res = await operator.put('/catalog?dry_run=true', catalog)
  assert.equal(res.status, 200, res.text)
  assert.equal(res.body.changes.length, catalog.tours.length)
})

test('GET /tours lists every tour in order with archived, in pages; GET /tours/{id} answers one, archived or not', async (t) => {
  const service = await build(t)
  const operator = await manager(service)
  assert.equal((await operator.post('/tours/fado-night/archive')).status, 200)
  const first = await operator.get('/tours?limit=4')
  assert.equal(first.status, 200, first.text)
  assert.equal(first.body.tours.length, 4)
  assert.ok(first.body.next_cursor)
  const rest = await operator.get(`/tours?limit=4&cursor=${first.body.next_cursor}`)
  assert.equal(rest.body.next_cursor, null)
  const tours = [...first.body.tours, ...rest.body.tours]
  assert.deepEqual(tours.map((tour: any) => tour.id), ['alfama-walk', 'tagus-sunset-sail', 'port-wine-tasting', 'sintra-day-trip', 'fado-night', 'pastel-de-nata-workshop', 'belem-bike'])
  assert.deepEqual(tours.filter((tour: any) => tour.archived).map((tour: any) => tour.id), ['fado-night'])
  const fado = await operator.get('/tours/fado-night')
  assert.deepEqual([fado.status, fado.body.archived, fado.body.price], [200, true, 5500])
  assert.equal((await operator.get('/tours/alfama-walk')).body.archived, false)
})

test('POST /tours adds a tour guests can book at once (201, audited); the id again is 409 tour_exists; Idempotency-Key replays the first answer', async (t) => {
  const service = await build(t)
  const operator = await manager(service)
  const created = await operator.post('/tours', NEW_TOUR, { 'idempotency-key': 'tram-1' })
  assert.equal(created.status, 201, created.text)
  assert.deepEqual(created.body.tour, { ...NEW_TOUR, archived: false })
  assert.deepEqual(created.body.changes.map((c: any) => c.action), ['tour.created'])

  const replay = await operator.post('/tours', NEW_TOUR, { 'idempotency-key': 'tram-1' })
  assert.equal(replay.status, 201)
  assert.equal(replay.headers.get('idempotent-replayed'), 'true')
  assert.deepEqual(replay.body, created.body)
  assertProblem(await operator.post('/tours', NEW_TOUR), 409, 'tour_exists')
  assert.deepEqual((await catalogAudit(service)).map((e) => e.action), ['catalog.tour.created'])

  const guest = service.client()
  assert.equal((await guest.get('/tours')).body.tours.at(-1).id, 'tram-28-ride')
  assert.equal((await guestTour(service, 'tram-28-ride')).price, 2500)
  const { booking } = await holding(guest, { tour_id: 'tram-28-ride', start: '2026-06-02T09:00:00Z', party: 2 })
  assert.equal(booking.price.subtotal, 5000)
})

test('PUT /tours/{id} replaces the tour, PATCH changes the fields given; each audited with the fields before and after', async (t) => {
  const service = await build(t)
  const operator = await manager(service)
  const alfama = (await operator.get('/tours/alfama-walk')).body
  const { id: _id, archived: _archived, ...withoutId } = alfama
  const put = await operator.put('/tours/alfama-walk', { ...withoutId, title: 'Alfama at Dawn', tags: ['walking'] })
  assert.equal(put.status, 200, put.text)
  assert.deepEqual([put.body.tour.title, put.body.tour.tags, put.body.tour.price], ['Alfama at Dawn', ['walking'], 1900])
  assert.equal((await guestTour(service, 'alfama-walk')).body.title, 'Alfama at Dawn')

  const patch = await operator.patch('/tours/alfama-walk', { price: 2300, party: { min: 2, max: 6 } })
  assert.equal(patch.status, 200, patch.text)
  assert.deepEqual([patch.body.tour.title, patch.body.tour.price, patch.body.tour.party], ['Alfama at Dawn', 2300, { min: 2, max: 6 }])
  assert.deepEqual(patch.body.changes, [{ action: 'tour.updated', target: { type: 'tour', id: 'alfama-walk' }, fields: ['price', 'party'] }])
  const guest = await guestTour(service, 'alfama-walk')
  assert.deepEqual([guest.price, guest.body.party], [2300, { min: 2, max: 6 }])

  const [replaced, patched] = await catalogAudit(service, 'catalog.tour.updated')
  assert.deepEqual(replaced.before, { title: 'Alfama & Mouraria Walking Tour', tags: alfama.tags })
  assert.deepEqual(replaced.after, { title: 'Alfama at Dawn', tags: ['walking'] })
  assert.deepEqual(patched.before, { price: 1900, party: { min: 1, max: 10 } })
  assert.deepEqual(patched.after, { price: 2300, party: { min: 2, max: 6 } })

  const again = await operator.patch('/tours/alfama-walk', { price: 2300 })
  assert.deepEqual([again.status, again.body.changes, again.body.catalog_version], [200, [], patch.body.catalog_version])
})

test('archiving a tour hides it from guests at once (404, gone from the list and search, no new hold) while its bookings stand; unarchiving offers it again', async (t) => {
  const service = await build(t)
  const operator = await manager(service)
  const mine = await guestBooking(service, ALFAMA)
  const archived = await operator.post('/tours/alfama-walk/archive', undefined, { 'idempotency-key': 'pause-alfama' })
  assert.equal(archived.status, 200, archived.text)
  assert.deepEqual([archived.body.tour.archived, archived.body.changes[0].action], [true, 'tour.archived'])

  const guest = service.client()
  assertProblem(await guest.get('/tours/alfama-walk'), 404, 'tour_not_found')
  assert.ok(!(await guest.get('/tours')).body.tours.some((tour: any) => tour.id === 'alfama-walk'))
  assert.ok(!(await guest.get('/tours?q=alfama')).body.tours.some((tour: any) => tour.id === 'alfama-walk'))
  assertProblem(await guest.get('/availability?tour=alfama-walk&date=2026-06-02&days=1'), 404, 'tour_not_found')
  const session = await guest.session()
  assertProblem(await guest.post('/booking', ALFAMA, { headers: session.headers }), 404, 'tour_not_found')
  const standing = await guest.get('/booking', { headers: { 'x-session': mine.session.session } })
  assert.deepEqual([standing.status, standing.body.status], [200, 'confirmed'])
  const manifest = await operator.get(`/departures/alfama-walk/${encodeURIComponent(ALFAMA_TUE_0930)}`)
  assert.equal(manifest.body.manifest.length, 1, 'the operator still sees its departures and bookings')

  const twice = await operator.post('/tours/alfama-walk/archive')
  assert.deepEqual([twice.status, twice.body.changes], [200, []])
  const unarchived = await operator.post('/tours/alfama-walk/unarchive')
  assert.deepEqual([unarchived.status, unarchived.body.tour.archived, unarchived.body.changes[0].action], [200, false, 'tour.unarchived'])
  assert.equal((await guestTour(service, 'alfama-walk')).status, 200)
  assert.equal((await guest.post('/booking', ALFAMA, { headers: session.headers })).status, 200)
  const audit = await catalogAudit(service)
  assert.deepEqual(audit.map((e) => [e.action, e.before, e.after]), [
    ['catalog.tour.archived', { archived: null }, { archived: true }],
    ['catalog.tour.unarchived', { archived: true }, { archived: null }],
  ])
})

test('a promo code added with POST /promo-codes is accepted by the next hold; PATCH changes it; GET lists codes with their uses', async (t) => {
  const service = await build(t)
  const operator = await manager(service)
  const guest = service.client()
  const session = await guest.session()
  const fair = { ...ALFAMA, promo_code: 'fair-2026' }
  assertProblem(await guest.post('/booking', fair, { headers: session.headers }), 422, 'invalid_promo_code')

  const created = await operator.post('/promo-codes', { code: 'FAIR-2026', kind: 'percent', value: 20, valid_from: '2026-05-01', valid_until: '2026-12-31', max_uses: 2 })
  assert.equal(created.status, 201, created.text)
  assert.deepEqual(created.body.promo_code, { code: 'FAIR-2026', kind: 'percent', value: 20, valid_from: '2026-05-01', valid_until: '2026-12-31', max_uses: 2, uses: 0 })
  const held = await guest.post('/booking', fair, { headers: session.headers })
  assert.equal(held.status, 200, held.text)
  assert.deepEqual([held.body.promo_code, held.body.price.discount], ['FAIR-2026', 760])
  assertProblem(await operator.post('/promo-codes', { code: 'FAIR-2026', kind: 'fixed', value: 1, valid_from: '2026-05-01', valid_until: '2026-12-31' }), 409, 'promo_code_exists')
  assert.equal((await guest.post('/checkout', CONTACT, { headers: session.headers })).status, 200)

  const listed = await operator.get('/promo-codes')
  assert.deepEqual(listed.body.promo_codes.map((p: any) => [p.code, p.uses]), [['WELCOME10', 0], ['SAIL5', 0], ['FAIR-2026', 1]])

  const patched = await operator.patch('/promo-codes/fair-2026', { value: 50, max_uses: null, tour_ids: ['tagus-sunset-sail'] })
  assert.equal(patched.status, 200, patched.text)
  assert.deepEqual(patched.body.promo_code, { code: 'FAIR-2026', kind: 'percent', value: 50, valid_from: '2026-05-01', valid_until: '2026-12-31', tour_ids: ['tagus-sunset-sail'], uses: 1 })
  assert.equal((await catalogAudit(service, 'catalog.promo_code.updated'))[0].before.max_uses, 2)
  const other = await guest.session()
  assertProblem(await guest.post('/booking', fair, { headers: other.headers }), 422, 'invalid_promo_code')
  const standing = await guest.get('/booking', { headers: session.headers })
  assert.equal(standing.body.price.discount, 760, 'a booking keeps the discount it was held with')
})

test('GET /settings answers the instance\'s own fields; PATCH changes them (null unsets), and new holds follow at once', async (t) => {
  const service = await build(t)
  const operator = await manager(service)
  const settings = await operator.get('/settings')
  assert.equal(settings.status, 200, settings.text)
  assert.deepEqual(settings.body, {
    name: 'Alfama & Tejo Tours', timezone: 'Europe/Lisbon', currency: 'EUR', languages: ['en', 'pt', 'es'], horizon_days: 365, hold_minutes: 15,
    decoys: ['company', 'fax', 'middle_name', 'nickname', 'website'], allowed_origins: ['https://alfama-tejo.example'], cors_origins: null,
    rate_limits: null, phone_region: 'PT', payment_methods: ['cash', 'card'], request_decision_hours: null,
    email_from: null, operator_emails: null, reminder_hours: null, emails_per_recipient_per_hour: null, newsletter_double_opt_in: null,
  })
  const patched = await operator.patch('/settings', { hold_minutes: 30, phone_region: null, payment_methods: ['card'] })
  assert.equal(patched.status, 200, patched.text)
  assert.deepEqual([patched.body.settings.hold_minutes, patched.body.settings.phone_region, patched.body.settings.payment_methods], [30, null, ['card']])
  assert.deepEqual(patched.body.changes, [{ action: 'settings.updated', target: { type: 'instance', id: 'lx4t7k2m' }, fields: ['hold_minutes', 'phone_region', 'payment_methods'] }])
  assert.equal((await operator.get('/catalog')).body.phone_region, undefined, 'unset, as if the file left it out')
  const { booking } = await holding(service.client(), ALFAMA)
  assert.equal(Date.parse(booking.hold_expires_at) - service.clock.now().epochMilliseconds, 30 * 60_000)
  const [entry] = await catalogAudit(service, 'catalog.settings.updated')
  assert.deepEqual(entry.before, { hold_minutes: 15, phone_region: 'PT', payment_methods: ['cash', 'card'] })
  assert.deepEqual(entry.after, { hold_minutes: 30, phone_region: null, payment_methods: ['card'] })
})
