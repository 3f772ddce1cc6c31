import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { CatalogInstance } from '../../src/schemas/catalog.ts'
import { build, demoCatalog, type TestService } from '../helpers/build.ts'
import type { ApiClient } from '../helpers/client.ts'
import { testDialect } from '../helpers/database.ts'

// GET /tours with limit and cursor answers one page; without them, the whole list as before.

const LISBON = 'lx4t7k2m'
const ACTOR = { type: 'system' as const, id: null, name: 'tour pages test' }
const ids = (list: { tours: Array<{ id: string }> }) => list.tours.map((tour) => tour.id)
const demoIds = (): string[] => demoCatalog().instances[0].tours.map((tour: { id: string }) => tour.id)

/** Every page from `first`, following next_cursor; answers the pages. */
async function allPages(client: ApiClient, first: string): Promise<any[]> {
  const pages = [(await client.get(first)).body]
  while (pages[pages.length - 1].next_cursor !== null) {
    assert.ok(pages.length < 100, 'the pages end')
    const params = new URLSearchParams(first.split('?')[1])
    params.set('cursor', pages[pages.length - 1].next_cursor)
    const res = await client.get(`/tours?${params}`)
    assert.equal(res.status, 200, res.text)
    pages.push(res.body)
  }
  return pages
}

async function edit(service: TestService, change: (catalog: CatalogInstance) => void): Promise<void> {
  await service.context.catalogEditor.apply(LISBON, (catalog) => {
    change(catalog!)
    return catalog!
  }, { actor: ACTOR, now: service.clock.now() })
}

test(`without limit and cursor GET /tours answers the whole list in the contract's shape, with no next_cursor (${testDialect})`, async (t) => {
  const service = await build(t)
  const res = await service.client().get('/tours')
  assert.equal(res.status, 200)
  assert.deepEqual(Object.keys(res.body), ['tours', 'total', 'q'])
  assert.deepEqual(ids(res.body), demoIds())
  assert.equal(res.body.total, demoIds().length)
})

test(`limit answers pages in catalog order whose cursors lead through the whole list exactly once (${testDialect})`, async (t) => {
  const service = await build(t)
  const pages = await allPages(service.client(), '/tours?limit=3')
  assert.deepEqual(pages.map((page) => page.tours.length), [3, 3, 1])
  assert.deepEqual(pages.flatMap(ids), demoIds())
  for (const page of pages) {
    assert.equal(page.total, demoIds().length, 'total counts the whole list on every page')
    assert.equal(page.q, null)
  }
  assert.equal(typeof pages[0].next_cursor, 'string')
  assert.equal(pages[2].next_cursor, null, 'the last page has next_cursor null')
})

test(`a limit covering the whole list answers one page with next_cursor null (${testDialect})`, async (t) => {
  const service = await build(t)
  const res = await service.client().get('/tours?limit=200')
  assert.equal(res.status, 200)
  assert.deepEqual(ids(res.body), demoIds())
  assert.equal(res.body.next_cursor, null)
})

test(`a cursor without limit answers a page of up to 50 tours (${testDialect})`, async (t) => {
  const service = await build(t)
  const client = service.client()
  const first = (await client.get('/tours?limit=1')).body
  const rest = await client.get(`/tours?cursor=${first.next_cursor}`)
  assert.equal(rest.status, 200)
  assert.deepEqual(ids(rest.body), demoIds().slice(1))
  assert.equal(rest.body.next_cursor, null)
})

test(`pages of a search follow relevance order, and a cursor is refused with another q (${testDialect})`, async (t) => {
  const service = await build(t)
  const client = service.client()
  const whole = (await client.get('/tours?q=belem')).body
  assert.deepEqual(ids(whole), ['belem-bike', 'tagus-sunset-sail'])
  const pages = await allPages(client, '/tours?q=belem&limit=1')
  assert.deepEqual(pages.flatMap(ids), ids(whole))
  assert.ok(pages.every((page) => page.q === 'belem' && page.total === 2))

  const other = await client.get(`/tours?q=fado&cursor=${pages[0].next_cursor}`)
  assert.equal(other.status, 400)
  assert.equal(other.body.code, 'validation_failed')
  assert.deepEqual(other.body.errors.map((e: { field: string }) => e.field), ['cursor'])
  const none = await client.get(`/tours?cursor=${pages[0].next_cursor}`)
  assert.equal(none.status, 400, 'a search cursor is refused for the whole list too')
})

test(`a cursor the list did not give, or a limit out of range, is 400 validation_failed naming the parameter (${testDialect})`, async (t) => {
  const service = await build(t)
  const client = service.client()
  const cases: Array<[string, string]> = [
    ['/tours?cursor=not-a-cursor', 'cursor'],
    [`/tours?cursor=${Buffer.from('["","alfama-walk",-1]').toString('base64url')}`, 'cursor'],
    [`/tours?cursor=${Buffer.from('["",7,3]').toString('base64url')}`, 'cursor'],
    [`/tours?cursor=${Buffer.from('["","alfama-walk",0.5]').toString('base64url')}`, 'cursor'],
    [`/tours?cursor=${Buffer.from('{"q":""}').toString('base64url')}`, 'cursor'],
    [`/tours?cursor=${'a'.repeat(401)}`, 'cursor'],
    ['/tours?limit=0', 'limit'],
    ['/tours?limit=201', 'limit'],
    ['/tours?limit=abc', 'limit'],
    ['/tours?limit=1.5', 'limit'],
    ['/tours?limit=', 'limit'],
  ]
  for (const [path, field] of cases) {
    const res = await client.get(path)
    assert.equal(res.status, 400, path)
    assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/)
    assert.equal(res.body.code, 'validation_failed', path)
    assert.deepEqual(res.body.errors.map((e: { field: string }) => e.field), [field], path)
  }
})

test(`paging while the catalog changes neither skips nor repeats a tour that stays listed (${testDialect})`, async (t) => {
  const service = await build(t)
  const client = service.client()
  const first = (await client.get('/tours?limit=3')).body
  assert.deepEqual(ids(first), demoIds().slice(0, 3))

  // Two tours added at the front and one of the first page taken off move every position.
  await edit(service, (catalog) => {
    const copy = (id: string) => ({ ...structuredClone(catalog.tours[6]), id, title: `Lisbon copy ${id}` })
    catalog.tours = [copy('lisbon-by-night'), copy('lisbon-by-day'), ...catalog.tours.filter((tour) => tour.id !== demoIds()[0])]
  })
  const second = (await client.get(`/tours?limit=3&cursor=${first.next_cursor}`)).body
  assert.deepEqual(ids(second), demoIds().slice(3, 6), 'the next page continues after the last tour of the one before')

  // The tour the cursor names leaves the list: the page starts at the position it had.
  await edit(service, (catalog) => { catalog.tours = catalog.tours.filter((tour) => tour.id !== demoIds()[5]) })
  const third = (await client.get(`/tours?limit=3&cursor=${second.next_cursor}`)).body
  assert.equal(third.total, 7)
  assert.deepEqual(ids(third), [demoIds()[6]])
  assert.equal(third.next_cursor, null)
})

test(`a list too large to keep whole is streamed, and says what its pages say (${testDialect})`, { timeout: 120_000 }, async (t) => {
  const catalog = demoCatalog()
  const lisbon = catalog.instances[0]
  const model = lisbon.tours[0]
  lisbon.promo_codes = []
  lisbon.tours = Array.from({ length: 700 }, (_, i) => ({ ...model, id: `walk-${String(i).padStart(3, '0')}`, title: `${model.title} ${i}` }))
  const service = await build(t, { catalog })
  const client = service.client()

  const answer = await fetch(`${client.base}/tours`)
  const text = await answer.text()
  assert.equal(answer.status, 200)
  assert.ok(text.length > 1024 * 1024, `the list is over a megabyte (${text.length} characters)`)
  assert.equal(answer.headers.get('content-length'), null, 'sent as a stream, not made whole')
  assert.equal(answer.headers.get('content-type'), 'application/json; charset=utf-8')
  const whole = JSON.parse(text)
  assert.equal(text, JSON.stringify(whole), 'compact JSON, as the schema serializes it')
  assert.deepEqual(Object.keys(whole), ['tours', 'total', 'q'])
  assert.equal(whole.total, 700)

  const pages = await allPages(client, '/tours?limit=200')
  assert.deepEqual(pages.map((page) => page.tours.length), [200, 200, 200, 100])
  assert.deepEqual(whole.tours, pages.flatMap((page) => page.tours))
  // Checked against openapi.json like every answer of the client.
  assert.equal((await client.get('/tours')).body.tours.length, 700)
  const head = await fetch(`${client.base}/tours`, { method: 'HEAD' })
  assert.equal(head.status, 200)
  assert.equal(await head.text(), '')
  // A reader that goes away half-way leaves nothing behind: the next reader gets the whole list.
  const abandoned = new AbortController()
  const reader = (await fetch(`${client.base}/tours`, { signal: abandoned.signal })).body!.getReader()
  await reader.read()
  abandoned.abort()
  assert.equal((await client.get('/tours')).text, text)
})
