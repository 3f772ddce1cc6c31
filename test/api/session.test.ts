import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, DEFAULT_NOW, type TestService } from '../helpers/build.ts'

const SESSION_ID = /^[a-z0-9]{12}$/
/** alfama-walk's 09:30 start on Tuesday 2 June 2026 (Lisbon is at +01:00). */
const ALFAMA_START = '2026-06-02T08:30:00Z'
const HOLD = { tour_id: 'alfama-walk', start: ALFAMA_START, party: 2 }

async function countSessions(service: TestService): Promise<number> {
  const row = await service.context.store.db.selectFrom('sessions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  return Number(row.n)
}

async function countBookings(service: TestService): Promise<number> {
  const row = await service.context.store.db.selectFrom('bookings').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  return Number(row.n)
}

test('POST /session answers session, csrf_token and expires_at, and repeats the token in the X-CSRF-Token header', async (t) => {
  const service = await build(t)
  const res = await service.client().post('/session')
  assert.equal(res.status, 200)
  assert.deepEqual(Object.keys(res.body).sort(), ['csrf_token', 'expires_at', 'session'])
  assert.match(res.body.session, SESSION_ID)
  assert.equal(typeof res.body.csrf_token, 'string')
  assert.ok(res.body.csrf_token.length >= 16, 'a CSRF token is long enough not to be guessed')
  assert.equal(res.headers.get('x-csrf-token'), res.body.csrf_token)
  assert.match(res.body.expires_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+01:00$/, 'expires_at carries the Lisbon summer offset')
  assert.ok(Date.parse(res.body.expires_at) > Date.parse(DEFAULT_NOW), 'a new session expires in the future')

  const stored = await service.context.store.db.selectFrom('sessions').selectAll().execute()
  assert.equal(stored.length, 1)
  assert.equal(stored[0].id, res.body.session)
  assert.equal(stored[0].instance_id, 'lx4t7k2m')
  assert.equal(Date.parse(stored[0].expires_at), Date.parse(res.body.expires_at))
})

test('POST /session sets the sid cookie HttpOnly, SameSite=Lax, scoped to the instance path and not Secure over http', async (t) => {
  const service = await build(t)
  const res = await service.client().post('/session')
  const cookies = res.headers.getSetCookie()
  const sid = cookies.find((c) => c.startsWith('sid='))
  assert.ok(sid, `a sid cookie is set (got ${JSON.stringify(cookies)})`)
  const [pair, ...attributes] = sid.split(';').map((part) => part.trim())
  assert.equal(pair, `sid=${res.body.session}`)
  const lower = attributes.map((a) => a.toLowerCase())
  assert.ok(lower.includes('httponly'), sid)
  assert.ok(lower.includes('samesite=lax'), sid)
  assert.ok(attributes.includes('Path=/api/lisbon'), sid)
  assert.ok(!lower.includes('secure'), 'no Secure attribute on plain http')
})

test('two POST /session calls without a session get two different sessions with different tokens', async (t) => {
  const service = await build(t)
  const client = service.client()
  const a = await client.session()
  const b = await client.session()
  assert.notEqual(a.session, b.session)
  assert.notEqual(a.csrf, b.csrf)
  assert.equal(await countSessions(service), 2)
})

test('POST /session naming a live session by cookie gets the same session and token back, without a new session', async (t) => {
  const service = await build(t)
  const client = service.client()
  const first = await client.session()
  const again = await client.post('/session', undefined, { headers: { cookie: `sid=${first.session}` } })
  assert.equal(again.status, 200)
  assert.equal(again.body.session, first.session)
  assert.equal(again.body.csrf_token, first.csrf)
  assert.equal(again.headers.get('x-csrf-token'), first.csrf)
  for (const cookie of again.headers.getSetCookie()) {
    assert.ok(!cookie.startsWith('sid=') || cookie.startsWith(`sid=${first.session};`), `sid is not rotated: ${cookie}`)
  }
  assert.equal(await countSessions(service), 1)
})

test('POST /session naming a live session by X-Session gets the same session and token back, without a new session', async (t) => {
  const service = await build(t)
  const client = service.client()
  const first = await client.session()
  const again = await client.post('/session', undefined, { headers: { 'x-session': first.session } })
  assert.equal(again.status, 200)
  assert.equal(again.body.session, first.session)
  assert.equal(again.body.csrf_token, first.csrf)
  assert.equal(await countSessions(service), 1)
})

test('X-Session outranks the sid cookie when both name a live session', async (t) => {
  const service = await build(t)
  const client = service.client()
  const a = await client.session()
  const b = await client.session()
  const res = await client.post('/session', undefined, { headers: { 'x-session': a.session, cookie: `sid=${b.session}` } })
  assert.equal(res.body.session, a.session)
  assert.equal(res.body.csrf_token, a.csrf)
})

test('POST /session naming an unknown session id gets a new session, not the one it named', async (t) => {
  const service = await build(t)
  const client = service.client()
  const res = await client.post('/session', undefined, { headers: { 'x-session': 'zzzzzzzzzzzz' } })
  assert.equal(res.status, 200)
  assert.match(res.body.session, SESSION_ID)
  assert.notEqual(res.body.session, 'zzzzzzzzzzzz')
  const stored = await service.context.store.db.selectFrom('sessions').select('id').execute()
  assert.deepEqual(stored.map((s) => s.id), [res.body.session])
})

test('POST /session with a garbage sid cookie gets a new session (a browser may carry a stale one)', async (t) => {
  const service = await build(t)
  const client = service.client()
  for (const headers of [{ cookie: 'sid=../../etc' }, { cookie: 'sid=abc' }, { cookie: 'sid=ABCDEFGHIJKL' }]) {
    const res = await client.post('/session', undefined, { headers })
    assert.equal(res.status, 200, JSON.stringify(headers))
    assert.match(res.body.session, SESSION_ID)
    assert.equal(res.headers.get('x-csrf-token'), res.body.csrf_token)
  }
  assert.equal(await countSessions(service), 3)
})

test('POST /session with an X-Session that cannot be a session id is 400 validation_failed naming X-Session, and makes no session', async (t) => {
  const service = await build(t)
  const client = service.client()
  for (const value of ['NOT-A-SESSION', 'abcdefghijklm', 'abcdefghijk', 'ABCDEFGHIJKL', '']) {
    const res = await client.post('/session', undefined, { headers: { 'x-session': value } })
    assert.equal(res.status, 400, JSON.stringify(value))
    assert.equal(res.body.code, 'validation_failed')
    assert.deepEqual(res.body.errors.map((e: { field: string }) => e.field), ['X-Session'])
    assert.equal(res.headers.get('set-cookie'), null)
  }
  assert.equal(await countSessions(service), 0)
})

test('POST /session takes no body fields: each is 400 validation_failed naming it, and no session is made', async (t) => {
  const service = await build(t)
  const client = service.client()
  const live = await client.session()
  for (const [body, field] of [[{ session: live.session }, 'session'], [{ remember: true }, 'remember'], [[], 'body'], [null, 'body']] as const) {
    const res = await client.post('/session', body)
    assert.equal(res.status, 400, res.text)
    assert.equal(res.body.code, 'validation_failed')
    assert.deepEqual(res.body.errors.map((e: { field: string }) => e.field), [field])
    assert.equal(res.headers.get('set-cookie'), null)
  }
  assert.equal(await countSessions(service), 1)
})

test('POST /session with no body, an empty JSON body or {} answers a session', async (t) => {
  const service = await build(t)
  const client = service.client()
  const answers = [
    await client.post('/session'),
    await client.post('/session', '', { raw: true, headers: { 'content-type': 'application/json' } }),
    await client.post('/session', {}),
    await client.post('/session', '', { raw: true, headers: { 'content-type': 'text/plain' } }),
  ]
  for (const res of answers) {
    assert.equal(res.status, 200, res.text)
    assert.match(res.body.session, SESSION_ID)
  }
  // Nor does a body name the session: the session named by X-Session comes back.
  const live = await client.session()
  const kept = await client.post('/session', {}, { headers: { 'x-session': live.session } })
  assert.equal(kept.body.session, live.session)
})

test('POST /session naming a session past its expires_at gets a new session', async (t) => {
  const service = await build(t)
  const client = service.client()
  const first = await client.post('/session')
  service.clock.set(first.body.expires_at)
  const later = await client.post('/session', undefined, { headers: { 'x-session': first.body.session } })
  assert.equal(later.status, 200)
  assert.notEqual(later.body.session, first.body.session)
  assert.notEqual(later.body.csrf_token, first.body.csrf_token)
  assert.ok(Date.parse(later.body.expires_at) > Date.parse(first.body.expires_at))
})

test('a session of one instance is not a session of another: naming it there gets a new session', async (t) => {
  const service = await build(t)
  const lisbon = await service.client('lisbon').session()
  const res = await service.client('nyc').post('/session', undefined, { headers: { 'x-session': lisbon.session } })
  assert.equal(res.status, 200)
  assert.notEqual(res.body.session, lisbon.session)
  assert.notEqual(res.body.csrf_token, lisbon.csrf)
})

test("one session's token is refused for another session with 403 csrf_invalid, and nothing is stored", async (t) => {
  const service = await build(t)
  const client = service.client()
  const a = await client.session()
  const b = await client.session()
  const res = await client.post('/booking', HOLD, { headers: { 'x-session': b.session, 'x-csrf-token': a.csrf } })
  assert.equal(res.status, 403)
  assert.equal(res.body.code, 'csrf_invalid')
  assert.equal(await countBookings(service), 0)

  const own = await client.post('/booking', HOLD, { headers: b.headers })
  assert.equal(own.status, 200, 'the same request with the right token is accepted')
  assert.equal(await countBookings(service), 1)
})

test('the token from a repeated POST /session for the same session keeps working', async (t) => {
  const service = await build(t)
  const client = service.client()
  const first = await client.session()
  const again = await client.post('/session', undefined, { headers: { 'x-session': first.session } })
  const res = await client.post('/booking', HOLD, { headers: { 'x-session': first.session, 'x-csrf-token': again.body.csrf_token } })
  assert.equal(res.status, 200)
  assert.equal(res.body.status, 'held')
})

test('a token is refused once its session has expired, even for the id it was issued to', async (t) => {
  const service = await build(t)
  const client = service.client()
  const grant = await client.post('/session')
  service.clock.set(grant.body.expires_at)
  const res = await client.post('/booking', { ...HOLD, start: '2026-07-02T08:30:00Z' },
    { headers: { 'x-session': grant.body.session, 'x-csrf-token': grant.body.csrf_token } })
  assert.equal(res.status, 403)
  assert.equal(res.body.code, 'csrf_invalid')
  assert.equal(await countBookings(service), 0)
})
