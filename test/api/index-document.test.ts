import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, DEFAULT_NOW, demoCatalog, type TestService } from '../helpers/build.ts'
import type { ApiResponse } from '../helpers/client.ts'

const SESSION_ID = /^[a-z0-9]{12}$/
/** A session that has never held a booking lasts a day (docs/guest-api.md, "Sessions and CSRF"). */
const NEW_SESSION_SECONDS = 24 * 3600

/** The ten endpoint entries docs/guest-api.md lists, before the instance prefix is put in front of each path. */
const CONTRACT_ENDPOINTS = [
  'GET /tours?q=',
  'GET /tours/{id}',
  'GET /availability?tour=&date=&party=&days=',
  'POST /session',
  'GET|POST|DELETE /booking',
  'POST /checkout',
  'POST /newsletter',
  'POST /contact',
  'GET /policies',
  'GET /openapi.json',
]

const withPrefix = (prefix: string) => CONTRACT_ENDPOINTS.map((entry) => {
  const [methods, path] = entry.split(' ')
  return `${methods} /api/${prefix}${path}`
})

async function storedSessions(service: TestService) {
  return service.context.store.db.selectFrom('sessions').selectAll().execute()
}

/** The sid cookie the answer sets, split into its value and attributes; undefined when none is set. */
function sidCookie(res: ApiResponse): { value: string, attributes: string[] } | undefined {
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('sid='))
  if (cookie === undefined) return undefined
  const [pair, ...attributes] = cookie.split(';').map((part) => part.trim())
  return { value: pair.slice('sid='.length), attributes }
}

for (const path of ['', '/']) {
  test(`GET {base}${path} answers name, ref, a session, the time zone and exactly the ten endpoints`, async (t) => {
    const service = await build(t)
    const res = await service.client().get(path)
    assert.equal(res.status, 200, res.text)
    const lisbon = demoCatalog().instances[0]
    assert.equal(res.body.name, lisbon.name)
    assert.equal(res.body.ref, lisbon.ref)
    assert.match(res.body.ref, /^[a-z0-9]{8}$/)
    assert.match(res.body.session, SESSION_ID)
    assert.equal(res.body.timezone, 'Europe/Lisbon')
    assert.deepEqual(res.body.endpoints, withPrefix('lisbon'))
  })
}

test('each instance answers its own index: name, ref, time zone and endpoint paths under its own prefix', async (t) => {
  const service = await build(t)
  const res = await service.client('nyc').get('')
  assert.equal(res.status, 200, res.text)
  const nyc = demoCatalog().instances[1]
  assert.equal(res.body.name, nyc.name)
  assert.equal(res.body.ref, nyc.ref)
  assert.equal(res.body.timezone, 'America/New_York')
  assert.deepEqual(res.body.endpoints, withPrefix('nyc'))
})

test('the index creates a session stored in the database, expiring 24 hours after creation', async (t) => {
  const service = await build(t)
  assert.equal((await storedSessions(service)).length, 0)
  const res = await service.client().get('')
  const stored = await storedSessions(service)
  assert.equal(stored.length, 1)
  assert.equal(stored[0].id, res.body.session)
  assert.equal(stored[0].instance_id, demoCatalog().instances[0].ref)
  assert.equal(Date.parse(stored[0].created_at), Date.parse(DEFAULT_NOW))
  assert.equal(Date.parse(stored[0].expires_at), Date.parse(DEFAULT_NOW) + NEW_SESSION_SECONDS * 1000)
  assert.equal(res.headers.get('cache-control'), 'no-store', 'an answer carrying a session is never cached')
})

test('the index sets the sid cookie: HttpOnly, SameSite=Lax, Path=/api/<prefix>, no Secure over http, lasting the session', async (t) => {
  const service = await build(t)
  for (const prefix of ['lisbon', 'nyc']) {
    const res = await service.client(prefix).get('')
    const sid = sidCookie(res)
    assert.ok(sid, `a sid cookie is set (got ${JSON.stringify(res.headers.getSetCookie())})`)
    assert.equal(sid.value, res.body.session)
    const lower = sid.attributes.map((a) => a.toLowerCase())
    assert.ok(lower.includes('httponly'), sid.attributes.join('; '))
    assert.ok(lower.includes('samesite=lax'), sid.attributes.join('; '))
    assert.ok(sid.attributes.includes(`Path=/api/${prefix}`), sid.attributes.join('; '))
    assert.ok(!lower.includes('secure'), 'no Secure attribute on plain http')
    assert.ok(lower.includes(`max-age=${NEW_SESSION_SECONDS}`), `the cookie lasts as long as the session: ${sid.attributes.join('; ')}`)
  }
})

test('a second index request with the sid cookie gets the same session back and creates none', async (t) => {
  const service = await build(t)
  const client = service.client()
  const first = await client.get('')
  const again = await client.get('/', { headers: { cookie: `sid=${first.body.session}` } })
  assert.equal(again.status, 200)
  assert.equal(again.body.session, first.body.session)
  const reissued = sidCookie(again)
  assert.ok(reissued === undefined || reissued.value === first.body.session, 'the session is not rotated')
  assert.equal((await storedSessions(service)).length, 1)
})

test('the session the index created is the one POST /session then grants a CSRF token for', async (t) => {
  const service = await build(t)
  const client = service.client()
  const index = await client.get('')
  const grant = await client.post('/session', undefined, { headers: { cookie: `sid=${index.body.session}` } })
  assert.equal(grant.status, 200)
  assert.equal(grant.body.session, index.body.session)
  assert.equal((await storedSessions(service)).length, 1)
})

test('an unknown, malformed or expired sid cookie gets a new session', async (t) => {
  const service = await build(t)
  const client = service.client()
  const old = await client.get('')
  service.clock.advance({ hours: 24 })
  for (const cookie of ['sid=abcdefghijkl', 'sid=NOT-A-SESSION', `sid=${old.body.session}`]) {
    const res = await client.get('', { headers: { cookie } })
    assert.equal(res.status, 200)
    assert.notEqual(res.body.session, old.body.session, cookie)
    assert.equal(sidCookie(res)?.value, res.body.session, `a new sid cookie is set for ${cookie}`)
  }
  assert.equal((await storedSessions(service)).length, 4)
})

test("one instance's session is not reused by another instance's index", async (t) => {
  const service = await build(t)
  const lisbon = await service.client('lisbon').get('')
  const nyc = await service.client('nyc').get('', { headers: { cookie: `sid=${lisbon.body.session}` } })
  assert.equal(nyc.status, 200)
  assert.notEqual(nyc.body.session, lisbon.body.session)
  const stored = (await storedSessions(service)).map((s) => [s.id, s.instance_id]).sort((a, b) => a[1].localeCompare(b[1]))
  assert.deepEqual(stored, [
    [lisbon.body.session, demoCatalog().instances[0].ref],
    [nyc.body.session, demoCatalog().instances[1].ref],
  ].sort((a, b) => a[1].localeCompare(b[1])))
})

test('an unknown instance prefix is 404 not_found as problem+json, and creates no session', async (t) => {
  const service = await build(t)
  const client = service.client('nowhere')
  for (const path of ['', '/']) {
    const res = await client.get(path)
    assert.equal(res.status, 404, res.text)
    assert.equal(res.headers.get('content-type')?.split(';')[0], 'application/problem+json')
    assert.equal(res.body.code, 'not_found')
    assert.equal(res.body.status, 404)
    assert.equal(typeof res.body.request_id, 'string')
    assert.equal(sidCookie(res), undefined)
  }
  assert.equal((await storedSessions(service)).length, 0)
})
