import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, type TestService } from '../helpers/build.ts'
import { assertProblem, BASE, exchange, raw, type RawResponse } from './raw-http.ts'

// Requests Node's HTTP layer refuses before any route runs. Each answer is a problem like
// every other, with the same security headers, and is one openapi.json documents.
const KIB = 1024

function assertHardened(res: RawResponse, label: string): void {
  assert.equal(res.headers['x-content-type-options'], 'nosniff', label)
  assert.equal(res.headers['content-security-policy'], "default-src 'none'; frame-ancestors 'none'", label)
  assert.equal(res.headers['referrer-policy'], 'no-referrer', label)
  assert.equal(res.headers['cross-origin-resource-policy'], 'same-site', label)
  assert.equal(res.headers['x-powered-by'], undefined, label)
}

/** A problem with the security headers, documented for GET /tours, and the connection closed. */
function assertRefused(service: TestService, res: RawResponse, status: number, code: string, label: string): void {
  assertProblem(res, status, code, service, 'GET', '/tours')
  assertHardened(res, label)
  assert.match(res.body.request_id, /^[0-9a-f-]{36}$/, label)
  assert.equal(String(res.headers.connection).toLowerCase(), 'close', `${label}: the connection is closed`)
}

test('an HTTP/1.1 request without a Host header is 400 bad_request as problem+json with the security headers', async (t) => {
  const service = await build(t)
  const res = await exchange(service, `GET ${BASE}/tours HTTP/1.1\r\n\r\n`)
  assertRefused(service, res, 400, 'bad_request', 'no Host')
  assert.match(res.body.detail, /Host/)
  // HTTP/1.0 has no Host requirement, and an unknown instance without Host is still refused first.
  const old = await exchange(service, `GET ${BASE}/tours HTTP/1.0\r\n\r\n`)
  assert.equal(old.status, 200, old.text)
  const nowhere = await exchange(service, 'GET /api/atlantis/tours HTTP/1.1\r\n\r\n')
  assertProblem(nowhere, 400, 'bad_request')
})

test('an Expect other than 100-continue is 417 expectation_failed as problem+json, and Expect: 100-continue still works', async (t) => {
  const service = await build(t)
  const res = await exchange(service, `GET ${BASE}/tours HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: something-else\r\n\r\n`)
  assertRefused(service, res, 417, 'expectation_failed', 'Expect: something-else')

  const body = '{}'
  const continued = await exchange(service, `POST ${BASE}/session HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\n`
    + `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`)
  assert.equal(continued.status, 200, continued.text)
  assert.match(continued.body.session, /^[a-z0-9]{12}$/)
})

test('request headers over 16 KiB are 431 headers_too_large with the security headers', async (t) => {
  const service = await build(t)
  const res = await raw(service, { method: 'GET', path: `${BASE}/tours`, headers: { 'x-padding': 'p'.repeat(20 * KIB) } })
  assertRefused(service, res, 431, 'headers_too_large', '431')
})

test('a request the parser cannot read (bad request line, bad method, smuggling-shaped framing) is 400 bad_request with the security headers', async (t) => {
  const service = await build(t)
  const requests = [
    'GARBAGE\r\n\r\n',
    `GET ${BASE}/tours HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n`,
    `G@T ${BASE}/tours HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
    `GET ${BASE}/tours HTTP/1.1\r\nHost: 127.0.0.1\r\nbad header\r\n\r\n`,
    `POST ${BASE}/contact HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n`,
  ]
  for (const request of requests) {
    const res = await exchange(service, request)
    assertRefused(service, res, 400, 'bad_request', JSON.stringify(request.split('\r\n')[0]))
  }
})

test('CONNECT is answered 400 bad_request as problem+json, not with a silent close', async (t) => {
  const service = await build(t)
  const res = await exchange(service, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n')
  assertRefused(service, res, 400, 'bad_request', 'CONNECT')
})
