import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, type TestService } from '../helpers/build.ts'
import {
  assertNoLeak, assertProblem, assertValidationFailed, BASE, bookingRow, CHECKOUT, HOLD, holder, raw, send, tableNames, unchanged, visitor,
} from './raw-http.ts'

// Hostile query strings and text: loose numbers, impossible dates, SQL and HTML injection
// in every free-text field, and header injection through e-mail addresses.

const INJECTIONS = [
  "'; DROP TABLE bookings; --",
  '<script>alert(1)</script>',
  '" OR 1=1 --',
  "Robert'); DROP TABLE students;--",
]

const get = (service: TestService, query: string) => raw(service, { method: 'GET', path: `${BASE}/availability?${query}` })

/** The answer is JSON that a browser will not sniff into HTML or run. */
function assertInertJson(res: { status: number, text: string, headers: Record<string, unknown>, body: any }): void {
  assert.equal(res.status, 200, res.text)
  assert.ok(String(res.headers['content-type']).startsWith('application/json'), String(res.headers['content-type']))
  assert.equal(res.headers['x-content-type-options'], 'nosniff')
  assert.match(String(res.headers['content-security-policy']), /default-src 'none'/)
  assertNoLeak(res as never)
}

async function assertTablesIntact(service: TestService, before: string[]): Promise<void> {
  assert.deepEqual(await tableNames(service), before)
  for (const table of ['bookings', 'booking_events', 'departures', 'contact_messages', 'newsletter_signups', 'newsletter_subscribers']) {
    assert.ok(before.includes(table), `${table} exists`)
  }
}

for (const [name, value] of [
  ['hex', '0x7'], ['exponent', '1e1'], ['leading space', '%207'], ['fraction', '1.5'], ['plus sign', '%2B7'], ['form-encoded plus', '+7'],
  ['leading zero', '07'], ['negative', '-7'], ['empty', ''], ['trailing junk', '7abc'], ['huge', '99999999999999999999'], ['zero', '0'], ['fifteen', '15'],
] as const) {
  test(`days=${value} (${name}) on GET /availability is 400 validation_failed naming days`, async (t) => {
    const service = await build(t)
    const res = await get(service, `tour=alfama-walk&days=${value}`)
    assertValidationFailed(res, 'days', service, 'GET', '/availability')
  })
}

for (const value of ['2.0', '2e0', '0x2', '%202', '02', 'two', '0', '-1']) {
  test(`party=${value} on GET /availability is 400 validation_failed naming party`, async (t) => {
    const service = await build(t)
    const res = await get(service, `tour=alfama-walk&party=${value}`)
    assertValidationFailed(res, 'party', service, 'GET', '/availability')
  })
}

test('plain decimal days and party in the query are accepted (the strict parser is not stricter than documented)', async (t) => {
  const service = await build(t)
  const res = await get(service, 'tour=alfama-walk&days=7&party=2&date=2026-06-02')
  assert.equal(res.status, 200, res.text)
  assert.equal(res.body.days, 7)
  assert.equal(res.body.party, 2)
})

for (const date of ['2026-02-30', '2026-13-01', '2027-02-29', '2026-06-31', '2026-00-10', '2026-6-2', '02/06/2026', '2026-06-02T00:00:00Z', '+02026-06-02']) {
  test(`date=${date} on GET /availability is 400 validation_failed naming date`, async (t) => {
    const service = await build(t)
    const res = await get(service, `tour=alfama-walk&date=${encodeURIComponent(date)}`)
    assertValidationFailed(res, 'date', service, 'GET', '/availability')
  })
}

test('an impossible start on POST /booking (30 February, hour 25) is 400 validation_failed naming start', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  for (const start of ['2026-02-30T08:30:00Z', '2026-06-02T25:30:00Z', '2026-06-02T08:61:00Z', '2026-06-02 08:30']) {
    const res = await unchanged(service, () => send(service, 'POST', '/booking', { ...HOLD, start }, v.headers))
    assertValidationFailed(res, 'start', service, 'POST', '/booking')
  }
})

test('SQL and HTML injection in the checkout name is stored and returned verbatim as JSON, and no table is dropped', async (t) => {
  const service = await build(t)
  const tables = await tableNames(service)
  for (const name of INJECTIONS) {
    const v = await holder(service)
    const res = await send(service, 'POST', '/checkout', { name, email: 'ana@example.pt' }, v.headers)
    assertInertJson(res)
    assert.equal(res.body.contact.name, name)
    assert.equal(res.text.includes(JSON.stringify(name).slice(1, -1)), true, 'the JSON text carries the value as a JSON string')
    const row = await bookingRow(service, v.bookingId)
    assert.equal(row.contact_name, name)
    assert.equal(row.status, 'confirmed')
  }
  await assertTablesIntact(service, tables)
})

test('SQL and HTML injection in the contact message and name is stored verbatim and answered as JSON', async (t) => {
  const service = await build(t)
  const tables = await tableNames(service)
  for (const text of INJECTIONS) {
    const res = await send(service, 'POST', '/contact', { message: text, name: text })
    assertInertJson(res)
    assert.equal(res.body.status, 'received')
    const row = await service.context.store.db.selectFrom('contact_messages').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow()
    assert.equal(row.message, text)
    assert.equal(row.name, text)
    assert.equal(row.spam, 0)
  }
  await assertTablesIntact(service, tables)
})

test('SQL and HTML injection in the newsletter name is stored verbatim and answered as JSON', async (t) => {
  const service = await build(t)
  const tables = await tableNames(service)
  for (const [i, name] of INJECTIONS.entries()) {
    const email = `reader${i}@example.pt`
    const res = await send(service, 'POST', '/newsletter', { email, name })
    assertInertJson(res)
    assert.deepEqual(res.body, { status: 'subscribed' })
    const signup = await service.context.store.db.selectFrom('newsletter_signups').selectAll().where('email', '=', email).executeTakeFirstOrThrow()
    assert.equal(signup.name, name)
    const subscriber = await service.context.store.db.selectFrom('newsletter_subscribers').selectAll().where('email', '=', email).executeTakeFirstOrThrow()
    assert.equal(subscriber.name, name)
  }
  await assertTablesIntact(service, tables)
})

test('SQL and HTML injection in referral_code on a hold is stored and returned verbatim', async (t) => {
  const service = await build(t)
  const tables = await tableNames(service)
  for (const referral of INJECTIONS) {
    const v = await visitor(service)
    const res = await send(service, 'POST', '/booking', { ...HOLD, referral_code: referral }, v.headers)
    assertInertJson(res)
    assert.equal(res.body.referral_code, referral)
    assert.equal((await bookingRow(service, res.body.id)).referral_code, referral)
  }
  await assertTablesIntact(service, tables)
})

test('SQL and HTML injection as a promo_code is 422 invalid_promo_code and changes nothing', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  const tables = await tableNames(service)
  for (const promo of INJECTIONS) {
    const res = await unchanged(service, () => send(service, 'POST', '/booking', { ...HOLD, promo_code: promo }, v.headers))
    assertProblem(res, 422, 'invalid_promo_code', service, 'POST', '/booking')
    assert.ok(!res.text.includes('<script>'), 'the problem does not echo markup')
  }
  await assertTablesIntact(service, tables)
})

test('injection strings as the tour search q are answered as JSON and find nothing', async (t) => {
  const service = await build(t)
  for (const q of INJECTIONS) {
    const res = await raw(service, { method: 'GET', path: `${BASE}/tours?q=${encodeURIComponent(q)}` })
    assertInertJson(res)
    assert.equal(res.body.q, q)
    assert.equal(res.body.total, 0)
    assert.deepEqual(res.body.tours, [])
  }
})

test('an injection string as the tour id of a hold is 404 tour_not_found and changes nothing', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  const res = await unchanged(service, () => send(service, 'POST', '/booking', { ...HOLD, tour_id: "alfama-walk' OR '1'='1" }, v.headers))
  assertProblem(res, 404, 'tour_not_found', service, 'POST', '/booking')
})

for (const email of ['a@b.pt\r\nBcc: x@y.z', 'a@b.pt\nBcc: x@y.z', 'a@b.pt\rBcc: x@y.z', '\r\na@b.pt']) {
  const label = JSON.stringify(email)
  test(`CR/LF in the checkout email ${label} is 400 validation_failed naming email; the hold stays held`, async (t) => {
    const service = await build(t)
    const v = await holder(service)
    const res = await unchanged(service, () => send(service, 'POST', '/checkout', { name: 'Ana', email }, v.headers))
    assertValidationFailed(res, 'email', service, 'POST', '/checkout')
    assert.equal((await bookingRow(service, v.bookingId)).status, 'held')
  })

  test(`CR/LF in the newsletter email ${label} is 400 validation_failed naming email`, async (t) => {
    const service = await build(t)
    await holder(service)
    const res = await unchanged(service, () => send(service, 'POST', '/newsletter', { email }))
    assertValidationFailed(res, 'email', service, 'POST', '/newsletter')
  })

  test(`CR/LF in the contact email ${label} is 400 validation_failed naming email`, async (t) => {
    const service = await build(t)
    const res = await unchanged(service, () => send(service, 'POST', '/contact', { message: 'hi', email }))
    assertValidationFailed(res, 'email', service, 'POST', '/contact')
  })
}

test('a checkout email that is valid after CR/LF is rejected is still accepted (the email rule is not over-broad)', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  const res = await send(service, 'POST', '/checkout', CHECKOUT, v.headers)
  assert.equal(res.status, 200, res.text)
  assert.equal(res.body.contact.email, CHECKOUT.email)
})
