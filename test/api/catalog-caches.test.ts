import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { CatalogInstance } from '../../src/schemas/catalog.ts'
import { catalogEditor, type CatalogEdit } from '../../src/catalog/catalog-editor.ts'
import { build, type TestService } from '../helpers/build.ts'
import type { ApiClient } from '../helpers/client.ts'
import { testDialect } from '../helpers/database.ts'

// Every answer built from the catalog is kept per catalog version (the tour list and its
// searches, the availability answers, the schedule expansion) or made per request (a tour,
// the booking page). These read each answer twice, so that the second comes from what was
// kept, edit the catalog, and read again.

const LISBON = 'lx4t7k2m'
const TOUR = 'alfama-walk'
const AVAILABILITY = `/availability?tour=${TOUR}&date=2026-06-02&days=2&party=2`
const ACTOR = { type: 'system' as const, id: null, name: 'catalog caches test' }

function tourOf(catalog: CatalogInstance) {
  return catalog.tours.find((tour) => tour.id === TOUR)!
}

async function edit(service: TestService, change: (catalog: CatalogInstance) => void): Promise<void> {
  const result = await service.context.catalogEditor.apply(LISBON, (catalog) => {
    change(catalog!)
    return catalog!
  }, { actor: ACTOR, now: service.clock.now() })
  assert.ok(result.changes.length > 0, 'the edit changed the catalog')
}

/** GET twice (the second answer comes from what was kept), checked against openapi.json; answers the body. */
async function readTwice(client: ApiClient, path: string): Promise<any> {
  const first = await client.get(path)
  assert.equal(first.status, 200, first.text)
  const second = await client.get(path)
  assert.equal(second.text, first.text, `a repeated GET ${path} answers the same`)
  assert.equal(first.headers.get('etag'), null, `GET ${path} has no ETag: no conditional request can be answered 304 with an old body`)
  return first.body
}

async function bookingPage(service: TestService): Promise<string> {
  const answer = await fetch(`${service.origin}/book/lisbon/`)
  assert.equal(answer.status, 200)
  return answer.text()
}

const listed = (list: any) => list.tours.find((tour: { id: string }) => tour.id === TOUR)
const times = (availability: any) => availability.slots.map((slot: { date: string, time: string }) => `${slot.date} ${slot.time}`)

test(`a price edit shows at once in the tour list, a search, the tour and a page of the list (${testDialect})`, async (t) => {
  const service = await build(t)
  const client = service.client()
  const paths = ['/tours', '/tours?q=alfama', `/tours/${TOUR}`, '/tours?limit=2']
  for (const path of paths) await readTwice(client, path)

  await edit(service, (catalog) => { tourOf(catalog).price = 2350 })

  assert.equal(listed(await readTwice(client, '/tours')).price.amount, 2350)
  assert.equal(listed(await readTwice(client, '/tours?q=alfama')).price.amount, 2350)
  assert.equal((await readTwice(client, `/tours/${TOUR}`)).price.amount, 2350)
  assert.equal(listed(await readTwice(client, '/tours?limit=2')).price.amount, 2350)
})

test(`a title edit shows at once in the list, the tour and the search index (${testDialect})`, async (t) => {
  const service = await build(t)
  const client = service.client()
  assert.equal((await readTwice(client, '/tours?q=lighthouse')).total, 0)
  await readTwice(client, '/tours')

  await edit(service, (catalog) => { tourOf(catalog).title = 'Alfama by the Lighthouse Keeper' })

  assert.equal(listed(await readTwice(client, '/tours')).title, 'Alfama by the Lighthouse Keeper')
  assert.equal((await readTwice(client, `/tours/${TOUR}`)).title, 'Alfama by the Lighthouse Keeper')
  assert.deepEqual((await readTwice(client, '/tours?q=lighthouse')).tours.map((tour: { id: string }) => tour.id), [TOUR])
})

test(`a capacity edit shows at once in availability and the tour (${testDialect})`, async (t) => {
  const service = await build(t)
  const client = service.client()
  const before = await readTwice(client, AVAILABILITY)
  assert.ok(before.slots.every((slot: { capacity: number }) => slot.capacity === 16))

  await edit(service, (catalog) => { tourOf(catalog).capacity = 12 })

  const after = await readTwice(client, AVAILABILITY)
  assert.deepEqual(times(after), times(before))
  assert.ok(after.slots.every((slot: { capacity: number, remaining: number }) => slot.capacity === 12 && slot.remaining === 12), JSON.stringify(after.slots))
  assert.equal((await readTwice(client, `/tours/${TOUR}`)).capacity, 12)
})

test(`a schedule edit shows at once in availability (${testDialect})`, async (t) => {
  const service = await build(t)
  const client = service.client()
  assert.deepEqual(times(await readTwice(client, AVAILABILITY)),
    ['2026-06-02 09:30', '2026-06-02 14:00', '2026-06-02 17:30', '2026-06-03 09:30', '2026-06-03 14:00', '2026-06-03 17:30'])

  await edit(service, (catalog) => { tourOf(catalog).schedule[0].times = ['10:15', '18:45'] })
  assert.deepEqual(times(await readTwice(client, AVAILABILITY)), ['2026-06-02 10:15', '2026-06-02 18:45', '2026-06-03 10:15', '2026-06-03 18:45'])

  await edit(service, (catalog) => { tourOf(catalog).blackouts.push('2026-06-03') })
  assert.deepEqual(times(await readTwice(client, AVAILABILITY)), ['2026-06-02 10:15', '2026-06-02 18:45'])
})

test(`an edit of the instance's name shows at once on the booking page and in the index (${testDialect})`, async (t) => {
  const service = await build(t)
  const client = service.client()
  assert.match(await bookingPage(service), /Book a tour with Alfama &amp; Tejo Tours/)

  await edit(service, (catalog) => { catalog.name = 'Tejo & Alfama Walks' })

  const page = await bookingPage(service)
  assert.match(page, /Book a tour with Tejo &amp; Alfama Walks/)
  assert.doesNotMatch(page, /Alfama &amp; Tejo Tours/)
  assert.equal((await client.get('/')).body.name, 'Tejo & Alfama Walks')
})

test(`an answer read while a node still serves the old catalog version is not reused once it loads the new one (${testDialect})`, async (t) => {
  const service = await build(t)
  // This node reloads its catalog when the test says so, not on its own timer.
  service.context.catalogs.close()
  const client = service.client()
  await readTwice(client, AVAILABILITY)
  await readTwice(client, '/tours')

  // As another node would: the edit commits (moving the store's change token), and this node
  // has not yet loaded the new version. Reads then may answer from the old version...
  const otherNode = catalogEditor(service.context.store)
  const change: CatalogEdit = (catalog) => {
    tourOf(catalog!).capacity = 10
    tourOf(catalog!).price = 2500
    return catalog!
  }
  await otherNode.apply(LISBON, change, { actor: ACTOR, now: service.clock.now() })
  assert.equal(listed(await readTwice(client, '/tours')).price.amount, 1900)
  await readTwice(client, AVAILABILITY)

  // ...but once the node has the new version, nothing read from the old one is reused, even
  // though no commit has moved the change token since.
  await service.context.catalogs.refresh()
  assert.equal(listed(await readTwice(client, '/tours')).price.amount, 2500)
  const availability = await readTwice(client, AVAILABILITY)
  assert.ok(availability.slots.every((slot: { capacity: number }) => slot.capacity === 10), JSON.stringify(availability.slots))
})

test(`If-None-Match is never answered 304 with an old tour list (${testDialect})`, async (t) => {
  const service = await build(t)
  const client = service.client()
  await readTwice(client, '/tours')
  await edit(service, (catalog) => { tourOf(catalog).price = 2100 })
  const conditional = await client.get('/tours', { headers: { 'if-none-match': '*' } })
  assert.equal(conditional.status, 200)
  assert.equal(listed(conditional.body).price.amount, 2100)
})
