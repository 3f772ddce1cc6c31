import assert from 'node:assert/strict'
import { test } from 'node:test'
import { gzipSync } from 'node:zlib'
import { build } from '../helpers/build.ts'

// The back office's page (issue 17) beside the routes that share /admin: the operator API,
// the email action links, and TOURDESK_ADMIN=off.

test('the back office answers every path below an instance; email action links and unknown API paths keep their own answers', async (t) => {
  const service = await build(t)
  for (const path of ['/admin/lisbon', '/admin/lisbon/', '/admin/lisbon/setup', '/admin/lisbon/departures/alfama-walk/2026-06-01T09%3A30%3A00%2B01%3A00']) {
    const res = await fetch(`${service.origin}${path}`)
    assert.equal(res.status, 200, path)
    assert.match(res.headers.get('content-type')!, /^text\/html/, path)
    assert.match(res.headers.get('content-security-policy')!, /script-src 'self'/, path)
  }
  const link = await fetch(`${service.origin}/admin/lisbon/email-actions/${'x'.repeat(40)}`)
  assert.equal(link.status, 404)
  assert.match(await link.text(), /This link does not work/)
  const api = await fetch(`${service.origin}/admin/api/lisbon/nothing-here`)
  assert.equal(api.status, 404)
  assert.match(api.headers.get('content-type')!, /problem\+json/)
  assert.equal((await fetch(`${service.origin}/admin/nowhere/`)).status, 404)
  assert.equal((await fetch(`${service.origin}/admin/_assets/back-office-NOPE.js`)).status, 404)
})

test('TOURDESK_ADMIN=off: no back office either', async (t) => {
  const service = await build(t, { admin: false })
  assert.equal((await fetch(`${service.origin}/admin/lisbon/`)).status, 404)
  assert.equal((await fetch(`${service.origin}/admin/lisbon/requests`)).status, 404)
})

test('the first load, the page with its script and style, stays under 150 KB compressed and names nothing from another origin', async (t) => {
  const service = await build(t)
  const page = await (await fetch(`${service.origin}/admin/lisbon/`)).text()
  // The icon is an empty data: URL, fetched from nowhere.
  const assets = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]).filter((a) => !a.startsWith('data:'))
  assert.ok(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css')), assets.join(', '))
  assert.ok(assets.every((a) => a.startsWith('/admin/_assets/')), `every asset from this origin: ${assets.join(', ')}`)
  let bytes = gzipSync(page).length
  for (const asset of assets) bytes += gzipSync(Buffer.from(await (await fetch(`${service.origin}${asset}`)).arrayBuffer())).length
  assert.ok(bytes < 150_000, `the first load is ${bytes} bytes compressed`)
})
