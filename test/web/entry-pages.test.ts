import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, demoCatalog } from '../helpers/build.ts'

// The addresses people type first answer a page, not a JSON 404 (issue 25, item 10).

const get = (url: string) => fetch(url, { redirect: 'manual' })

test('with several instances, /, /book/ and /admin/ list each instance\'s page by name', async (t) => {
  const service = await build(t)
  for (const [path, title, links] of [
    ['/', 'Book a tour', ['/book/lisbon/', '/book/nyc/']],
    ['/book/', 'Book a tour', ['/book/lisbon/', '/book/nyc/']],
    ['/book', 'Book a tour', ['/book/lisbon/', '/book/nyc/']],
    ['/admin/', 'Back offices', ['/admin/lisbon/', '/admin/nyc/']],
    ['/admin', 'Back offices', ['/admin/lisbon/', '/admin/nyc/']],
  ] as const) {
    const res = await get(`${service.origin}${path}`)
    assert.equal(res.status, 200, path)
    assert.match(res.headers.get('content-type')!, /^text\/html/)
    assert.match(res.headers.get('content-security-policy')!, /default-src 'none'/)
    const html = await res.text()
    assert.ok(html.includes(`<h1>${title}</h1>`), html)
    assert.deepEqual([...html.matchAll(/href="([^"]+)">([^<]+)</g)].map((m) => [m[1], m[2]]),
      [[links[0], 'Alfama &amp; Tejo Tours'], [links[1], 'Hudson Harbor Walks']], path)
    for (const link of links) assert.equal((await get(`${service.origin}${link}`)).status, 200, `${link} is a page`)
  }
})

test('with one instance, they redirect to its booking page and back office', async (t) => {
  const catalog = demoCatalog()
  catalog.instances = catalog.instances.filter((instance: { prefix: string }) => instance.prefix === 'lisbon')
  const service = await build(t, { catalog })
  for (const [path, to] of [['/', '/book/lisbon/'], ['/book/', '/book/lisbon/'], ['/admin/', '/admin/lisbon/']]) {
    const res = await get(`${service.origin}${path}`)
    assert.equal(res.status, 302, path)
    assert.equal(res.headers.get('location'), to)
  }
})

test('without the operator API (TOURDESK_ADMIN=off) /admin stays a 404 problem; / still leads to the booking pages', async (t) => {
  const service = await build(t, { admin: false })
  const admin = await get(`${service.origin}/admin/`)
  assert.equal(admin.status, 404)
  assert.match(admin.headers.get('content-type')!, /problem\+json/)
  assert.equal((await get(`${service.origin}/`)).status, 200)
})
