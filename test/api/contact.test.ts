import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, demoCatalog, type TestService } from '../helpers/build.ts'

// The clock stands at 2026-06-01T08:00:00Z, Monday 09:00 in Lisbon (+01:00).
const RECEIVED_AT_LISBON = '2026-06-01T09:00:00+01:00'
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const DEFAULT_DECOYS = ['company', 'fax', 'middle_name', 'nickname', 'website']

const db = (service: TestService) => service.context.store.db

async function messages(service: TestService) {
  return db(service).selectFrom('contact_messages').selectAll().orderBy('received_at').execute()
}

async function messageRow(service: TestService, id: string) {
  return db(service).selectFrom('contact_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

function errorFields(body: { errors?: { field: string }[] }): string[] {
  return (body.errors ?? []).map((e) => e.field)
}

/** The shape of a receipt, without the values that differ between two receipts. */
function receiptShape(body: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(body).map(([key, value]) => [key, key === 'status' ? value : typeof value]))
}

test('POST /contact answers 200 {id, status "received", received_at in the operator zone} and stores the message', async (t) => {
  const service = await build(t)
  const client = service.client()
  const res = await client.post('/contact', { message: 'Is the Alfama walk suitable for a pushchair?', name: 'Ana Silva', email: 'ana@example.pt' })
  assert.equal(res.status, 200, res.text)
  assert.deepEqual(Object.keys(res.body).sort(), ['id', 'received_at', 'status'])
  assert.equal(res.body.status, 'received')
  assert.match(res.body.id, UUID)
  assert.equal(res.body.received_at, RECEIVED_AT_LISBON)

  const row = await messageRow(service, res.body.id)
  assert.equal(row.instance_id, 'lx4t7k2m')
  assert.equal(row.message, 'Is the Alfama walk suitable for a pushchair?')
  assert.equal(row.name, 'Ana Silva')
  assert.equal(row.email, 'ana@example.pt')
  assert.equal(row.spam, 0)
  assert.equal(Date.parse(row.received_at), Date.parse('2026-06-01T08:00:00Z'))
  assert.equal(row.session_id, null)
})

test('two messages get two ids and two rows; received_at follows the clock and the instance zone', async (t) => {
  const service = await build(t)
  const first = await service.client().post('/contact', { message: 'first' })
  service.clock.advance({ hours: 4, minutes: 30 })
  const second = await service.client('nyc').post('/contact', { message: 'second' })
  assert.equal(first.status, 200)
  assert.equal(second.status, 200)
  assert.notEqual(first.body.id, second.body.id)
  // 12:30Z is 08:30 in New York (-04:00 in June).
  assert.equal(second.body.received_at, '2026-06-01T08:30:00-04:00')
  const rows = await messages(service)
  assert.deepEqual(rows.map((r) => [r.id, r.instance_id, r.message]), [[first.body.id, 'lx4t7k2m', 'first'], [second.body.id, 'ny8h3p5r', 'second']])
})

test('a one-character message is accepted', async (t) => {
  const service = await build(t)
  const res = await service.client().post('/contact', { message: '?' })
  assert.equal(res.status, 200, res.text)
  assert.equal((await messageRow(service, res.body.id)).message, '?')
})

test('5,000 emoji (20,000 bytes of UTF-8) fit the 5,000-character limit and are stored intact; 5,001 are 400 naming message', async (t) => {
  const service = await build(t)
  const client = service.client()
  const fits = '😀'.repeat(5000)
  assert.equal(Buffer.byteLength(fits), 20_000)
  const ok = await client.post('/contact', { message: fits })
  assert.equal(ok.status, 200, ok.text.slice(0, 300))
  assert.equal((await messageRow(service, ok.body.id)).message, fits)

  const tooLong = await client.post('/contact', { message: '😀'.repeat(5001) })
  assert.equal(tooLong.status, 400)
  assert.equal(tooLong.body.code, 'validation_failed')
  assert.deepEqual(errorFields(tooLong.body), ['message'])
  assert.equal((await messages(service)).length, 1)
})

test('5,000 plain characters fit; 5,001 are 400 naming message', async (t) => {
  const service = await build(t)
  const client = service.client()
  assert.equal((await client.post('/contact', { message: 'a'.repeat(5000) })).status, 200)
  const res = await client.post('/contact', { message: 'a'.repeat(5001) })
  assert.equal(res.status, 400)
  assert.deepEqual(errorFields(res.body), ['message'])
  assert.equal((await messages(service)).length, 1)
})

test('a missing, empty or blank message is 400 validation_failed naming message and stores nothing', async (t) => {
  const service = await build(t)
  const client = service.client()
  for (const body of [{}, { message: '' }, { message: '   \n\t ' }, { name: 'Ana', email: 'ana@example.pt' }, { message: 42 }, { message: null }]) {
    const res = await client.post('/contact', body)
    assert.equal(res.status, 400, JSON.stringify(body))
    assert.equal(res.body.code, 'validation_failed')
    assert.deepEqual(errorFields(res.body), ['message'], JSON.stringify(body))
  }
  assert.equal((await messages(service)).length, 0)
})

test('name and email are optional: without them, or blank, they are stored as null', async (t) => {
  const service = await build(t)
  const client = service.client()
  const without = await client.post('/contact', { message: 'no name' })
  const blank = await client.post('/contact', { message: 'blank name', name: '  ' })
  assert.equal(without.status, 200)
  assert.equal(blank.status, 200)
  for (const id of [without.body.id, blank.body.id]) {
    const row = await messageRow(service, id)
    assert.equal(row.name, null)
    assert.equal(row.email, null)
  }
})

test('a name of 200 characters is accepted, 201 is 400 naming name', async (t) => {
  const service = await build(t)
  const client = service.client()
  const ok = await client.post('/contact', { message: 'hi', name: 'ñ'.repeat(200) })
  assert.equal(ok.status, 200)
  assert.equal((await messageRow(service, ok.body.id)).name, 'ñ'.repeat(200))
  const res = await client.post('/contact', { message: 'hi', name: 'n'.repeat(201) })
  assert.equal(res.status, 400)
  assert.deepEqual(errorFields(res.body), ['name'])
  assert.equal((await messages(service)).length, 1)
})

test('an email that is not an address is 400 validation_failed naming email and stores nothing', async (t) => {
  const service = await build(t)
  const client = service.client()
  for (const email of ['not-an-email', 'ana@', '@example.pt', 'ana example.pt', '', `${'a'.repeat(250)}@example.pt`, 7]) {
    const res = await client.post('/contact', { message: 'hello', email })
    assert.equal(res.status, 400, JSON.stringify(email))
    assert.equal(res.body.code, 'validation_failed')
    assert.deepEqual(errorFields(res.body), ['email'], JSON.stringify(email))
  }
  assert.equal((await messages(service)).length, 0)
})

test('an unknown field is 400 validation_failed naming it', async (t) => {
  const service = await build(t)
  const res = await service.client().post('/contact', { message: 'hello', subject: 'hi' })
  assert.equal(res.status, 400)
  assert.deepEqual(errorFields(res.body), ['subject'])
  assert.equal((await messages(service)).length, 0)
})

test('session (body, X-Session or sid cookie), promo_code and referral_code are kept with the message', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  const byBody = await client.post('/contact', { message: 'by body', session: s.session, promo_code: 'WELCOME10', referral_code: 'hotel-lisboa' })
  const byHeader = await client.post('/contact', { message: 'by header' }, { headers: { 'x-session': s.session } })
  const byCookie = await client.post('/contact', { message: 'by cookie' }, { headers: { cookie: `sid=${s.session}` } })
  for (const res of [byBody, byHeader, byCookie]) assert.equal(res.status, 200, res.text)

  const row = await messageRow(service, byBody.body.id)
  assert.equal(row.session_id, s.session)
  assert.equal(row.promo_code, 'WELCOME10')
  assert.equal(row.referral_code, 'hotel-lisboa')
  assert.equal((await messageRow(service, byHeader.body.id)).session_id, s.session)
  assert.equal((await messageRow(service, byCookie.body.id)).session_id, s.session)
})

test('a session id that names no live session is not kept, and the message is still received', async (t) => {
  const service = await build(t)
  const res = await service.client().post('/contact', { message: 'hello', session: 'abcdefghijkl' })
  assert.equal(res.status, 200)
  assert.equal((await messageRow(service, res.body.id)).session_id, null)
})

test('a session id of the wrong form is 400 naming session', async (t) => {
  const service = await build(t)
  const res = await service.client().post('/contact', { message: 'hello', session: 'NOT-A-SESSION' })
  assert.equal(res.status, 400)
  assert.deepEqual(errorFields(res.body), ['session'])
  assert.equal((await messages(service)).length, 0)
})

for (const decoy of DEFAULT_DECOYS) {
  test(`a contact message that fills the decoy ${decoy} answers exactly like a real one and is stored as spam`, async (t) => {
    const service = await build(t)
    const client = service.client()
    const real = await client.post('/contact', { message: 'real message', name: 'Ana', email: 'ana@example.pt' })
    const spam = await client.post('/contact', { message: 'buy now', name: 'Bot', email: 'bot@example.com', [decoy]: 'https://spam.example' })
    assert.equal(spam.status, real.status)
    assert.deepEqual(receiptShape(spam.body), receiptShape(real.body))
    assert.equal(spam.body.received_at, real.body.received_at)
    assert.equal(spam.headers.get('content-type'), real.headers.get('content-type'))

    assert.equal((await messageRow(service, real.body.id)).spam, 0)
    const row = await messageRow(service, spam.body.id)
    assert.equal(row.spam, 1, 'the decoy message is quarantined')
    assert.equal(row.message, 'buy now', 'and kept for the operator to see')
  })
}

test('a decoy left empty or blank (as browsers autofill nothing) does not mark the message as spam', async (t) => {
  const service = await build(t)
  const client = service.client()
  const empty = await client.post('/contact', { message: 'hello', website: '', company: '   ' })
  assert.equal(empty.status, 200)
  assert.equal((await messageRow(service, empty.body.id)).spam, 0)
})

test('the decoy set is per instance: only the fields an instance lists count', async (t) => {
  const catalog = demoCatalog()
  catalog.instances[0].decoys = ['fax']
  delete catalog.instances[1].decoys
  const service = await build(t, { catalog })
  const lisbonCompany = await service.client('lisbon').post('/contact', { message: 'a', company: 'ACME' })
  const lisbonFax = await service.client('lisbon').post('/contact', { message: 'b', fax: '+351 000' })
  const nycCompany = await service.client('nyc').post('/contact', { message: 'c', company: 'ACME' })
  for (const res of [lisbonCompany, lisbonFax, nycCompany]) assert.equal(res.status, 200, res.text)
  assert.equal((await messageRow(service, lisbonCompany.body.id)).spam, 0, 'company is not a decoy in Lisbon any more')
  assert.equal((await messageRow(service, lisbonFax.body.id)).spam, 1)
  assert.equal((await messageRow(service, nycCompany.body.id)).spam, 1, 'New York keeps the default decoys')
})
