import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sql } from 'kysely'
import { build } from '../helpers/build.ts'
import { assertNoLeak, assertProblem, raw, type RawResponse } from '../security/raw-http.ts'

// Routing errors over node:http, which sends any method (fetch refuses TRACE) and any path
// byte for byte. Answers on instance paths are also checked against openapi.json.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** The methods the Allow header names, sorted. */
function allowed(res: RawResponse): string[] {
  assert.ok(res.headers.allow, `405 carries Allow: ${res.text}`)
  return String(res.headers.allow).split(',').map((m) => m.trim()).sort()
}

// '/' is a page (test/web/entry-pages.test.ts).
for (const path of ['/nope', '/api', '/api/', '/api/lisbon/nope', '/api/lisbon/tours/alfama-walk/extra', '/api/lisbon/availability/alfama-walk', '/api/lisbon/openapi.yaml']) {
  test(`GET ${path} is 404 not_found as problem+json with a request_id`, async (t) => {
    const service = await build(t)
    const res = await raw(service, { method: 'GET', path })
    assertProblem(res, 404, 'not_found')
    assert.match(res.body.request_id, UUID)
  })
}

test('a known path under an unknown instance is 404 not_found for every method, never 405', async (t) => {
  const service = await build(t)
  for (const method of ['GET', 'POST', 'DELETE', 'PUT', 'TRACE', 'PROPFIND']) {
    assertProblem(await raw(service, { method, path: '/api/nowhere/tours' }), 404, 'not_found')
    assertProblem(await raw(service, { method, path: '/api/nowhere/booking' }), 404, 'not_found')
  }
})

test('a known path with a method it does not serve is 405 method_not_allowed with Allow naming the methods it does serve', async (t) => {
  const service = await build(t)
  const cases: [string, string, string, string[]][] = [
    ['DELETE', '/api/lisbon/tours', '/tours', ['GET', 'HEAD']],
    ['POST', '/api/lisbon/tours/alfama-walk', '/tours/alfama-walk', ['GET', 'HEAD']],
    ['PUT', '/api/lisbon/availability?tour=alfama-walk', '/availability', ['GET', 'HEAD']],
    ['GET', '/api/lisbon/session', '/session', ['POST']],
    ['PUT', '/api/lisbon/booking', '/booking', ['DELETE', 'GET', 'HEAD', 'POST']],
    ['PATCH', '/api/lisbon/booking', '/booking', ['DELETE', 'GET', 'HEAD', 'POST']],
    ['GET', '/api/lisbon/checkout', '/checkout', ['POST']],
    ['DELETE', '/api/lisbon/contact', '/contact', ['POST']],
    ['GET', '/api/lisbon/newsletter', '/newsletter', ['POST']],
    ['POST', '/api/lisbon/policies', '/policies', ['GET', 'HEAD']],
    ['POST', '/api/lisbon/openapi.json', '/openapi.json', ['GET', 'HEAD']],
    ['PATCH', '/api/lisbon', '/', ['GET', 'HEAD']],
    ['DELETE', '/api/lisbon/', '/', ['GET', 'HEAD']],
    ['DELETE', '/api/nyc/tours', '/tours', ['GET', 'HEAD']],
  ]
  for (const [method, path, documentedPath, methods] of cases) {
    const res = await raw(service, { method, path })
    assertProblem(res, 405, 'method_not_allowed', service, method, documentedPath)
    assert.deepEqual(allowed(res), methods, `${method} ${path}`)
  }
})

test('TRACE and PROPFIND on known paths are 405 method_not_allowed with Allow', async (t) => {
  const service = await build(t)
  for (const method of ['TRACE', 'PROPFIND']) {
    for (const [path, documentedPath, methods] of [
      ['/api/lisbon/tours', '/tours', ['GET', 'HEAD']],
      ['/api/lisbon/booking', '/booking', ['DELETE', 'GET', 'HEAD', 'POST']],
      ['/api/lisbon', '/', ['GET', 'HEAD']],
    ] as const) {
      const res = await raw(service, { method, path, headers: { 'x-secret-header': 'must-not-echo' } })
      assertProblem(res, 405, 'method_not_allowed', service, method, documentedPath)
      assert.deepEqual(allowed(res), methods, `${method} ${path}`)
      assert.doesNotMatch(res.text, /must-not-echo/, 'TRACE never echoes the request')
    }
  }
})

test('routing outranks the rest: 404 and 405 are answered before size, media type, JSON, origin and CSRF checks', async (t) => {
  const service = await build(t)
  const foreignText: Record<string, string> = { 'content-type': 'text/plain', origin: 'https://evil.example' }
  const json: Record<string, string> = { 'content-type': 'application/json' }
  const requests: [Record<string, string>, string][] = [[foreignText, 'not json'], [json, '{'], [json, JSON.stringify({ a: 'x'.repeat(70 * 1024) })]]
  for (const [headers, body] of requests) {
    assertProblem(await raw(service, { method: 'PUT', path: '/api/lisbon/booking', headers, body }), 405, 'method_not_allowed', service, 'PUT', '/booking')
    assertProblem(await raw(service, { method: 'POST', path: '/api/lisbon/nope', headers, body }), 404, 'not_found')
  }
})

test('every error answer gets its own request_id', async (t) => {
  const service = await build(t)
  const ids = new Set<string>()
  for (let i = 0; i < 3; i++) {
    for (const [method, path] of [['GET', '/api/lisbon/nope'], ['TRACE', '/api/lisbon/tours'], ['GET', '/api/lisbon/tours/no-such-tour']]) {
      const res = await raw(service, { method, path })
      assert.match(res.body.request_id, UUID)
      ids.add(res.body.request_id)
    }
  }
  assert.equal(ids.size, 9)
})

test('a path the router cannot take (bad percent-encoding, an over-long segment) is 400 bad_request as problem+json', async (t) => {
  const service = await build(t)
  for (const [path, documentedPath] of [
    ['/api/lisbon/tours/%E0%A4%A', '/tours/x'],
    ['/api/%E0%A4%A/tours', '/tours'],
    [`/api/lisbon/tours/${'a'.repeat(300)}`, '/tours/x'],
    [`/api/${'x'.repeat(300)}/tours`, '/tours'],
  ]) {
    const res = await raw(service, { method: 'GET', path })
    assertProblem(res, 400, 'bad_request', service, 'GET', documentedPath)
    assert.doesNotMatch(res.text, /FST_/, 'no framework error codes')
    assert.equal(res.headers['x-content-type-options'], 'nosniff', 'the usual security headers are sent')
  }
})

test('a 5xx never reveals internals: a database missing a table gives a bare 500 internal, and service resumes once it is back', async (t) => {
  const service = await build(t)
  const { db } = service.context.store
  // A real fault in the real database (no mock): the table availability reads is gone.
  await sql`alter table departures rename to departures_away`.execute(db)
  const res = await raw(service, { method: 'GET', path: '/api/lisbon/availability?tour=alfama-walk&days=1' })
  assertProblem(res, 500, 'internal', service, 'GET', '/availability')
  assertNoLeak(res)
  assert.doesNotMatch(res.text, /departures|sqlite|relation|table|select|syntax/i, `the answer names nothing internal: ${res.text}`)
  assert.deepEqual(Object.keys(res.body).sort(), ['code', 'detail', 'request_id', 'status', 'title', 'type'])

  await sql`alter table departures_away rename to departures`.execute(db)
  const again = await raw(service, { method: 'GET', path: '/api/lisbon/availability?tour=alfama-walk&days=1' })
  assert.equal(again.status, 200, again.text)
})
