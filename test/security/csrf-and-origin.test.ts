import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, type TestService } from '../helpers/build.ts'
import {
  assertProblem, BASE, bookingRow, CHECKOUT, HOLD, holder, raw, seatsTaken, send, unchanged, visitor, type Visitor,
} from './raw-http.ts'

// Forged requests: CSRF tokens where the API does not read them, cross-site Origins, and a
// replayed checkout. Each refused request leaves the database as it was.
const OWN_SITE = 'https://alfama-tejo.example'
const CROSS_SITE = [
  'https://evil.example',
  'null',
  `${OWN_SITE}.evil.example`,
  'http://alfama-tejo.example',
  `${OWN_SITE}:8443`,
  'http://127.0.0.1:1',
]

async function sessionCount(service: TestService): Promise<number> {
  const row = await service.context.store.db.selectFrom('sessions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  return Number(row.n)
}

/** A visitor whose alfama-walk booking (party 2) is checked out and confirmed. */
async function confirmed(service: TestService): Promise<Visitor & { bookingId: string }> {
  const v = await holder(service)
  const res = await send(service, 'POST', '/checkout', CHECKOUT, { 'x-session': v.session })
  assert.equal(res.status, 200, res.text)
  assert.equal(res.body.status, 'confirmed')
  return v
}

// ---------------------------------------------------------------- CSRF tokens

test('a CSRF token only in the query string is not read: POST /booking is 403 csrf_missing and nothing is stored', async (t) => {
  const service = await build(t)
  await holder(service)
  const other = await visitor(service)
  for (const query of [`csrf_token=${other.csrf}`, `x-csrf-token=${other.csrf}`, `X-CSRF-Token=${other.csrf}`, `_csrf=${other.csrf}`]) {
    const res = await unchanged(service, () => raw(service, {
      method: 'POST',
      path: `${BASE}/booking?${query}`,
      headers: { 'content-type': 'application/json', 'x-session': other.session },
      body: JSON.stringify({ ...HOLD, party: 3 }),
    }))
    assertProblem(res, 403, 'csrf_missing', service, 'POST', '/booking')
  }
  assert.equal(await seatsTaken(service), 2, 'only the first visitor\'s seats')
})

test('a CSRF token in the body or in a cookie is not read either: 403 csrf_missing', async (t) => {
  const service = await build(t)
  const v = await visitor(service)
  const inBody = await unchanged(service, () => send(service, 'POST', '/booking', { ...HOLD, csrf_token: v.csrf }, { 'x-session': v.session }))
  assertProblem(inBody, 403, 'csrf_missing', service, 'POST', '/booking')
  for (const cookie of [`csrf_token=${v.csrf}`, `x-csrf-token=${v.csrf}`]) {
    const res = await unchanged(service, () => send(service, 'POST', '/booking', HOLD, { cookie: `sid=${v.session}; ${cookie}` }))
    assertProblem(res, 403, 'csrf_missing', service, 'POST', '/booking')
  }
})

test('DELETE /booking with the token only in the query string is 403 csrf_missing and the hold stays held', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  const res = await unchanged(service, () => raw(service, {
    method: 'DELETE', path: `${BASE}/booking?csrf_token=${v.csrf}&session=${v.session}`, headers: { 'x-session': v.session },
  }))
  assertProblem(res, 403, 'csrf_missing', service, 'DELETE', '/booking')
  assert.equal((await bookingRow(service, v.bookingId)).status, 'held')
  assert.equal(await seatsTaken(service), 2)
})

test('a forged DELETE /booking carrying only the sid cookie cannot cancel a confirmed booking: 403 and nothing changes', async (t) => {
  const service = await build(t)
  const v = await confirmed(service)
  const other = await visitor(service)
  const forged: [Record<string, string>, string][] = [
    [{ cookie: `sid=${v.session}` }, 'csrf_missing'],
    [{ cookie: `sid=${v.session}`, 'x-csrf-token': '' }, 'csrf_missing'],
    [{ cookie: `sid=${v.session}`, 'x-csrf-token': other.csrf }, 'csrf_invalid'],
    [{ cookie: `sid=${v.session}`, 'x-csrf-token': v.csrf.toUpperCase() === v.csrf ? v.csrf.toLowerCase() : v.csrf.toUpperCase() }, 'csrf_invalid'],
    [{ 'x-session': v.session, 'x-csrf-token': other.csrf }, 'csrf_invalid'],
  ]
  for (const [headers, code] of forged) {
    const res = await unchanged(service, () => raw(service, { method: 'DELETE', path: `${BASE}/booking`, headers }))
    assertProblem(res, 403, code, service, 'DELETE', '/booking')
  }
  const row = await bookingRow(service, v.bookingId)
  assert.equal(row.status, 'confirmed')
  assert.equal(row.cancelled_at, null)
  assert.equal(await seatsTaken(service), 2)

  // The browser flow: session by cookie, token in the header.
  const real = await raw(service, { method: 'DELETE', path: `${BASE}/booking`, headers: { cookie: `sid=${v.session}`, 'x-csrf-token': v.csrf } })
  assert.equal(real.status, 200, real.text)
  assert.equal(real.body.status, 'cancelled')
})

test('POST /checkout takes no CSRF token (spec 4.5): a stray or wrong X-CSRF-Token is ignored', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  const res = await send(service, 'POST', '/checkout', CHECKOUT, { 'x-session': v.session, 'x-csrf-token': 'not-a-token' })
  assert.equal(res.status, 200, res.text)
  assert.equal(res.body.status, 'confirmed')
})

test('what a cross-site page can send to POST /checkout is refused and the hold stays held', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  const cookie = `sid=${v.session}`
  // An HTML form cannot send a JSON content type (and 415 outranks 403).
  for (const [contentType, body] of [
    ['application/x-www-form-urlencoded', 'name=Mallory&email=m%40evil.example'],
    ['text/plain', JSON.stringify(CHECKOUT)],
    ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nMallory\r\n--x--\r\n'],
  ]) {
    const res = await unchanged(service, () => raw(service, {
      method: 'POST', path: `${BASE}/checkout`, headers: { 'content-type': contentType, cookie, origin: 'https://evil.example' }, body,
    }))
    assertProblem(res, 415, 'unsupported_media_type', service, 'POST', '/checkout')
  }
  // fetch() from another site with a JSON body: the Origin gives it away.
  const json = await unchanged(service, () => send(service, 'POST', '/checkout', CHECKOUT, { cookie, origin: 'https://evil.example' }))
  assertProblem(json, 403, 'origin_not_allowed', service, 'POST', '/checkout')
  assert.equal((await bookingRow(service, v.bookingId)).status, 'held')
})

// ---------------------------------------------------------------- replayed checkout

test('a replayed checkout with other contact details, a decoy field and the hold time long past answers the same booking and changes nothing', async (t) => {
  const service = await build(t)
  const v = await holder(service, { ...HOLD, promo_code: 'WELCOME10' })
  const first = await send(service, 'POST', '/checkout', CHECKOUT, { 'x-session': v.session })
  assert.equal(first.status, 200, first.text)
  service.clock.advance({ hours: 2 })
  for (const [body, headers] of [
    [{ name: 'Mallory', email: 'mallory@evil.example', phone: '+1 212 555 0100' }, { 'x-session': v.session }],
    [{ ...CHECKOUT, website: 'https://spam.example' }, { cookie: `sid=${v.session}` }],
    [{ ...CHECKOUT, session: v.session }, {}],
  ] as [Record<string, unknown>, Record<string, string>][]) {
    const again = await unchanged(service, () => send(service, 'POST', '/checkout', body, headers))
    assert.equal(again.status, 200, again.text)
    // The same booking, read again: only what cancelling would cost has moved on with the clock.
    assert.deepEqual({ ...again.body, cancellation_now: undefined }, { ...first.body, cancellation_now: undefined })
  }
  const row = await bookingRow(service, v.bookingId)
  assert.equal(row.quarantined, 0, 'a decoy on a replay does not quarantine a real booking')
  assert.equal(row.contact_email, CHECKOUT.email)
  assert.equal(await seatsTaken(service), 2)
})

test('a replayed checkout under a new Idempotency-Key still confirms once', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  const first = await send(service, 'POST', '/checkout', CHECKOUT, { 'x-session': v.session, 'idempotency-key': 'checkout-1' })
  const second = await send(service, 'POST', '/checkout', { name: 'Other', email: 'other@example.pt' }, { 'x-session': v.session, 'idempotency-key': 'checkout-2' })
  assert.equal(first.status, 200)
  assert.equal(second.status, 200)
  assert.deepEqual(second.body, first.body)
  const events = await service.context.store.db.selectFrom('booking_events').select('to_status').where('booking_id', '=', v.bookingId).execute()
  assert.deepEqual(events.map((e) => e.to_status).sort(), ['confirmed', 'held'])
})

test('a replayed checkout of a quarantined booking stays quarantined and takes no seats back', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  const first = await send(service, 'POST', '/checkout', { ...CHECKOUT, fax: '000' }, { 'x-session': v.session })
  assert.equal(first.status, 200)
  assert.equal(await seatsTaken(service), 0)
  const again = await unchanged(service, () => send(service, 'POST', '/checkout', CHECKOUT, { 'x-session': v.session }))
  assert.deepEqual(again.body, first.body)
  assert.equal((await bookingRow(service, v.bookingId)).quarantined, 1)
})

// ---------------------------------------------------------------- Origin

/** Every state-changing request, ready to send for a visitor holding seats. */
function stateChanges(v: Visitor): { method: string, path: string, body?: unknown, headers: Record<string, string> }[] {
  return [
    { method: 'POST', path: '/session', headers: { 'x-session': v.session } },
    { method: 'POST', path: '/booking', body: { ...HOLD, party: 4 }, headers: v.headers },
    { method: 'POST', path: '/checkout', body: CHECKOUT, headers: { 'x-session': v.session } },
    { method: 'DELETE', path: '/booking', headers: v.headers },
    { method: 'POST', path: '/contact', body: { message: 'hello', email: 'ana@example.pt' }, headers: {} },
    { method: 'POST', path: '/newsletter', body: { email: 'ana@example.pt' }, headers: {} },
  ]
}

async function sendWith(service: TestService, request: ReturnType<typeof stateChanges>[number], origin: string | undefined) {
  const headers = origin === undefined ? request.headers : { ...request.headers, origin }
  if (request.body === undefined) return raw(service, { method: request.method, path: `${BASE}${request.path}`, headers })
  return send(service, request.method, request.path, request.body, headers)
}

for (const origin of CROSS_SITE) {
  test(`Origin ${origin} on every POST and DELETE is 403 origin_not_allowed and changes nothing`, async (t) => {
    const service = await build(t)
    const v = await holder(service)
    const sessions = await sessionCount(service)
    for (const request of stateChanges(v)) {
      const res = await unchanged(service, () => sendWith(service, request, origin))
      assertProblem(res, 403, 'origin_not_allowed', service, request.method, request.path)
    }
    assert.equal(await sessionCount(service), sessions, 'no session was created')
    assert.equal((await bookingRow(service, v.bookingId)).status, 'held')
  })
}

test('a cross-site Origin outranks the CSRF and body checks: with a valid token or an invalid body it is still origin_not_allowed', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  const withToken = await unchanged(service, () => send(service, 'POST', '/booking', HOLD, { ...v.headers, origin: 'https://evil.example' }))
  assertProblem(withToken, 403, 'origin_not_allowed', service, 'POST', '/booking')
  const invalid = await unchanged(service, () => send(service, 'POST', '/contact', { colour: 'red' }, { origin: 'https://evil.example' }))
  assertProblem(invalid, 403, 'origin_not_allowed', service, 'POST', '/contact')
})

test("the service's own origin and the instance's allowed origin are accepted on every POST and DELETE, as is no Origin at all", async (t) => {
  for (const origin of ['own', OWN_SITE, undefined]) {
    await t.test(String(origin), async (t) => {
      const service = await build(t)
      const v = await holder(service)
      for (const request of stateChanges(v)) {
        const res = await sendWith(service, request, origin === 'own' ? service.origin : origin)
        assert.equal(res.status, 200, `${request.method} ${request.path} from ${origin}: ${res.text.slice(0, 300)}`)
      }
      assert.equal((await service.context.store.db.selectFrom('contact_messages').selectAll().execute()).length, 1)
    })
  }
})

test("an origin allowed by one instance is cross-site for another", async (t) => {
  const service = await build(t)
  const res = await unchanged(service, () => raw(service, {
    method: 'POST', path: '/api/nyc/contact', headers: { 'content-type': 'application/json', origin: OWN_SITE }, body: JSON.stringify({ message: 'hello' }),
  }))
  assertProblem(res, 403, 'origin_not_allowed')
})

test('reads are not state-changing: a GET with a cross-site Origin is answered', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  for (const path of ['/tours', `/booking?session=${v.session}`, '/policies']) {
    const res = await raw(service, { method: 'GET', path: `${BASE}${path}`, headers: { origin: 'https://evil.example' } })
    assert.equal(res.status, 200, `${path}: ${res.text.slice(0, 200)}`)
  }
})
