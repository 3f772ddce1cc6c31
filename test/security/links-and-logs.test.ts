import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { test } from 'node:test'
import { pino } from 'pino'
import { build } from '../helpers/build.ts'
import { apiKeyClient } from '../helpers/operator.ts'
import { BASE, CHECKOUT, exchange, holder, raw } from './raw-http.ts'

// Links in answers come from TOURDESK_PUBLIC_URL, never from the request's Host, and the
// request log never keeps a token that was in a URL.
const PUBLIC_URL = 'https://book.alfama-tejo.example'
const FORGED = { host: 'evil.example', 'x-forwarded-host': 'evil.example' }

test('a setup link and a manage link are on TOURDESK_PUBLIC_URL whatever Host the request names', async (t) => {
  const service = await build(t, { email: { publicUrl: PUBLIC_URL }, trustProxy: true })
  const { secret } = await apiKeyClient(service, 'manager')
  const added = await raw(service, {
    method: 'POST',
    path: '/admin/api/lisbon/staff',
    headers: { ...FORGED, authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'rita@example.pt', name: 'Rita', role: 'guide' }),
  })
  assert.equal(added.status, 201, added.text)
  assert.equal(new URL(added.body.setup_link).origin, PUBLIC_URL)

  const guest = await holder(service)
  const booked = await raw(service, {
    method: 'POST', path: `${BASE}/checkout`, headers: { ...guest.headers, ...FORGED, 'content-type': 'application/json' }, body: JSON.stringify(CHECKOUT),
  })
  assert.equal(booked.status, 200, booked.text)
  assert.equal(new URL(booked.body.manage_url).origin, PUBLIC_URL)
  const read = await raw(service, { method: 'GET', path: `${BASE}/booking?session=${guest.session}`, headers: FORGED })
  assert.equal(new URL(read.body.manage_url).origin, PUBLIC_URL)
})

test('with the request log on, tokens in URLs are logged as [redacted]', async (t) => {
  const lines: string[] = []
  const sink = new Writable({ write(chunk, _encoding, done) { lines.push(...String(chunk).split('\n').filter(Boolean)); done() } })
  const service = await build(t, { log: { loggerInstance: pino({ level: 'info' }, sink), requestLog: true } })
  const secrets = {
    newsletter: 'NewsletterSecret1234567890abcdefghij',
    action: 'ActionSecret1234567890abcdefghijklmn',
    session: 'sess_SessionSecret1234567890abcdefgh',
    fragment: 'FragmentSecret1234567890abcdefghijk',
  }
  const paths = [
    `${BASE}/newsletter/confirm?token=${secrets.newsletter}&utm=mail`,
    `/admin/lisbon/email-actions/${secrets.action}`,
    `${BASE}/booking?session=${secrets.session}`,
  ]
  for (const path of paths) await raw(service, { method: 'GET', path })
  // A manage or setup link's token is after #, which browsers never send; a hand-made request can.
  await exchange(service, `GET /book/lisbon/manage#${secrets.fragment} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)

  // The test helper reads openapi.json first, to check answers against it.
  const urls = lines.map((line) => JSON.parse(line)).filter((entry) => entry.req && !entry.req.url.endsWith('/openapi.json')).map((entry) => entry.req.url as string)
  assert.deepEqual(urls, [
    `${BASE}/newsletter/confirm?token=[redacted]&utm=mail`,
    '/admin/lisbon/email-actions/[redacted]',
    `${BASE}/booking?session=[redacted]`,
    '/book/lisbon/manage#[redacted]',
  ])
  for (const [kind, value] of Object.entries(secrets)) assert.ok(lines.every((line) => !line.includes(value)), `no ${kind} token anywhere in the log`)
})
