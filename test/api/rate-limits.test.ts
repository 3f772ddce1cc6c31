import assert from 'node:assert/strict'
import type { IncomingHttpHeaders } from 'node:http'
import { test } from 'node:test'
import { build, demoCatalog, type TestService } from '../helpers/build.ts'
import { freshDatabase } from '../helpers/database.ts'
import { startServer } from '../helpers/server-process.ts'
import { assertProblem, raw, type RawResponse } from '../security/raw-http.ts'

// Token buckets per client address and per session, one budget per class of request.
// The manual clock stands still unless a test moves it, so no token is refilled by accident.
// Other clients are other loopback addresses (127.0.0.2, …) connecting to 127.0.0.1.
const DEFAULTS = { read: { q: 120, w: 12 }, booking: { q: 20, w: 20 }, forms: { q: 5, w: 50 } }
const MESSAGE = { message: 'Do you run the sail in the rain?' }

interface Client {
  /** Loopback address the requests come from. */
  from?: string
  headers?: Record<string, string>
}

/** One request over real HTTP, checked against openapi.json; `path` is relative to /api/<prefix>. */
async function call(service: TestService, method: string, path: string, body?: unknown, client: Client = {}, prefix = 'lisbon'): Promise<RawResponse> {
  const headers: Record<string, string> = { ...client.headers }
  if (body !== undefined) headers['content-type'] ??= 'application/json'
  const res = await raw(service, {
    method,
    path: `/api/${prefix}${path}`,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    localAddress: client.from,
  })
  service.contract.check(method, path, res.status, String(res.headers['content-type'] ?? ''), res.body)
  return res
}

const contact = (service: TestService, client?: Client, prefix?: string) => call(service, 'POST', '/contact', MESSAGE, client, prefix)

function header(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name]
  assert.equal(typeof value, 'string', `a single ${name} header`)
  return value as string
}

/** RateLimit-Policy per the IETF ratelimit-headers draft: `"name";q=<quota>;w=<window seconds>`. */
function policyOf(res: RawResponse) {
  const match = /^"([a-z]+)";q=(\d+);w=(\d+)$/.exec(header(res.headers, 'ratelimit-policy'))
  assert.ok(match, `RateLimit-Policy ${res.headers['ratelimit-policy']}`)
  return { name: match[1], q: Number(match[2]), w: Number(match[3]) }
}

/** RateLimit per the draft: `"name";r=<remaining>;t=<seconds until the quota is back>`. */
function limitOf(res: RawResponse) {
  const match = /^"([a-z]+)";r=(\d+);t=(\d+)$/.exec(header(res.headers, 'ratelimit'))
  assert.ok(match, `RateLimit ${res.headers.ratelimit}`)
  return { name: match[1], r: Number(match[2]), t: Number(match[3]) }
}

/** A 429 with the documented problem, Retry-After, and RateLimit headers that agree with it. */
function assertLimited(res: RawResponse, rateClass: string): number {
  assertProblem(res, 429, 'rate_limited')
  const retryAfter = header(res.headers, 'retry-after')
  assert.match(retryAfter, /^[1-9]\d*$/, 'Retry-After is whole seconds, at least 1')
  const policy = policyOf(res)
  const limit = limitOf(res)
  assert.equal(policy.name, rateClass)
  assert.equal(limit.name, rateClass)
  assert.equal(limit.r, 0, 'nothing remains when refused')
  assert.ok(Number(retryAfter) <= limit.t, `Retry-After ${retryAfter} is no later than the full reset ${limit.t}`)
  assert.ok(limit.t <= policy.w, `reset ${limit.t} is within the window ${policy.w}`)
  return Number(retryAfter)
}

async function countMessages(service: TestService): Promise<number> {
  const row = await service.context.store.db.selectFrom('contact_messages').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  return Number(row.n)
}

async function spend(n: number, request: () => Promise<RawResponse>): Promise<RawResponse[]> {
  const answers: RawResponse[] = []
  for (let i = 0; i < n; i++) answers.push(await request())
  return answers
}

test('a flood of 50 contact posts from one address: 5 are received, 45 get 429 rate_limited with consistent headers, and only 5 are stored', async (t) => {
  const service = await build(t, { rateLimits: true })
  const answers = await Promise.all(Array.from({ length: 50 }, () => contact(service)))
  const received = answers.filter((r) => r.status === 200)
  const refused = answers.filter((r) => r.status !== 200)
  assert.equal(received.length, 5)
  assert.equal(refused.length, 45)
  for (const res of answers) assert.deepEqual(policyOf(res), { name: 'forms', ...DEFAULTS.forms })
  // Each received post took one token: remaining 4 … 0, each token back in 10 s (6 per minute).
  const remaining = received.map((r) => limitOf(r)).sort((a, b) => b.r - a.r)
  assert.deepEqual(remaining.map((l) => [l.r, l.t]), [[4, 10], [3, 20], [2, 30], [1, 40], [0, 50]])
  for (const res of refused) assert.equal(assertLimited(res, 'forms'), 10)
  assert.equal(await countMessages(service), 5)
})

test('during a form flood, GET /tours from another session, openapi.json and the index still answer 200', async (t) => {
  const service = await build(t, { rateLimits: true })
  const flooder = { headers: { 'x-session': (await call(service, 'POST', '/session')).body.session } }
  await Promise.all(Array.from({ length: 50 }, () => contact(service, flooder)))
  assertLimited(await contact(service, flooder), 'forms')

  const reader = { headers: { 'x-session': (await call(service, 'POST', '/session')).body.session } }
  for (const path of ['/tours', '/openapi.json', '/', '/policies']) {
    const res = await call(service, 'GET', path, undefined, reader)
    assert.equal(res.status, 200, `${path}: ${res.text.slice(0, 200)}`)
    assert.equal(policyOf(res).name, 'read')
  }
  const sameAddressRead = await call(service, 'GET', '/tours', undefined, flooder)
  assert.equal(sameAddressRead.status, 200, 'reads of the flooding session itself are a separate budget too')
})

test('the two forms share the forms budget: after 5 contact posts a newsletter sign-up is 429 too', async (t) => {
  const service = await build(t, { rateLimits: true })
  await spend(5, () => contact(service))
  const res = await call(service, 'POST', '/newsletter', { email: 'ana@example.pt' })
  assertLimited(res, 'forms')
  assert.equal((await service.context.store.db.selectFrom('newsletter_signups').selectAll().execute()).length, 0)
})

test('Retry-After is exact: one second early is still 429, at Retry-After the next post is received, and an idle bucket fills back to the burst', async (t) => {
  const service = await build(t, { rateLimits: true })
  await spend(5, () => contact(service))
  assert.equal(assertLimited(await contact(service), 'forms'), 10)
  service.clock.advance({ seconds: 9 })
  assert.equal(assertLimited(await contact(service), 'forms'), 1)
  service.clock.advance({ seconds: 1 })
  const after = await contact(service)
  assert.equal(after.status, 200, after.text)
  assert.deepEqual(limitOf(after), { name: 'forms', r: 0, t: 50 })

  service.clock.advance({ seconds: 25 })
  const half = await contact(service)
  assert.deepEqual(limitOf(half), { name: 'forms', r: 1, t: 35 }, '2.5 tokens came back and one was spent: 1.5 left, 3.5 to refill')
  service.clock.advance({ minutes: 10 })
  const full = await contact(service)
  assert.deepEqual(limitOf(full), { name: 'forms', r: 4, t: 10 }, 'a bucket never holds more than the burst')
})

test('every route names its class: GETs spend from read, session/booking/checkout writes from booking, the forms from forms', async (t) => {
  const service = await build(t, { rateLimits: true })
  const s = await call(service, 'POST', '/session')
  const visitor = { headers: { 'x-session': s.body.session, 'x-csrf-token': s.body.csrf_token } }
  const hold = { tour_id: 'alfama-walk', start: '2026-06-02T08:30:00Z', party: 2 }
  const cases: [string, string, unknown, string][] = [
    ['GET', '/', undefined, 'read'],
    ['GET', '/tours', undefined, 'read'],
    ['GET', '/tours/alfama-walk', undefined, 'read'],
    ['GET', '/availability?tour=alfama-walk', undefined, 'read'],
    ['GET', '/policies', undefined, 'read'],
    ['GET', '/openapi.json', undefined, 'read'],
    ['POST', '/booking', hold, 'booking'],
    ['GET', '/booking', undefined, 'read'],
    ['POST', '/checkout', { name: 'Ana', email: 'ana@example.pt' }, 'booking'],
    ['DELETE', '/booking', undefined, 'booking'],
    ['POST', '/contact', MESSAGE, 'forms'],
    ['POST', '/newsletter', { email: 'ana@example.pt' }, 'forms'],
  ]
  assert.equal(policyOf(s).name, 'booking')
  for (const [method, path, body, rateClass] of cases) {
    const res = await call(service, method, path, body, visitor)
    assert.equal(res.status, 200, `${method} ${path}: ${res.text.slice(0, 200)}`)
    assert.deepEqual(policyOf(res), { name: rateClass, ...DEFAULTS[rateClass as keyof typeof DEFAULTS] }, `${method} ${path}`)
  }
})

test('reads, booking writes and forms have separate budgets of 120, 20 and 5: exhausting one leaves the others whole', async (t) => {
  const service = await build(t, { rateLimits: true })
  const sessions = await spend(20, () => call(service, 'POST', '/session'))
  assert.ok(sessions.every((r) => r.status === 200))
  assertLimited(await call(service, 'POST', '/session'), 'booking')
  assert.equal((await contact(service)).status, 200, 'forms are untouched by booking writes')
  // build() itself read openapi.json once from this address.
  assert.equal(limitOf(await call(service, 'GET', '/tours')).r, 118, 'reads are untouched by booking writes')

  const reads = await spend(118, () => call(service, 'GET', '/policies'))
  assert.ok(reads.every((r) => r.status === 200))
  assertLimited(await call(service, 'GET', '/openapi.json'), 'read')
  assert.equal(limitOf(await contact(service)).r, 3, 'forms are untouched by reads')
  assertLimited(await call(service, 'POST', '/session'), 'booking')
})

test('the budget is per client address: a flood from one address does not limit another', async (t) => {
  const service = await build(t, { rateLimits: true })
  await Promise.all(Array.from({ length: 20 }, () => contact(service, { from: '127.0.0.2' })))
  assertLimited(await contact(service, { from: '127.0.0.2' }), 'forms')
  const other = await contact(service, { from: '127.0.0.3' })
  assert.equal(other.status, 200, other.text)
  assert.equal(limitOf(other).r, 4)
})

test('the budget is also per session: a session keeps its spent budget across addresses, and a refused request spends from no bucket', async (t) => {
  const service = await build(t, { rateLimits: true })
  const session = (await call(service, 'POST', '/session')).body.session
  await spend(3, () => contact(service, { from: '127.0.0.2', headers: { 'x-session': session } }))
  await spend(2, () => contact(service, { from: '127.0.0.3', headers: { cookie: `sid=${session}` } }))
  assertLimited(await contact(service, { from: '127.0.0.4', headers: { 'x-session': session } }), 'forms')
  // 127.0.0.4 was refused for the session's budget; its own bucket is still full.
  const own = await spend(5, () => contact(service, { from: '127.0.0.4' }))
  assert.deepEqual(own.map((r) => r.status), [200, 200, 200, 200, 200])
  assertLimited(await contact(service, { from: '127.0.0.4' }), 'forms')
  assert.equal(await countMessages(service), 10)
})

test('without a trusted proxy, X-Forwarded-For does not name the client: rotating it does not escape the limit', async (t) => {
  const service = await build(t, { rateLimits: true })
  let n = 0
  const answers = await spend(8, () => contact(service, { headers: { 'x-forwarded-for': `203.0.113.${++n}` } }))
  assert.deepEqual(answers.map((r) => r.status), [200, 200, 200, 200, 200, 429, 429, 429])
})

test('behind a trusted proxy, X-Forwarded-For names the client and each client has its own budget', async (t) => {
  const service = await build(t, { rateLimits: true, trustProxy: '127.0.0.1' })
  const a = { headers: { 'x-forwarded-for': '203.0.113.7' } }
  const b = { headers: { 'x-forwarded-for': '198.51.100.9' } }
  await spend(5, () => contact(service, a))
  assertLimited(await contact(service, a), 'forms')
  assert.equal((await contact(service, b)).status, 200)
  // A proxy that is not trusted cannot speak for its clients.
  const untrusted = await spend(6, () => contact(service, { from: '127.0.0.2', headers: { 'x-forwarded-for': '192.0.2.1' } }))
  assert.deepEqual(untrusted.map((r) => r.status), [200, 200, 200, 200, 200, 429])
})

test('429 outranks 413, 415, 400 and 403; routing 404 and 405 outrank 429', async (t) => {
  const service = await build(t, { rateLimits: true })
  await spend(5, () => contact(service))
  assertLimited(await call(service, 'POST', '/contact', 'message=hi', { headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 'forms')
  assertLimited(await call(service, 'POST', '/contact', '{"message":', {}), 'forms')
  assertLimited(await call(service, 'POST', '/contact', { message: 'x'.repeat(70 * 1024) }), 'forms')
  assertLimited(await call(service, 'POST', '/contact', { colour: 'red' }), 'forms')
  assertLimited(await call(service, 'POST', '/contact', MESSAGE, { headers: { origin: 'https://evil.example' } }), 'forms')
  assertProblem(await call(service, 'GET', '/contact'), 405, 'method_not_allowed')
  assertProblem(await raw(service, { method: 'POST', path: '/api/lisbon/nowhere' }), 404, 'not_found')

  await spend(20, () => call(service, 'POST', '/session'))
  const s = await call(service, 'POST', '/booking', { tour_id: 'alfama-walk' }, { headers: { 'x-session': 'abcdefghijkl' } })
  assertLimited(s, 'booking')
  assert.equal(await countMessages(service), 5)
})

test('with rate limits off, 60 contact posts and 150 reads are all answered, and no RateLimit headers are sent', async (t) => {
  const service = await build(t, { rateLimits: false })
  const posts = await Promise.all(Array.from({ length: 60 }, () => contact(service)))
  assert.ok(posts.every((r) => r.status === 200))
  const reads = await spend(150, () => call(service, 'GET', '/tours'))
  assert.ok(reads.every((r) => r.status === 200))
  for (const res of [...posts, ...reads]) {
    assert.equal(res.headers.ratelimit, undefined)
    assert.equal(res.headers['ratelimit-policy'], undefined)
  }
  assert.equal(await countMessages(service), 60)
})

test('an instance can set its own limits in the catalog; other classes and instances keep the defaults and their own buckets', async (t) => {
  const catalog = demoCatalog()
  catalog.instances[0].rate_limits = { forms: { burst: 2, per_minute: 1 }, read: { burst: 3, per_minute: 60 } }
  const service = await build(t, { rateLimits: true, catalog })

  const posts = await spend(2, () => contact(service))
  assert.deepEqual(policyOf(posts[0]), { name: 'forms', q: 2, w: 120 })
  assert.deepEqual(posts.map((r) => limitOf(r).r), [1, 0])
  assert.equal(assertLimited(await contact(service), 'forms'), 60)

  const reads = await spend(3, () => call(service, 'GET', '/tours'))
  assert.deepEqual(policyOf(reads[0]), { name: 'read', q: 3, w: 3 })
  assert.equal(assertLimited(await call(service, 'GET', '/tours'), 'read'), 1)
  assert.deepEqual(policyOf(await call(service, 'POST', '/session')), { name: 'booking', ...DEFAULTS.booking })

  const nyc = await contact(service, {}, 'nyc')
  assert.equal(nyc.status, 200, 'the same address has a separate budget on another instance')
  assert.deepEqual(policyOf(nyc), { name: 'forms', ...DEFAULTS.forms })
  assert.equal(limitOf(nyc).r, 4)
})

test('TOURDESK_RATE_LIMITS=off in a real server process lets a flood through; on (the default) limits it', async (t) => {
  const database = await freshDatabase()
  t.after(() => database.drop())
  // REDIS_URL empty: the process keeps its buckets in memory, untouched by other tests.
  for (const setting of ['off', 'on']) {
    const server = await startServer({ DATABASE_URL: database.url, TOURDESK_RATE_LIMITS: setting, REDIS_URL: '' })
    try {
      const statuses: number[] = []
      for (let i = 0; i < 12; i++) {
        const res = await fetch(`${server.origin}/api/nyc/contact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(MESSAGE) })
        await res.arrayBuffer()
        statuses.push(res.status)
        assert.equal(res.headers.has('ratelimit'), setting === 'on')
      }
      if (setting === 'off') assert.deepEqual(statuses, Array(12).fill(200))
      else assert.ok(statuses.filter((s) => s === 429).length >= 2, `on: ${statuses.join(' ')}`)
    } finally {
      await server.stop()
    }
  }
})
