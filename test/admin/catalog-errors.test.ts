import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Role } from '../../src/domain/roles.ts'
import { build } from '../helpers/build.ts'
import { apiKeyClient, OperatorClient, signedInStaff } from '../helpers/operator.ts'
import { assertProblem, catalogAudit, catalogVersion, guestTour, manager } from './catalog-fixtures.ts'

/** One request to every catalog route, each with a body that would be accepted. */
const CATALOG_ROUTES: Array<[string, string, unknown?]> = [
  ['GET', '/catalog'],
  ['PUT', '/catalog', 'catalog'],
  ['GET', '/tours'],
  ['POST', '/tours', 'new-tour'],
  ['GET', '/tours/alfama-walk'],
  ['PUT', '/tours/alfama-walk', 'tour'],
  ['PATCH', '/tours/alfama-walk', { price: 2000 }],
  ['POST', '/tours/alfama-walk/archive'],
  ['POST', '/tours/alfama-walk/unarchive'],
  ['GET', '/promo-codes'],
  ['POST', '/promo-codes', { code: 'NEW-1', kind: 'fixed', value: 100, valid_from: '2026-01-01', valid_until: '2026-12-31' }],
  ['PATCH', '/promo-codes/WELCOME10', { value: 12 }],
  ['GET', '/policy'],
  ['PUT', '/policy', { summary: 'Free cancellation', tiers: [{ hours_before_start: 0, fee_percent: 0 }], no_show_fee_percent: 0 }],
  ['GET', '/settings'],
  ['PATCH', '/settings', { name: 'Renamed' }],
]

test('the catalog routes refuse what the schema refuses with 400 validation_failed naming the field, and change nothing', async (t) => {
  const service = await build(t)
  const operator = await manager(service)
  const catalog = (await operator.get('/catalog')).body
  const tour = (await operator.get('/tours/alfama-walk')).body
  const { title: _title, ...untitled } = tour
  const version = await catalogVersion(service)
  const cases: Array<[string, string, unknown, string]> = [
    ['PATCH', '/tours/alfama-walk', { price: -1 }, 'price'],
    ['PATCH', '/tours/alfama-walk', { capcity: 3 }, 'capcity'],
    ['PATCH', '/tours/alfama-walk', { price: '19.00' }, 'price'],
    ['PATCH', '/tours/alfama-walk', { party: { min: 2 } }, 'party.max'],
    ['PUT', '/tours/alfama-walk', untitled, 'title'],
    ['POST', '/tours', { ...tour, id: 'new-walk', schedule: [{ ...tour.schedule[0], times: ['9:30'] }] }, 'schedule.0.times.0'],
    ['PUT', '/catalog', { ...catalog, tours: [{ ...catalog.tours[0], capcity: 3 }] }, 'tours.0.capcity'],
    ['PUT', '/catalog', { ...catalog, currency: 'euro' }, 'currency'],
    ['PATCH', '/settings', { hold_minutes: 0 }, 'hold_minutes'],
    ['PATCH', '/settings', { prefix: 'elsewhere' }, 'prefix'],
    ['PATCH', '/settings', { name: null }, 'name'],
    ['PUT', '/policy', { summary: 'x', tiers: [{ hours_before_start: 0, fee_percent: 120 }], no_show_fee_percent: 0 }, 'tiers.0.fee_percent'],
    ['PUT', '/policy', { summary: 'x', tiers: [{ hours_before_start: 0, fee_percent: 0 }], no_show_fee_percent: 0, version: 9 }, 'version'],
    ['PATCH', '/promo-codes/WELCOME10', { code: 'OTHER' }, 'code'],
    ['POST', '/promo-codes', { code: 'lower', kind: 'fixed', value: 1, valid_from: '2026-01-01', valid_until: '2026-12-31' }, 'code'],
    ['PUT', '/catalog?dry_run=yes', catalog, 'dry_run'],
  ]
  for (const [method, path, body, field] of cases) {
    const res = await operator.request(method, path, body)
    assert.equal(res.status, 400, `${method} ${path} ${JSON.stringify(body).slice(0, 80)}: ${res.text}`)
    assert.equal(res.body.code, 'validation_failed')
    assert.ok(res.body.errors.some((e: { field: string }) => e.field === field), `${method} ${path}: expected ${field} in ${JSON.stringify(res.body.errors)}`)
  }
  for (const [method, path] of [['PATCH', '/tours/alfama-walk'], ['PATCH', '/settings'], ['PATCH', '/promo-codes/WELCOME10']]) {
    assertProblem(await operator.request(method, path, {}), 400, 'validation_failed')
  }
  assert.equal(await catalogVersion(service), version)
  assert.deepEqual(await catalogAudit(service), [])
})

test('a well-formed edit that breaks a catalog rule is 422 catalog_invalid naming each field (relative to the tour, code or policy edited) and changes nothing', async (t) => {
  const service = await build(t)
  const operator = await manager(service)
  const catalog = (await operator.get('/catalog')).body
  const tour = (await operator.get('/tours/alfama-walk')).body
  const version = await catalogVersion(service)
  const cases: Array<[string, string, unknown, string[]]> = [
    ['PATCH', '/tours/alfama-walk', { capacity: 4 }, ['party.max']],
    ['PATCH', '/tours/alfama-walk', { party: { min: 5, max: 3 } }, ['party.min']],
    ['PUT', '/tours/alfama-walk', { ...tour, schedule: [{ ...tour.schedule[0], from: '2027-01-01', until: '2026-01-01' }] }, ['schedule[0].from']],
    ['PUT', '/tours/alfama-walk', { ...tour, id: 'another-id' }, ['id']],
    ['PATCH', '/tours/alfama-walk', { addons: [tour.addons[0], tour.addons[0]] }, ['addons[1].id']],
    ['POST', '/tours', { ...tour, id: 'new-walk', party: { min: 1, max: 40 }, capacity: 20 }, ['party.max']],
    ['POST', '/promo-codes', { code: 'NEW-1', kind: 'percent', value: 10, valid_from: '2026-01-01', valid_until: '2026-12-31', tour_ids: ['nowhere'] }, ['tour_ids']],
    ['POST', '/promo-codes', { code: 'NEW-2', kind: 'percent', value: 150, valid_from: '2026-01-01', valid_until: '2026-12-31' }, ['value']],
    ['PATCH', '/promo-codes/welcome10', { valid_from: '2028-01-01' }, ['valid_from']],
    ['PATCH', '/settings', { timezone: 'Mars/Olympus_Mons' }, ['timezone']],
    ['PATCH', '/settings', { decoys: ['nope'] }, ['decoys']],
    ['PUT', '/catalog', { ...catalog, prefix: 'elsewhere' }, ['prefix']],
    ['PUT', '/catalog', { ...catalog, ref: 'zz9zz9zz' }, ['ref']],
    ['PUT', '/catalog', { ...catalog, promo_codes: [{ ...catalog.promo_codes[0], tour_ids: ['nowhere'] }] }, ['promo_codes[0].tour_ids']],
    ['PUT', '/catalog', { ...catalog, tours: catalog.tours.map((t: any) => ({ ...t, archived: true })) }, ['tours']],
  ]
  for (const [method, path, body, fields] of cases) {
    const res = await operator.request(method, path, body)
    assert.equal(res.status, 422, `${method} ${path} ${JSON.stringify(body).slice(0, 80)}: ${res.text}`)
    assert.equal(res.body.code, 'catalog_invalid')
    assert.deepEqual(res.body.errors.map((e: { field: string }) => e.field), fields, `${method} ${path}: ${res.text}`)
  }
  for (const id of catalog.tours.slice(1).map((t: any) => t.id)) assert.equal((await operator.post(`/tours/${id}/archive`)).status, 200)
  assertProblem(await operator.post('/tours/alfama-walk/archive'), 422, 'catalog_invalid', ['tours'])
  assert.equal((await guestTour(service, 'alfama-walk')).status, 200, 'the last tour guests see stays')
  assert.equal(await catalogVersion(service), version + catalog.tours.length - 1, 'only the archives changed anything')
})

test('the catalog routes answer 404 for a tour or promo code the catalog lacks', async (t) => {
  const service = await build(t)
  const operator = await manager(service)
  assertProblem(await operator.get('/tours/nowhere'), 404, 'tour_not_found')
  assertProblem(await operator.put('/tours/nowhere', (await operator.get('/tours/alfama-walk')).body), 404, 'tour_not_found')
  assertProblem(await operator.patch('/tours/nowhere', { price: 1 }), 404, 'tour_not_found')
  assertProblem(await operator.post('/tours/nowhere/archive'), 404, 'tour_not_found')
  assertProblem(await operator.post('/tours/nowhere/unarchive'), 404, 'tour_not_found')
  assertProblem(await operator.patch('/promo-codes/NOPE', { value: 5 }), 404, 'not_found')
})

test('Idempotency-Key on a catalog POST: the same body replays, another body is 422 idempotency_key_reused; a refusal is replayed too', async (t) => {
  const service = await build(t)
  const operator = await manager(service)
  const promo = { code: 'FAIR-2026', kind: 'fixed', value: 300, valid_from: '2026-05-01', valid_until: '2026-12-31' }
  const first = await operator.post('/promo-codes', promo, { 'idempotency-key': 'fair' })
  assert.equal(first.status, 201, first.text)
  const again = await operator.post('/promo-codes', promo, { 'idempotency-key': 'fair' })
  assert.deepEqual([again.status, again.headers.get('idempotent-replayed'), again.body], [201, 'true', first.body])
  assertProblem(await operator.post('/promo-codes', { ...promo, value: 400 }, { 'idempotency-key': 'fair' }), 422, 'idempotency_key_reused')
  assert.equal((await catalogAudit(service, 'catalog.promo_code.created')).length, 1)

  const refused = await operator.post('/tours/nowhere/archive', undefined, { 'idempotency-key': 'nowhere' })
  assertProblem(refused, 404, 'tour_not_found')
  const replayed = await operator.post('/tours/nowhere/archive', undefined, { 'idempotency-key': 'nowhere' })
  assert.deepEqual([replayed.status, replayed.headers.get('idempotent-replayed')], [404, 'true'])
})

test('only managers reach the catalog: guide, viewer and staff get 403, no credential 401, a guest session never authenticates; staff sessions need CSRF', async (t) => {
  const service = await build(t)
  const operator = await manager(service)
  const { archived: _archived, ...tour } = (await operator.get('/tours/alfama-walk')).body
  const bodies: Record<string, unknown> = { catalog: (await operator.get('/catalog')).body, tour, 'new-tour': { ...tour, id: 'new-walk' } }
  const bodyOf = (body: unknown) => (typeof body === 'string' ? bodies[body] : body)
  const version = await catalogVersion(service)
  const clients = new Map<string, OperatorClient>([['no credential', new OperatorClient(service.origin, 'lisbon')]])
  for (const role of ['guide', 'viewer', 'staff'] as Role[]) clients.set(role, (await apiKeyClient(service, role)).client)
  clients.set('manager of nyc', new OperatorClient(service.origin, 'lisbon', { bearer: (await apiKeyClient(service, 'manager', 'nyc')).secret }))
  const guest = service.client()
  const { session } = (await guest.post('/session')).body

  for (const [method, path, body] of CATALOG_ROUTES) {
    for (const [who, client] of clients) {
      const res = await client.request(method, path, bodyOf(body))
      const expected = who === 'no credential' || who === 'manager of nyc' ? [401, 'unauthenticated'] : [403, 'forbidden']
      assert.deepEqual([res.status, res.body.code], expected, `${who} ${method} ${path}: ${res.text.slice(0, 200)}`)
    }
    const asGuest = await new OperatorClient(service.origin, 'lisbon').request(method, path, bodyOf(body), { 'x-session': session, cookie: `sid=${session}` })
    assert.deepEqual([asGuest.status, asGuest.body.code], [401, 'unauthenticated'], `guest session ${method} ${path}`)
    assert.equal(asGuest.headers.get('www-authenticate'), 'Bearer realm="tourdesk"')
  }
  assert.equal(await catalogVersion(service), version, 'nobody but a manager changed anything')

  const { client: staffManager } = await signedInStaff(service, 'manager')
  assertProblem(await staffManager.patch('/tours/alfama-walk', { price: 2000 }, { 'x-csrf-token': '' }), 403, 'csrf_missing')
  assertProblem(await staffManager.patch('/tours/alfama-walk', { price: 2000 }, { origin: 'https://evil.example' }), 403, 'origin_not_allowed')
  assert.equal((await guestTour(service, 'alfama-walk')).price, 1900)
  const res = await staffManager.patch('/tours/alfama-walk', { price: 2000 })
  assert.equal(res.status, 200, res.text)
  const [entry] = await catalogAudit(service, 'catalog.tour.updated')
  assert.deepEqual([entry.actor_type, entry.actor_name], ['staff', 'A manager'])
})

test("a manager of one instance edits only that instance's catalog", async (t) => {
  const service = await build(t)
  const nyc = (await apiKeyClient(service, 'manager', 'nyc')).client
  const res = await nyc.patch('/tours/brooklyn-bridge-dumbo', { price: 4200 })
  assert.equal(res.status, 200, res.text)
  assert.equal((await service.client('nyc').get('/tours/brooklyn-bridge-dumbo')).body.price.amount, 4200)
  assertProblem(await nyc.patch('/tours/alfama-walk', { price: 1 }), 404, 'tour_not_found')
  assert.equal((await guestTour(service, 'alfama-walk')).price, 1900)
  assert.equal(await catalogVersion(service, 'lx4t7k2m'), 1)
})
