import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build } from '../helpers/build.ts'
import { mailSink } from '../helpers/smtp.ts'
import { ALFAMA_TUE, guestBooking, keyOf } from './bookings-fixtures.ts'

// Email status honesty (issue 25, item 4): GET /me says whether the service sends email at
// all, and GET /emails/status whether the newest message tried went out, for Settings.

test('without SMTP_URL email is off: /me says so, and the status has no attempt though messages are kept', async (t) => {
  const service = await build(t)
  const manager = await keyOf(service, 'manager')
  assert.equal((await manager.get('/me')).body.email_enabled, false)
  await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 })
  await service.context.scheduler.runNow('emails')
  assert.ok((await manager.get('/emails')).body.emails.length > 0, 'messages are kept as not_sent')
  assert.deepEqual((await manager.get('/emails/status')).body, { enabled: false, last_attempt: null })
  const staff = await keyOf(service, 'staff')
  assert.equal((await staff.get('/emails/status')).status, 403, 'managers only')
  assert.equal((await staff.get('/me')).body.email_enabled, false, 'everyone signed in learns whether guests are emailed')
})

test('with SMTP_URL the status tells whether the newest attempt worked, and why not', async (t) => {
  const sink = await mailSink()
  t.after(sink.close)
  const service = await build(t, { email: { smtpUrl: sink.url } })
  const manager = await keyOf(service, 'manager')
  assert.equal((await manager.get('/me')).body.email_enabled, true)
  assert.deepEqual((await manager.get('/emails/status')).body, { enabled: true, last_attempt: null })
  const { booking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 })
  await service.context.scheduler.runNow('emails')
  await service.context.scheduler.runNow('email-sending')
  const worked = (await manager.get('/emails/status')).body
  assert.equal(worked.last_attempt.worked, true, JSON.stringify(worked))
  assert.deepEqual([worked.last_attempt.state, worked.last_attempt.reason, worked.last_attempt.to], ['sent', null, 'ana@example.pt'])

  // The mail server goes away: the next message is not taken, and the status says so.
  await sink.close()
  service.clock.advance({ seconds: 1 })
  assert.equal((await manager.post(`/bookings/${booking.code}/resend-confirmation`)).status, 202)
  await service.context.scheduler.runNow('email-sending')
  const failed = (await manager.get('/emails/status')).body.last_attempt
  assert.equal(failed.worked, false, JSON.stringify(failed))
  assert.equal(failed.kind, 'confirmation_resent')
  assert.ok(['queued', 'failed'].includes(failed.state))
  assert.ok(typeof failed.reason === 'string' && failed.reason.length > 0, 'the reason is given')
})
