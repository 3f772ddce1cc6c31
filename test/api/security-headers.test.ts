import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, demoCatalog } from '../helpers/build.ts'
import type { ApiResponse } from '../helpers/client.ts'
import { signedInStaff } from '../helpers/operator.ts'
import { raw, type RawResponse } from '../security/raw-http.ts'

// Headers a JSON API sends on every answer, no-store where a session or booking is in the
// answer, and CORS: off by default, on for the origins an instance lists in cors_origins.
const HOLD = { tour_id: 'alfama-walk', start: '2026-06-02T08:30:00Z', party: 2 }
const CONTACT = { name: 'Ana Silva', email: 'ana@example.pt' }
const WIDGET = 'https://widget.example'
const CSP = "default-src 'none'; frame-ancestors 'none'"

function assertHardened(headers: Headers, label: string): void {
  assert.equal(headers.get('x-content-type-options'), 'nosniff', label)
  assert.equal(headers.get('content-security-policy'), CSP, label)
  assert.equal(headers.get('referrer-policy'), 'no-referrer', label)
  assert.equal(headers.get('cross-origin-resource-policy'), 'same-site', label)
  assert.equal(headers.get('x-powered-by'), null, label)
  assert.equal(headers.get('server'), null, label)
}

function assertNoStore(res: ApiResponse, label: string): void {
  assert.equal(res.headers.get('cache-control'), 'no-store', label)
}

function assertNoCors(headers: Headers | RawResponse['headers'], label: string): void {
  const get = (name: string) => headers instanceof Headers ? headers.get(name) : headers[name] ?? null
  for (const name of ['access-control-allow-origin', 'access-control-allow-credentials', 'access-control-allow-methods', 'access-control-expose-headers']) {
    assert.equal(get(name), null, `${label}: no ${name}`)
  }
}

function withCors(origins: string[]): any {
  const catalog = demoCatalog()
  catalog.instances[0].cors_origins = origins
  return catalog
}

test('every answer, success or problem, carries nosniff, a deny-all CSP, no-referrer and same-site CORP, and no X-Powered-By', async (t) => {
  const service = await build(t)
  const client = service.client()
  const session = await client.session()
  const answers: [string, ApiResponse][] = [
    ['GET /', await client.get('/')],
    ['GET /tours', await client.get('/tours')],
    ['GET /tours/nope 404', await client.get('/tours/nope')],
    ['GET /availability 400', await client.get('/availability?tour=alfama-walk&days=99')],
    ['GET /openapi.json', await client.get('/openapi.json')],
    ['POST /booking 403', await client.post('/booking', HOLD, { headers: { 'x-session': session.session } })],
    ['POST /contact', await client.post('/contact', { message: 'hello' })],
    ['POST /contact 415', await client.post('/contact', 'message=hello', { raw: true, headers: { 'content-type': 'application/x-www-form-urlencoded' } })],
    ['PUT /booking 405', await client.request('PUT', '/booking')],
  ]
  for (const [label, res] of answers) assertHardened(res.headers, label)
  for (const path of ['/api/atlantis/tours', '/nowhere', '/healthz']) {
    const res = await fetch(`${service.origin}${path}`)
    await res.arrayBuffer()
    assertHardened(res.headers, path)
  }
})

test('session and booking answers are Cache-Control: no-store, including a 404 no_booking', async (t) => {
  const service = await build(t)
  const client = service.client()
  assertNoStore(await client.get('/'), 'GET / (sets a session)')
  const grant = await client.post('/session')
  assertNoStore(grant, 'POST /session')
  const headers = { 'x-session': grant.body.session, 'x-csrf-token': grant.body.csrf_token }
  const none = await client.get(`/booking?session=${grant.body.session}`)
  assert.equal(none.status, 404)
  assertNoStore(none, 'GET /booking 404')
  assertNoStore(await client.post('/booking', HOLD, { headers }), 'POST /booking')
  assertNoStore(await client.get('/booking', { headers }), 'GET /booking')
  assertNoStore(await client.delete('/booking', { headers }), 'DELETE /booking')
  assert.equal((await client.post('/booking', HOLD, { headers })).status, 200)
  assertNoStore(await client.post('/checkout', CONTACT, { headers }), 'POST /checkout')
})

test('CORS is off by default: no Access-Control-* headers for any Origin, and a preflight is 405 method_not_allowed', async (t) => {
  const service = await build(t)
  const client = service.client()
  assertNoCors((await client.get('/tours', { headers: { origin: WIDGET } })).headers, 'GET with a foreign Origin')
  assertNoCors((await client.get('/tours', { headers: { origin: 'https://alfama-tejo.example' } })).headers, 'GET from an allowed (not CORS) origin')
  const preflight = await client.request('OPTIONS', '/booking', {
    headers: { origin: WIDGET, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-csrf-token' },
  })
  assert.equal(preflight.status, 405)
  assert.equal(preflight.body.code, 'method_not_allowed')
  assert.equal(preflight.headers.get('allow'), 'DELETE, GET, HEAD, POST')
  assertNoCors(preflight.headers, 'preflight')
})

test('an origin in cors_origins gets a 204 preflight naming the methods and request headers the API accepts', async (t) => {
  const service = await build(t, { catalog: withCors([WIDGET]) })
  const res = await raw(service, {
    method: 'OPTIONS',
    path: '/api/lisbon/booking',
    headers: { origin: WIDGET, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-csrf-token, x-session, idempotency-key' },
  })
  assert.equal(res.status, 204, res.text)
  assert.equal(res.text, '')
  assert.equal(res.headers['access-control-allow-origin'], WIDGET)
  assert.equal(res.headers['access-control-allow-credentials'], 'true')
  assert.deepEqual(String(res.headers['access-control-allow-methods']).split(/,\s*/).sort(), ['DELETE', 'GET', 'HEAD', 'POST'])
  const allowed = String(res.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/)
  for (const name of ['content-type', 'x-csrf-token', 'x-session', 'idempotency-key']) assert.ok(allowed.includes(name), `allows ${name}`)
  assert.match(String(res.headers['access-control-max-age']), /^\d+$/)
  assert.match(String(res.headers.vary), /origin/i)

  const contact = await raw(service, { method: 'OPTIONS', path: '/api/lisbon/contact', headers: { origin: WIDGET, 'access-control-request-method': 'POST' } })
  assert.equal(contact.status, 204)
  assert.equal(contact.headers['access-control-allow-methods'], 'POST')
})

test('with cors_origins set, an unlisted origin still gets no CORS and a 405 preflight; another instance stays closed', async (t) => {
  const service = await build(t, { catalog: withCors([WIDGET]) })
  const stranger = await raw(service, { method: 'OPTIONS', path: '/api/lisbon/booking', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } })
  assert.equal(stranger.status, 405)
  assertNoCors(stranger.headers, 'unlisted origin preflight')
  assertNoCors((await service.client().get('/tours', { headers: { origin: 'https://evil.example' } })).headers, 'unlisted origin GET')
  // A listed origin differs from one that merely starts the same way.
  assertNoCors((await service.client().get('/tours', { headers: { origin: `${WIDGET}.evil.example` } })).headers, 'look-alike origin')

  const nycPreflight = await raw(service, { method: 'OPTIONS', path: '/api/nyc/tours', headers: { origin: WIDGET, 'access-control-request-method': 'GET' } })
  assert.equal(nycPreflight.status, 405)
  assertNoCors(nycPreflight.headers, 'other instance preflight')
  assertNoCors((await service.client('nyc').get('/tours', { headers: { origin: WIDGET } })).headers, 'other instance GET')
})

test('a listed CORS origin gets credentialed answers that expose the CSRF, rate-limit and replay headers, and may send state-changing requests', async (t) => {
  const service = await build(t, { catalog: withCors([WIDGET]), rateLimits: true })
  const client = service.client()
  const grant = await client.post('/session', undefined, { headers: { origin: WIDGET } })
  assert.equal(grant.status, 200, grant.text)
  assert.equal(grant.headers.get('access-control-allow-origin'), WIDGET)
  assert.equal(grant.headers.get('access-control-allow-credentials'), 'true')
  assert.match(grant.headers.get('vary') ?? '', /origin/i)
  const exposed = (grant.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/,\s*/)
  for (const name of ['x-csrf-token', 'ratelimit', 'ratelimit-policy', 'retry-after', 'idempotent-replayed']) assert.ok(exposed.includes(name), `exposes ${name}`)

  const headers = { origin: WIDGET, 'x-session': grant.body.session, 'x-csrf-token': grant.body.csrf_token }
  const held = await client.post('/booking', HOLD, { headers })
  assert.equal(held.status, 200, held.text)
  assert.equal(held.headers.get('access-control-allow-origin'), WIDGET)
  const problem = await client.post('/checkout', { name: 'Ana' }, { headers })
  assert.equal(problem.status, 400)
  assert.equal(problem.headers.get('access-control-allow-origin'), WIDGET, 'problems are readable by the widget too')
  assert.equal((await client.post('/contact', { message: 'hi' }, { headers: { origin: WIDGET } })).status, 200)
})

test('an empty cors_origins list is CORS off', async (t) => {
  const service = await build(t, { catalog: withCors([]) })
  const preflight = await raw(service, { method: 'OPTIONS', path: '/api/lisbon/tours', headers: { origin: WIDGET, 'access-control-request-method': 'GET' } })
  assert.equal(preflight.status, 405)
  assertNoCors(preflight.headers, 'preflight')
})

test('CORS is the guest API only: a listed origin gets none from the operator API or the back office, even with a signed-in manager', async (t) => {
  // The same site as the service: the SameSite=Strict staff cookie goes with its requests.
  const sameSite = 'http://www.localhost'
  const service = await build(t, { catalog: withCors([sameSite]) })
  const { client: manager } = await signedInStaff(service, 'manager')
  for (const path of ['/me', '/bookings', '/emails', '/openapi.json']) {
    const res = await manager.get(path, { origin: sameSite })
    assert.equal(res.status, 200, `${path}: ${res.text}`)
    assertNoCors(res.headers, `GET /admin/api/lisbon${path}`)
  }
  assertNoCors((await manager.get('/nope', { origin: sameSite })).headers, 'operator 404')
  const preflight = await raw(service, { method: 'OPTIONS', path: '/admin/api/lisbon/bookings', headers: { origin: sameSite, 'access-control-request-method': 'GET' } })
  assert.equal(preflight.status, 405)
  assertNoCors(preflight.headers, 'operator preflight')
  const page = await fetch(`${service.origin}/admin/lisbon/`, { headers: { origin: sameSite } })
  await page.arrayBuffer()
  assertNoCors(page.headers, 'back office page')
  // The guest API of the same instance still answers the listed origin, and each document says so.
  assert.equal((await service.client().get('/tours', { headers: { origin: sameSite } })).headers.get('access-control-allow-origin'), sameSite)
  assert.equal((await manager.get('/openapi.json')).text.includes('Access-Control-Allow-Origin'), false, 'the operator document promises no CORS')
  assert.equal((await service.client().get('/openapi.json')).text.includes('Access-Control-Allow-Origin'), true, 'the guest document does')
})
