import assert from 'node:assert/strict'
import { test, type TestContext } from 'node:test'
import { SMTPServer } from 'smtp-server'
import { build, demoCatalog, type TestService } from '../helpers/build.ts'
import type { EmailSettings } from '../../src/notify/email-outbox.ts'
import { CONTACT } from '../helpers/booking-fixtures.ts'
import { mailSink } from '../helpers/smtp.ts'
import { RELAY_CERT, RELAY_KEY } from '../helpers/self-signed-relay.ts'
import { ALFAMA_TUE, guestBooking, keyOf } from '../admin/bookings-fixtures.ts'

const OPERATOR = 'ops@tours.example'

interface Line { details: Record<string, unknown>, message: string }

/** A service emailing through `smtpUrl`, whose warnings are kept in `lines`. */
async function serviceSendingTo(t: TestContext, smtpUrl: string, smtpTls?: EmailSettings['smtpTls']): Promise<{ service: TestService, lines: Line[] }> {
  const lines: Line[] = []
  const catalog = demoCatalog()
  catalog.instances.find((i: { prefix: string }) => i.prefix === 'lisbon').operator_emails = [OPERATOR]
  const service = await build(t, {
    catalog, email: { smtpUrl, smtpTls }, contextLog: { warn: (details, message) => lines.push({ details: details as Record<string, unknown>, message }) },
  })
  return { service, lines }
}

async function deliverEmails(service: TestService): Promise<void> {
  await service.context.scheduler.runNow('emails')
  await service.context.scheduler.runNow('email-sending')
}

const failures = (lines: Line[]) => lines.filter((l) => l.message.startsWith('email to '))

async function emailLog(service: TestService): Promise<{ to: string, state: string, state_reason: string | null }[]> {
  return (await (await keyOf(service, 'manager')).get('/emails')).body.emails
}

test('a relay with a self-signed certificate: each message stays queued with the TLS failure named, and the log says so once per mail server and hour', async (t) => {
  const relay = await mailSink({ tls: { cert: RELAY_CERT, key: RELAY_KEY } })
  t.after(relay.close)
  const { service, lines } = await serviceSendingTo(t, relay.url)
  await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 })
  await deliverEmails(service)

  assert.equal(relay.messages.length, 0)
  const log = await emailLog(service)
  assert.deepEqual(log.map((e) => e.to).sort(), [CONTACT.email, OPERATOR].sort(), 'the confirmation and the operator alert')
  for (const email of log) {
    assert.equal(email.state, 'queued', 'retried later')
    assert.match(email.state_reason!, /^TLS failed: the mail server's certificate was not accepted \(self-signed certificate, DEPTH_ZERO_SELF_SIGNED_CERT\); .*SMTP_TLS_CA_FILE/)
    assert.doesNotMatch(email.state_reason!, /no answer/)
  }
  const port = new URL(relay.url).port
  assert.equal(failures(lines).length, 1, 'two messages through one failing server: one line')
  const [first] = failures(lines)
  assert.equal(first.details.mail_server, `127.0.0.1:${port}`)
  assert.equal(first.details.failure, 'tls')
  assert.match(String(first.details.reason), /self-signed certificate/)
  assert.ok(first.message.includes(`not sent through 127.0.0.1:${port}`) && first.message.includes('TLS failed'), first.message)
  assert.ok(!JSON.stringify(lines).includes(CONTACT.email), 'a recipient is named by its domain only')

  // The retries 1 and 6 minutes later fail alike: still one line within the hour.
  for (const minutes of [1, 6]) {
    service.clock.advance({ minutes, seconds: 1 })
    await deliverEmails(service)
  }
  assert.equal(failures(lines).length, 1)
  // The next retry, 30 minutes after that, is still within the hour; the one after it (2 hours on) is not.
  service.clock.advance({ minutes: 31 })
  await deliverEmails(service)
  assert.equal(failures(lines).length, 1)
  service.clock.advance({ hours: 2, minutes: 1 })
  await deliverEmails(service)
  const again = failures(lines)
  assert.equal(again.length, 2, 'a new hour, a new line')
  assert.equal(again[1].details.failed_since_last_line, 7, 'the failures it did not log: the second message at first, then both at each of three retries')
})

for (const [name, smtpTls] of [
  ['SMTP_TLS_CA_FILE holding the relay\'s certificate', { rejectUnauthorized: true, ca: RELAY_CERT }],
  ['SMTP_TLS_REJECT_UNAUTHORIZED=off', { rejectUnauthorized: false, ca: null }],
] as const) {
  test(`${name}: the same relay takes the messages over TLS`, async (t) => {
    const relay = await mailSink({ tls: { cert: RELAY_CERT, key: RELAY_KEY } })
    t.after(relay.close)
    const { service, lines } = await serviceSendingTo(t, relay.url, smtpTls)
    await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 })
    await deliverEmails(service)
    assert.equal(relay.messages.length, 2)
    assert.deepEqual((await emailLog(service)).map((e) => e.state), ['sent', 'sent'])
    assert.deepEqual(failures(lines), [])
  })
}

test('a recipient the relay refuses (550) fails for good, named by the answer, and is logged by the recipient\'s domain', async (t) => {
  const relay = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'], authOptional: true, logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address !== OPERATOR) return callback(Object.assign(new Error('5.1.1 no such mailbox here'), { responseCode: 550 }))
      callback()
    },
    onData(stream, _session, callback) {
      stream.resume()
      stream.on('end', () => callback())
    },
  })
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve))
  t.after(() => new Promise<void>((resolve) => relay.close(() => resolve())))
  const { service, lines } = await serviceSendingTo(t, `smtp://127.0.0.1:${(relay.server.address() as { port: number }).port}`)
  await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 })
  await deliverEmails(service)

  const guest = (await emailLog(service)).find((e) => e.to === CONTACT.email)!
  assert.equal(guest.state, 'failed')
  assert.match(guest.state_reason!, /^the mail server answered 550 to RCPT TO: .*no such mailbox here/)
  const [line] = failures(lines)
  assert.equal(failures(lines).length, 1)
  assert.deepEqual([line.details.failure, line.details.recipient_domain, line.details.retry_at], ['refused', CONTACT.email.split('@')[1], null])
  assert.match(line.message, /given up/)
})

test('a mail server that is not there: "could not reach", not "no answer"', async (t) => {
  const gone = await mailSink()
  await gone.close()
  const { service, lines } = await serviceSendingTo(t, gone.url)
  await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 })
  await deliverEmails(service)
  for (const email of await emailLog(service)) assert.match(email.state_reason!, /^could not reach the mail server: connect ECONNREFUSED/)
  assert.equal(failures(lines).length, 1)
  assert.equal(failures(lines)[0].details.failure, 'connect')
})
