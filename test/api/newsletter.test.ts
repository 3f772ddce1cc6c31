import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, type TestService } from '../helpers/build.ts'
import type { ApiResponse } from '../helpers/client.ts'

// The clock stands at 2026-06-01T08:00:00Z. CR/LF in the email is covered by
// test/security/hostile-input-text.test.ts.
const LISBON = 'lx4t7k2m'
const SITE = 'https://alfama-tejo.example'

const db = (service: TestService) => service.context.store.db

async function signups(service: TestService) {
  return db(service).selectFrom('newsletter_signups').selectAll().orderBy('consented_at').orderBy('email').execute()
}

async function subscribers(service: TestService) {
  return db(service).selectFrom('newsletter_subscribers').selectAll().orderBy('email').execute()
}

function errorFields(body: { errors?: { field: string }[] }): string[] {
  return (body.errors ?? []).map((e) => e.field)
}

/** What a client can observe of an answer, less what differs per request (Date, request ids). */
function observable(res: ApiResponse) {
  const headers = [...res.headers.entries()].filter(([name]) => !['date', 'x-request-id'].includes(name))
  return { status: res.status, text: res.text, headers }
}

test('POST /newsletter answers 200 {status "subscribed"} and records the subscription with its consent time and source "api"', async (t) => {
  const service = await build(t)
  const res = await service.client().post('/newsletter', { email: 'ana@example.pt', name: 'Ana Silva' })
  assert.equal(res.status, 200, res.text)
  assert.deepEqual(res.body, { status: 'subscribed' })

  const [subscriber] = await subscribers(service)
  assert.deepEqual({ ...subscriber, consented_at: Date.parse(subscriber.consented_at) }, {
    instance_id: LISBON, email: 'ana@example.pt', name: 'Ana Silva', consented_at: Date.parse('2026-06-01T08:00:00Z'), source: 'api',
  })
  const [signup] = await signups(service)
  assert.equal(signup.email, 'ana@example.pt')
  assert.equal(signup.source, 'api')
  assert.equal(signup.spam, 0)
  assert.equal(Date.parse(signup.consented_at), Date.parse('2026-06-01T08:00:00Z'))
})

test("a sign-up from the operator's site records that Origin as its source", async (t) => {
  const service = await build(t)
  const res = await service.client().post('/newsletter', { email: 'ana@example.pt' }, { headers: { origin: SITE } })
  assert.equal(res.status, 200, res.text)
  assert.equal((await subscribers(service))[0].source, SITE)
  assert.equal((await signups(service))[0].source, SITE)
})

test('an address already subscribed gets exactly the same answer; it keeps its first consent and the new sign-up is logged', async (t) => {
  const service = await build(t)
  const client = service.client()
  const first = await client.post('/newsletter', { email: 'ana@example.pt', name: 'Ana' })
  service.clock.advance({ hours: 72 })
  const again = await client.post('/newsletter', { email: 'ana@example.pt', name: 'Ana Maria' }, { headers: { origin: SITE } })
  const fresh = await client.post('/newsletter', { email: 'rui@example.pt' })
  assert.deepEqual(observable(again), observable(first), 'no enumeration: an existing address is answered like a new one')
  assert.deepEqual(observable(fresh), observable(first))

  const subs = await subscribers(service)
  assert.deepEqual(subs.map((s) => [s.email, s.name, s.source, Date.parse(s.consented_at)]), [
    ['ana@example.pt', 'Ana', 'api', Date.parse('2026-06-01T08:00:00Z')],
    ['rui@example.pt', null, 'api', Date.parse('2026-06-04T08:00:00Z')],
  ])
  const log = await signups(service)
  assert.deepEqual(log.map((s) => [s.email, s.source, Date.parse(s.consented_at)]), [
    ['ana@example.pt', 'api', Date.parse('2026-06-01T08:00:00Z')],
    ['ana@example.pt', SITE, Date.parse('2026-06-04T08:00:00Z')],
    ['rui@example.pt', 'api', Date.parse('2026-06-04T08:00:00Z')],
  ])
})

test('the same address in another case is one subscription', async (t) => {
  const service = await build(t)
  const client = service.client()
  for (const email of ['Ana@Example.PT', 'ana@example.pt', 'ANA@EXAMPLE.PT']) {
    const res = await client.post('/newsletter', { email })
    assert.equal(res.status, 200, `${email}: ${res.text}`)
  }
  assert.deepEqual((await subscribers(service)).map((s) => s.email), ['ana@example.pt'])
  assert.equal((await signups(service)).length, 3)
})

test('an address subscribed to one instance is new to another (subscriptions are per instance)', async (t) => {
  const service = await build(t)
  assert.equal((await service.client('lisbon').post('/newsletter', { email: 'ana@example.pt' })).status, 200)
  assert.equal((await service.client('nyc').post('/newsletter', { email: 'ana@example.pt' })).status, 200)
  assert.deepEqual((await subscribers(service)).map((s) => s.instance_id).sort(), ['lx4t7k2m', 'ny8h3p5r'])
})

test('session, promo_code and referral_code are kept with the sign-up', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  const res = await client.post('/newsletter', { email: 'ana@example.pt', promo_code: 'WELCOME10', referral_code: 'hotel-lisboa' }, { headers: { 'x-session': s.session } })
  assert.equal(res.status, 200, res.text)
  const [signup] = await signups(service)
  assert.equal(signup.session_id, s.session)
  assert.equal(signup.promo_code, 'WELCOME10')
  assert.equal(signup.referral_code, 'hotel-lisboa')
})

test('a sign-up that fills a decoy answers exactly like a real one, is logged as spam and never subscribes', async (t) => {
  const service = await build(t)
  const client = service.client()
  const real = await client.post('/newsletter', { email: 'ana@example.pt' })
  for (const decoy of ['company', 'fax', 'middle_name', 'nickname', 'website']) {
    const spam = await client.post('/newsletter', { email: `bot-${decoy}@example.com`, [decoy]: 'x' })
    assert.deepEqual(observable(spam), observable(real), decoy)
  }
  assert.deepEqual((await subscribers(service)).map((s) => s.email), ['ana@example.pt'])
  const spamLog = (await signups(service)).filter((s) => s.spam === 1)
  assert.equal(spamLog.length, 5, 'every decoy sign-up stays on record for the operator')
})

test('a decoy sign-up for an address not yet subscribed does not block a later real sign-up, and leaves an existing one alone', async (t) => {
  const service = await build(t)
  const client = service.client()
  assert.equal((await client.post('/newsletter', { email: 'ana@example.pt', website: 'spam.example' })).status, 200)
  assert.deepEqual(await subscribers(service), [])
  service.clock.advance({ hours: 1 })
  assert.equal((await client.post('/newsletter', { email: 'ana@example.pt', name: 'Ana' })).status, 200)
  service.clock.advance({ hours: 1 })
  assert.equal((await client.post('/newsletter', { email: 'ana@example.pt', name: 'Bot', nickname: 'bot' })).status, 200)
  const subs = await subscribers(service)
  assert.deepEqual(subs.map((s) => [s.email, s.name, Date.parse(s.consented_at)]), [['ana@example.pt', 'Ana', Date.parse('2026-06-01T09:00:00Z')]])
})

test('an email that is not an address, or is missing, is 400 validation_failed naming email and records nothing', async (t) => {
  const service = await build(t)
  const client = service.client()
  for (const body of [{}, { email: '' }, { email: 'ana' }, { email: 'ana@' }, { email: 'ana @example.pt' }, { email: null }, { name: 'Ana' },
    { email: `${'a'.repeat(250)}@example.pt` }]) {
    const res = await client.post('/newsletter', body)
    assert.equal(res.status, 400, JSON.stringify(body))
    assert.equal(res.body.code, 'validation_failed')
    assert.deepEqual(errorFields(res.body), ['email'], JSON.stringify(body))
  }
  assert.deepEqual(await signups(service), [])
  assert.deepEqual(await subscribers(service), [])
})

test('a name over 200 characters or an unknown field is 400 naming it and records nothing', async (t) => {
  const service = await build(t)
  const client = service.client()
  const long = await client.post('/newsletter', { email: 'ana@example.pt', name: 'n'.repeat(201) })
  assert.equal(long.status, 400)
  assert.deepEqual(errorFields(long.body), ['name'])
  const unknown = await client.post('/newsletter', { email: 'ana@example.pt', frequency: 'weekly' })
  assert.equal(unknown.status, 400)
  assert.deepEqual(errorFields(unknown.body), ['frequency'])
  assert.deepEqual(await signups(service), [])
})
