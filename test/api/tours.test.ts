import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, demoCatalog } from '../helpers/build.ts'
import type { ApiClient } from '../helpers/client.ts'

// Searches run against the bundled Lisbon catalog; the comments say where each word occurs.

async function search(client: ApiClient, q: string): Promise<string[]> {
  const res = await client.get(`/tours?q=${encodeURIComponent(q)}`)
  assert.equal(res.status, 200, res.text)
  assert.equal(res.body.q, q.trim())
  assert.equal(res.body.total, res.body.tours.length)
  return res.body.tours.map((tour: { id: string }) => tour.id)
}

test('GET /tours without q lists every tour in catalog order, with total and q null', async (t) => {
  const service = await build(t)
  const res = await service.client().get('/tours')
  assert.equal(res.status, 200)
  const catalogIds = demoCatalog().instances[0].tours.map((tour: { id: string }) => tour.id)
  assert.deepEqual(res.body.tours.map((tour: { id: string }) => tour.id), catalogIds)
  assert.equal(res.body.total, catalogIds.length)
  assert.equal(res.body.q, null)
})

test('a blank q lists every tour in catalog order, as no q does', async (t) => {
  const service = await build(t)
  const client = service.client()
  const all = await client.get('/tours')
  const blank = await client.get('/tours?q=%20%20')
  assert.equal(blank.status, 200)
  assert.deepEqual(blank.body, all.body)
})

test('each instance lists only its own tours, priced in its own currency', async (t) => {
  const service = await build(t)
  const res = await service.client('nyc').get('/tours')
  const nyc = demoCatalog().instances[1]
  assert.deepEqual(res.body.tours.map((tour: { id: string }) => tour.id), nyc.tours.map((tour: { id: string }) => tour.id))
  for (const tour of res.body.tours) assert.equal(tour.price.currency, 'USD')
})

test('q is case- and accent-insensitive, in the query and in the catalog', async (t) => {
  const service = await build(t)
  const client = service.client()
  // "Belém" is written with an accent in the catalog; "Pastéis" too.
  const belem = await search(client, 'belem')
  assert.ok(belem.includes('belem-bike'))
  for (const q of ['BELEM', 'Belém', 'BELÉM', 'bElÉm', 'Bele\u0301m']) assert.deepEqual(await search(client, q), belem, q)
  for (const q of ['pasteis', 'PASTÉIS', 'Pastéis']) assert.deepEqual(await search(client, q), ['pastel-de-nata-workshop'], q)
})

test('q matches the title, the summary, the tags and the meeting point', async (t) => {
  const service = await build(t)
  const client = service.client()
  assert.deepEqual(await search(client, 'Sintra'), ['sintra-day-trip'], 'title')
  assert.deepEqual(await search(client, 'custard'), ['pastel-de-nata-workshop'], 'summary only')
  assert.deepEqual(await search(client, 'Jerónimos'), ['belem-bike'], 'summary only, accented')
  assert.deepEqual(await search(client, 'nightlife'), ['fado-night'], 'tags only')
  assert.deepEqual(await search(client, 'cycling'), ['belem-bike'], 'tags only')
  assert.deepEqual(await search(client, 'Figueira'), ['pastel-de-nata-workshop'], 'meeting point name and address only')
  assert.deepEqual(await search(client, 'Santo Amaro'), ['tagus-sunset-sail'], 'meeting point, two words')
})

test('matches come in relevance order: a title match outranks a summary match', async (t) => {
  const service = await build(t)
  const client = service.client()
  const catalogOrder = demoCatalog().instances[0].tours.map((tour: { id: string }) => tour.id)
  // alfama-walk comes first in the catalog, but only its summary says "fado".
  assert.ok(catalogOrder.indexOf('alfama-walk') < catalogOrder.indexOf('fado-night'))
  assert.deepEqual(await search(client, 'fado'), ['fado-night', 'alfama-walk'])
  // The sail comes first in the catalog, but only its summary says "Belém".
  assert.ok(catalogOrder.indexOf('tagus-sunset-sail') < catalogOrder.indexOf('belem-bike'))
  assert.deepEqual(await search(client, 'belem'), ['belem-bike', 'tagus-sunset-sail'])
})

test('q with no match answers an empty list with total 0 and the query echoed', async (t) => {
  const service = await build(t)
  const res = await service.client().get('/tours?q=submarine')
  assert.equal(res.status, 200)
  assert.deepEqual(res.body, { tours: [], total: 0, q: 'submarine' })
})

test('search never reaches another instance: a Lisbon word finds nothing in New York', async (t) => {
  const service = await build(t)
  assert.deepEqual(await search(service.client('nyc'), 'alfama'), [])
})

test('GET /tours/{id} answers the full tour record, the same as its list entry', async (t) => {
  const service = await build(t)
  const client = service.client()
  const res = await client.get('/tours/pastel-de-nata-workshop')
  assert.equal(res.status, 200)
  const source = demoCatalog().instances[0].tours.find((tour: { id: string }) => tour.id === 'pastel-de-nata-workshop')
  assert.equal(res.body.id, source.id)
  assert.equal(res.body.title, source.title)
  assert.equal(res.body.description, source.description)
  assert.deepEqual(res.body.meeting_point, source.meeting_point)
  assert.deepEqual(res.body.price, { amount: source.price, currency: 'EUR' })
  assert.deepEqual(res.body.party, source.party)
  assert.equal(res.body.capacity, source.capacity)
  assert.equal(res.body.cutoff_minutes, source.cutoff_minutes)
  assert.equal(res.body.confirmation, source.confirmation)
  assert.deepEqual(res.body.addons.map((a: { id: string, price: unknown }) => [a.id, a.price]),
    source.addons.map((a: { id: string, price: number }) => [a.id, { amount: a.price, currency: 'EUR' }]))
  assert.equal(res.body.policy_id, demoCatalog().instances[0].cancellation_policy.id)
  const list = await client.get('/tours')
  assert.deepEqual(list.body.tours.find((tour: { id: string }) => tour.id === source.id), res.body)
})

test('GET /tours/{id} of an unknown tour is 404 tour_not_found as problem+json', async (t) => {
  const service = await build(t)
  const res = await service.client().get('/tours/no-such-tour')
  assert.equal(res.status, 404)
  assert.equal(res.headers.get('content-type')?.split(';')[0], 'application/problem+json')
  assert.equal(res.body.code, 'tour_not_found')
  assert.equal(typeof res.body.request_id, 'string')
})

test("GET /tours/{id} of another instance's tour is 404 tour_not_found", async (t) => {
  const service = await build(t)
  const res = await service.client('nyc').get('/tours/alfama-walk')
  assert.equal(res.status, 404)
  assert.equal(res.body.code, 'tour_not_found')
})
