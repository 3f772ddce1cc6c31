import assert from 'node:assert/strict'
import { test, type TestContext } from 'node:test'
import { build } from '../helpers/build.ts'
import {
  assertProblem, assertValidationFailed, BASE, bookingRow, HOLD, holder, raw, seatsTaken, send, unchanged, visitor,
} from './raw-http.ts'

// Hostile request bodies over real HTTP: sizes, encodings, JSON shapes, types, media types.
// Every case runs against a session that already holds seats, so "nothing changed" is
// checked against a database that has something in it.

const KIB = 1024

test('a body over 64 KiB with Content-Length is refused with 413 payload_too_large and nothing changes', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  const body = JSON.stringify({ ...HOLD, referral_code: 'x'.repeat(70 * KIB) })
  const res = await unchanged(service, () => send(service, 'POST', '/booking', body, v.headers))
  assertProblem(res, 413, 'payload_too_large', service, 'POST', '/booking')
})

test('a body over 64 KiB streamed chunked without Content-Length is refused with 413 payload_too_large', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  const text = JSON.stringify({ message: 'y'.repeat(80 * KIB) })
  const bytes = Buffer.from(text)
  const chunks: Buffer[] = []
  for (let i = 0; i < bytes.length; i += 4 * KIB) chunks.push(bytes.subarray(i, i + 4 * KIB))
  const res = await unchanged(service, () => raw(service, {
    method: 'POST', path: `${BASE}/contact`, headers: { 'content-type': 'application/json', ...v.headers }, chunks,
  }))
  assertProblem(res, 413, 'payload_too_large', service, 'POST', '/contact')
})

test('a body of exactly 64 KiB is read (it fails validation, not the size limit)', async (t) => {
  const service = await build(t)
  const prefix = '{"message":"'
  const suffix = '"}'
  const body = prefix + 'z'.repeat(64 * KIB - prefix.length - suffix.length) + suffix
  assert.equal(Buffer.byteLength(body), 64 * KIB)
  const res = await unchanged(service, () => send(service, 'POST', '/contact', body))
  assertValidationFailed(res, 'message', service, 'POST', '/contact')
})

test('413 outranks 415: an oversized text/plain body is 413 payload_too_large', async (t) => {
  const service = await build(t)
  const res = await unchanged(service, () => raw(service, {
    method: 'POST', path: `${BASE}/contact`, headers: { 'content-type': 'text/plain' }, body: 'm'.repeat(70 * KIB),
  }))
  assertProblem(res, 413, 'payload_too_large', service, 'POST', '/contact')
})

test('413 outranks 403: an oversized hold without a CSRF token is 413 payload_too_large', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  const body = JSON.stringify({ ...HOLD, referral_code: 'x'.repeat(70 * KIB) })
  const res = await unchanged(service, () => send(service, 'POST', '/booking', body, { 'x-session': v.session }))
  assertProblem(res, 413, 'payload_too_large', service, 'POST', '/booking')
})

test('request headers over 16 KiB are refused with 431 headers_too_large as problem+json', async (t) => {
  const service = await build(t)
  await holder(service)
  const res = await unchanged(service, () => raw(service, {
    method: 'GET', path: `${BASE}/tours`, headers: { 'x-padding': 'p'.repeat(20 * KIB) },
  }))
  assertProblem(res, 431, 'headers_too_large')
})

test('headers well under 16 KiB are accepted (the 431 limit is not lower than documented)', async (t) => {
  const service = await build(t)
  const res = await raw(service, { method: 'GET', path: `${BASE}/tours`, headers: { 'x-padding': 'p'.repeat(12 * KIB) } })
  assert.equal(res.status, 200, res.text)
})

test('malformed JSON on POST /booking with a valid CSRF token is 400 invalid_json', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  for (const body of ['{"tour_id":"alfama-walk",', '{tour_id:"alfama-walk"}', "{'party':2}", '{"party":02}', 'NaN', '{"party":2,}']) {
    const res = await unchanged(service, () => send(service, 'POST', '/booking', body, v.headers))
    assertProblem(res, 400, 'invalid_json', service, 'POST', '/booking')
  }
})

test('a BOM-prefixed JSON body is 400 invalid_json', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(HOLD))])
  const res = await unchanged(service, () => send(service, 'POST', '/booking', body, v.headers))
  assertProblem(res, 400, 'invalid_json', service, 'POST', '/booking')
})

test('trailing garbage after a valid JSON object is 400 invalid_json', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  for (const tail of [' x', '{}', '\u0000', '}', ';DROP TABLE bookings']) {
    const res = await unchanged(service, () => send(service, 'POST', '/booking', JSON.stringify(HOLD) + tail, v.headers))
    assertProblem(res, 400, 'invalid_json', service, 'POST', '/booking')
  }
})

test('an empty or whitespace-only application/json body on POST /booking is 400 invalid_json', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  for (const body of ['', '   \r\n ']) {
    const res = await unchanged(service, () => send(service, 'POST', '/booking', body, v.headers))
    assertProblem(res, 400, 'invalid_json', service, 'POST', '/booking')
  }
})

test('bytes that are not UTF-8 (0xff 0xfe) inside a string are 400 invalid_json', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  const body = Buffer.concat([Buffer.from('{"tour_id":"alfama-walk","start":"2026-06-02T08:30:00Z","party":2,"referral_code":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')])
  const res = await unchanged(service, () => send(service, 'POST', '/booking', body, v.headers))
  assertProblem(res, 400, 'invalid_json', service, 'POST', '/booking')
})

test('Latin-1 bytes (0xe9 for é) in a contact message are 400 invalid_json, not silently decoded', async (t) => {
  const service = await build(t)
  const body = Buffer.concat([Buffer.from('{"message":"caf'), Buffer.from([0xe9]), Buffer.from('"}')])
  const res = await unchanged(service, () => send(service, 'POST', '/contact', body))
  assertProblem(res, 400, 'invalid_json', service, 'POST', '/contact')
})

/** Each hold body is 400 invalid_json and changes nothing. */
async function holdsAreInvalidJson(t: TestContext, bodies: string[]): Promise<void> {
  const service = await build(t)
  const v = await holder(service)
  for (const body of bodies) {
    const res = await unchanged(service, () => send(service, 'POST', '/booking', body, v.headers))
    assertProblem(res, 400, 'invalid_json', service, 'POST', '/booking')
  }
}

test('a lone surrogate escape ("\\ud800") in a value or a key is 400 invalid_json', async (t) => {
  await holdsAreInvalidJson(t, [
    '{"tour_id":"alfama-walk","start":"2026-06-02T08:30:00Z","party":2,"referral_code":"\\ud800"}',
    '{"tour_id":"alfama-walk","start":"2026-06-02T08:30:00Z","party":2,"referral_code":"a\\udc00b"}',
    '{"tour_id":"alfama-walk","start":"2026-06-02T08:30:00Z","party":2,"addons":{"\\ud800":1}}',
  ])
})

test('a key with a bad escape or a raw control character is 400 invalid_json; an escaped duplicate key is still a duplicate', async (t) => {
  await holdsAreInvalidJson(t, [
    '{"tour_id":"alfama-walk","start":"2026-06-02T08:30:00Z","party":2,"addons":{"a\\x":1}}',
    '{"tour_id":"alfama-walk","start":"2026-06-02T08:30:00Z","party":2,"addons":{"a\u0001b":1}}',
    '{"tour_id":"alfama-walk","start":"2026-06-02T08:30:00Z","party":2,"par\\u0074y":3}',
  ])
})

test('a correctly paired surrogate escape (an emoji) is accepted and stored as that character', async (t) => {
  const service = await build(t)
  const v = await visitor(service)
  const res = await send(service, 'POST', '/booking', '{"tour_id":"alfama-walk","start":"2026-06-02T08:30:00Z","party":2,"referral_code":"\\ud83d\\ude00"}', v.headers)
  assert.equal(res.status, 200, res.text)
  assert.equal((await bookingRow(service, res.body.id)).referral_code, '\u{1F600}')
})

test('5,000-deep nesting is 400 invalid_json and the server keeps answering', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  for (const body of [
    '['.repeat(5000) + ']'.repeat(5000),
    `{"tour_id":"alfama-walk","start":"2026-06-02T08:30:00Z","party":2,"addons":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`,
  ]) {
    const res = await unchanged(service, () => send(service, 'POST', '/booking', body, v.headers))
    assertProblem(res, 400, 'invalid_json', service, 'POST', '/booking')
  }
  const alive = await raw(service, { method: 'GET', path: `${BASE}/tours` })
  assert.equal(alive.status, 200)
})

test('a __proto__ key is 400 validation_failed naming it, and Object.prototype is not polluted', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  for (const body of [
    `{"__proto__":{"polluted":1},${JSON.stringify(HOLD).slice(1)}`,
    `{"__pro\\u0074o__":{"polluted":1},${JSON.stringify(HOLD).slice(1)}`,
    `{"tour_id":"alfama-walk","start":"2026-06-02T08:30:00Z","party":2,"addons":{"__proto__":{"polluted":1}}}`,
  ]) {
    const res = await unchanged(service, () => send(service, 'POST', '/booking', body, v.headers))
    assertValidationFailed(res, '__proto__', service, 'POST', '/booking')
  }
  assert.equal(({} as any).polluted, undefined)
  assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false)
})

test('a constructor.prototype key is 400 validation_failed and Object.prototype is not polluted', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  for (const path of ['/booking', '/contact', '/newsletter']) {
    const res = await unchanged(service, () => send(service, 'POST', path, '{"constructor":{"prototype":{"polluted":1}}}', v.headers))
    assertValidationFailed(res, 'constructor', service, 'POST', path)
  }
  assert.equal(({} as any).polluted, undefined)
})

test('403 outranks validation_failed for a __proto__ key: without a CSRF token it is 403 csrf_missing', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  const body = `{"__proto__":{"polluted":1},${JSON.stringify(HOLD).slice(1)}`
  const res = await unchanged(service, () => send(service, 'POST', '/booking', body, { 'x-session': v.session }))
  assertProblem(res, 403, 'csrf_missing', service, 'POST', '/booking')
})

test('mass assignment of status, price or id on a hold is 400 validation_failed naming the field', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  for (const [field, value] of [['status', 'confirmed'], ['price', 0], ['id', 'x'], ['quarantined', 0], ['code', 'ABC123'], ['total', 0]] as const) {
    const res = await unchanged(service, () => send(service, 'POST', '/booking', { ...HOLD, [field]: value }, v.headers))
    assertValidationFailed(res, field, service, 'POST', '/booking')
  }
})

test('mass assignment of status or price on checkout is 400 validation_failed and the hold stays held', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  for (const [field, value] of [['status', 'confirmed'], ['price', { total: 0 }], ['id', 'x']] as const) {
    const res = await unchanged(service, () => send(service, 'POST', '/checkout', { name: 'Ana', email: 'ana@example.pt', [field]: value }, v.headers))
    assertValidationFailed(res, field, service, 'POST', '/checkout')
  }
  assert.equal((await bookingRow(service, v.bookingId)).status, 'held')
})

test('duplicate keys in one object are 400 invalid_json', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  for (const body of [
    '{"tour_id":"alfama-walk","start":"2026-06-02T08:30:00Z","party":2,"party":3}',
    '{"tour_id":"alfama-walk","start":"2026-06-02T08:30:00Z","party":2,"p\\u0061rty":3}',
    '{"tour_id":"alfama-walk","start":"2026-06-02T08:30:00Z","party":2,"addons":{"a":1,"a":2}}',
  ]) {
    const res = await unchanged(service, () => send(service, 'POST', '/booking', body, v.headers))
    assertProblem(res, 400, 'invalid_json', service, 'POST', '/booking')
  }
})

for (const [label, literal] of [
  ['the string "2"', '"2"'], ['2.5', '2.5'], ['true', 'true'], ['null', 'null'], ['1e309', '1e309'],
  ['0', '0'], ['-1', '-1'], ['2^53+1', '9007199254740993'], ['an array', '[2]'], ['an object', '{"n":2}'],
] as const) {
  test(`party as ${label} is 400 validation_failed naming party, and takes no seat`, async (t) => {
    const service = await build(t)
    const v = await holder(service)
    const body = `{"tour_id":"alfama-walk","start":"2026-06-02T08:30:00Z","party":${literal}}`
    const res = await unchanged(service, () => send(service, 'POST', '/booking', body, v.headers))
    assertValidationFailed(res, 'party', service, 'POST', '/booking')
    assert.equal(await seatsTaken(service), 2)
  })
}

for (const contentType of [
  'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=xyz', 'application/json; charset=latin1',
  'application/json; charset=utf-16', 'text/json', 'application/jsonx', 'application/json-patch+json',
]) {
  test(`Content-Type ${contentType} on POST /booking is 415 unsupported_media_type`, async (t) => {
    const service = await build(t)
    const v = await holder(service)
    const body = contentType.startsWith('application/x-www-form-urlencoded') ? 'tour_id=alfama-walk&start=2026-06-02T08%3A30%3A00Z&party=2'
      : contentType.startsWith('multipart/') ? '--xyz\r\nContent-Disposition: form-data; name="party"\r\n\r\n2\r\n--xyz--\r\n'
        : JSON.stringify(HOLD)
    const res = await unchanged(service, () => raw(service, { method: 'POST', path: `${BASE}/booking`, headers: { ...v.headers, 'content-type': contentType }, body }))
    assertProblem(res, 415, 'unsupported_media_type', service, 'POST', '/booking')
  })
}

test('a form post to /contact, /newsletter or /checkout (what a cross-site HTML form can send) is 415', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  for (const [path, body] of [['/contact', 'message=hi'], ['/newsletter', 'email=a%40example.pt'], ['/checkout', 'name=Ana&email=ana%40example.pt']]) {
    const res = await unchanged(service, () => raw(service, {
      method: 'POST', path: `${BASE}${path}?session=${v.session}`, headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `sid=${v.session}` }, body,
    }))
    assertProblem(res, 415, 'unsupported_media_type', service, 'POST', path)
  }
})

test('a body with no Content-Type at all is 415 unsupported_media_type', async (t) => {
  const service = await build(t)
  const v = await holder(service)
  const res = await unchanged(service, () => raw(service, { method: 'POST', path: `${BASE}/booking`, headers: v.headers, body: JSON.stringify(HOLD) }))
  assertProblem(res, 415, 'unsupported_media_type', service, 'POST', '/booking')
})

test('application/json; charset=utf-8 (any case) is accepted', async (t) => {
  const service = await build(t)
  const v = await visitor(service)
  for (const contentType of ['application/json; charset=utf-8', 'Application/JSON; Charset="UTF-8"']) {
    const res = await raw(service, { method: 'POST', path: `${BASE}/booking`, headers: { ...v.headers, 'content-type': contentType }, body: JSON.stringify(HOLD) })
    assert.equal(res.status, 200, `${contentType}: ${res.text}`)
  }
})
