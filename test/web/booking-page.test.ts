import assert from 'node:assert/strict'
import { test } from 'node:test'
import { codesOfSurface, ERROR_CODES } from '../../src/errors/codes.ts'
import { ApiProblem } from '../../web/src/api.ts'
import { Formats } from '../../web/src/format.ts'
import { explain } from '../../web/src/problems.ts'
import { PAGE_LANGUAGES } from '../../web/src/page-language.ts'
import { en } from '../../web/src/words/en.ts'
import { PAGE_CATALOGUES } from '../helpers/page-words.ts'
import { build, demoCatalog } from '../helpers/build.ts'

const PAGE_BUDGET_BYTES = 100 * 1024

function assetPaths(html: string): string[] {
  return [...html.matchAll(/(?:src|href)="(\/book\/_assets\/[^"]+)"/g)].map((m) => m[1])
}

test('the booking page is served per instance with its own CSP, no inline code, and assets under 100 KB', async (t) => {
  const service = await build(t)
  const response = await fetch(`${service.origin}/book/lisbon/`)
  assert.equal(response.status, 200)
  assert.match(response.headers.get('content-type')!, /^text\/html; charset=utf-8/)
  assert.equal(response.headers.get('content-security-policy'),
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'self' https://alfama-tejo.example")
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff')
  const html = await response.text()
  assert.match(html, /data-api="\/api\/lisbon"/)
  assert.match(html, /data-timezone="Europe\/Lisbon"/)
  assert.match(html, /<title>Book a tour · Alfama &amp; Tejo Tours<\/title>/)
  assert.doesNotMatch(html, /<style|style=|<script(?![^>]*\ssrc=)|\son[a-z]+=/i, 'no inline script, style or handler')

  const assets = assetPaths(html)
  assert.equal(assets.length, 2)
  let total = 0
  for (const path of assets) {
    const asset = await fetch(service.origin + path)
    assert.equal(asset.status, 200)
    assert.match(asset.headers.get('content-type')!, path.endsWith('.js') ? /^text\/javascript/ : /^text\/css/)
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable')
    total += (await asset.arrayBuffer()).byteLength
  }
  assert.ok(total < PAGE_BUDGET_BYTES, `the page's script and style are ${total} bytes`)

  // The same path without the slash, and a deep link to one tour, answer the same page.
  assert.equal((await fetch(`${service.origin}/book/lisbon`)).status, 200)
  assert.equal((await fetch(`${service.origin}/book/nyc/?tour=brooklyn-bridge-dumbo`)).status, 200)
})

test('the JSON API keeps its own policy next to the page', async (t) => {
  const service = await build(t)
  const api = await fetch(`${service.origin}/api/lisbon/tours`)
  assert.equal(api.headers.get('content-security-policy'), "default-src 'none'; frame-ancestors 'none'")
  const missing = await fetch(`${service.origin}/book/nowhere/`)
  assert.equal(missing.status, 404)
  assert.equal((await missing.json() as { code: string }).code, 'not_found')
  assert.equal(missing.headers.get('content-security-policy'), "default-src 'none'; frame-ancestors 'none'")
  assert.equal((await fetch(`${service.origin}/book/_assets/booking-page-NOPE.js`)).status, 404)
  assert.equal((await fetch(`${service.origin}/book/lisbon/`, { method: 'POST' })).status, 405)
})

test("the page may be framed by the instance's own origins only; values that are not origins are left out", async (t) => {
  const catalog = demoCatalog()
  catalog.instances[1].cors_origins = ['https://harbor.example', 'https://harbor.example/path', "https://evil.example; script-src *", 'not a url']
  const service = await build(t, { catalog })
  const policy = (await fetch(`${service.origin}/book/nyc/`)).headers.get('content-security-policy')!
  assert.match(policy, /frame-ancestors 'self' https:\/\/harbor\.example$/)
})

test('every error code the guest API can answer has its own sentence on the page, in each of its languages', () => {
  for (const language of PAGE_LANGUAGES) {
    const formats = new Formats(language, 'Europe/Lisbon', 'EUR', PAGE_CATALOGUES[language])
    const fallback = explain(formats, new ApiProblem('internal', 500)).text
    for (const code of codesOfSurface('guest')) {
      const { text, place } = explain(formats, new ApiProblem(code, ERROR_CODES[code].status, [], { remaining: 2, min: 1, max: 8, retry_after: 5 }))
      assert.ok(text.length > 20 && !text.includes('_'), `${language} ${code}: "${text}"`)
      if (code !== 'internal') assert.notEqual(text, fallback, `${language}: ${code} falls back to the generic sentence`)
      assert.ok(place, code)
    }
  }
  const formats = new Formats('en', 'Europe/Lisbon', 'EUR', en)
  assert.equal(explain(formats, new ApiProblem('party_out_of_range', 422, [], { min: 2, max: 8 })).text, 'This tour takes groups of 2 to 8 people.')
  assert.deepEqual(explain(formats, new ApiProblem('validation_failed', 400, [{ field: 'email', message: 'must match format "email"' }])).place, 'email')
  assert.deepEqual(explain(formats, new ApiProblem('invalid_addon', 422, [{ field: 'addons.front-table', message: 'must be at most 1' }])).place, 'addons.front-table')
  assert.match(explain(formats, new ApiProblem('insufficient_capacity', 409, [], { remaining: 0 })).text, /sold out/)
})
