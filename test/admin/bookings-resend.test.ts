import assert from 'node:assert/strict'
import { test, type TestContext } from 'node:test'
import ical, { type VEvent } from 'node-ical'
import type { ParsedMail } from 'mailparser'
import { build, demoCatalog, type TestService } from '../helpers/build.ts'
import { CONTACT } from '../helpers/booking-fixtures.ts'
import { mailSink, type MailSink } from '../helpers/smtp.ts'
import { ALFAMA_TUE, auditEntries, contractChecked, FADO_TUE, guestBooking, keyOf } from './bookings-fixtures.ts'
import { signedInStaff } from '../helpers/operator.ts'

// POST /bookings/{code}/resend-confirmation and GET /bookings/{code}/emails, over real HTTP
// (SQLite, or PostgreSQL under TEST_DATABASE_URL), every answer checked against openapi.json.

function catalogWith(settings: Record<string, unknown>) {
  const catalog = demoCatalog()
  Object.assign(catalog.instances.find((i: { prefix: string }) => i.prefix === 'lisbon'), settings)
  return catalog
}

async function withMail(t: TestContext, settings: Record<string, unknown> = {}): Promise<{ service: TestService, sink: MailSink }> {
  const sink = await mailSink()
  t.after(sink.close)
  const service = await build(t, { catalog: catalogWith({ operator_emails: ['ops@tours.example'], ...settings }), email: { smtpUrl: sink.url } })
  return { service, sink }
}

async function deliverEmails(service: TestService): Promise<void> {
  await service.context.scheduler.runNow('emails')
  await service.context.scheduler.runNow('email-sending')
}

const to = (mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to[0] : mail.to)!.value[0].address
function calendarOf(mail: ParsedMail): VEvent {
  const attachment = mail.attachments.find((a) => a.contentType.startsWith('text/calendar'))
  assert.ok(attachment, `${mail.subject} carries a calendar`)
  return Object.values(ical.sync.parseICS(attachment.content.toString('utf8'))).find((c) => c?.type === 'VEVENT') as VEvent
}

test('a resend queues a copy of the confirmation, the same message and calendar event, to the guest; listed, audited, the booking unchanged', async (t) => {
  const { service, sink } = await withMail(t)
  const { booking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 })
  await deliverEmails(service)
  const original = sink.messages.find((m) => to(m) === CONTACT.email && m.subject!.startsWith('Booking confirmed'))!
  assert.ok(original, 'the original confirmation went')

  const { client: staff } = await signedInStaff(service, 'staff')
  await contractChecked(staff)
  const version = (await staff.get(`/bookings/${booking.code}`)).body.version
  const resent = await staff.post(`/bookings/${booking.code}/resend-confirmation`)
  assert.equal(resent.status, 202, resent.text)
  assert.equal(resent.body.kind, 'confirmation_resent')
  assert.equal(resent.body.to, CONTACT.email)
  assert.equal(resent.body.booking_id, booking.id)
  assert.equal(resent.body.state, 'queued')
  assert.equal(resent.body.has_calendar, true)
  assert.equal(resent.body.subject, original.subject)

  await service.context.scheduler.runNow('email-sending')
  const copies = sink.messages.filter((m) => to(m) === CONTACT.email && m.subject === original.subject)
  assert.equal(copies.length, 2, 'the copy arrived')
  const copy = copies[1]
  assert.equal(copy.text, original.text, 'the same words, the same manage link')
  const [first, again] = [calendarOf(original), calendarOf(copy)]
  assert.equal(again.uid, first.uid, 'the same calendar event')
  assert.equal(again.sequence, first.sequence, 'not a change of it')
  assert.equal(again.start.toISOString(), new Date(ALFAMA_TUE).toISOString())

  const viewer = await keyOf(service, 'viewer')
  const listed = await viewer.get(`/bookings/${booking.code}/emails`)
  assert.equal(listed.status, 200, listed.text)
  const [newest, ...older] = listed.body.emails.map((e: { kind: string }) => e.kind)
  assert.equal(newest, 'confirmation_resent', 'newest first')
  assert.deepEqual(older.sort(), ['booking_confirmed', 'new_booking'], "the guest's and the operator's")
  assert.ok(listed.body.emails.every((e: Record<string, unknown>) => !('text' in e)), 'no bodies: they carry the manage link')
  assert.equal(listed.body.emails[0].state, 'sent')
  assert.equal((await viewer.post(`/bookings/${booking.code}/resend-confirmation`)).status, 403, 'a viewer may not resend')
  const manager = await keyOf(service, 'manager')
  const log = await manager.get(`/emails?booking=${booking.code}`)
  assert.equal(log.body.emails[0].id, resent.body.id)

  const [entry] = (await auditEntries(service, booking.id)).filter((e) => e.action === 'booking.confirmation_resent')
  assert.ok(entry, 'audited')
  assert.equal(entry.actor_type, 'staff')
  assert.deepEqual(JSON.parse(entry.after!), { email_id: resent.body.id, to: CONTACT.email, state: 'queued', state_reason: null })
  const detail = await staff.get(`/bookings/${booking.code}`)
  assert.equal(detail.body.version, version, 'the booking did not change')
  assert.deepEqual(detail.body.history.map((h: { from: string | null, to: string, action: string | null }) => [h.from, h.to, h.action]),
    [[null, 'held', null], ['held', 'confirmed', null], ['confirmed', 'confirmed', 'booking.confirmation_resent']], 'listed in the history, as no transition')
})

test('the copy goes to the contact email as corrected; an Idempotency-Key sends it once', async (t) => {
  const { service, sink } = await withMail(t)
  const { booking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1 }, { name: 'Rita Mota', email: 'rita@exmaple.pt' })
  const staff = await keyOf(service, 'staff')
  const fixed = await staff.patch(`/bookings/${booking.code}`, { contact: { email: 'rita@example.pt' } })
  assert.equal(fixed.status, 200, fixed.text)
  const once = await staff.post(`/bookings/${booking.code}/resend-confirmation`, undefined, { 'idempotency-key': 'rita-resend' })
  const twice = await staff.post(`/bookings/${booking.code}/resend-confirmation`, undefined, { 'idempotency-key': 'rita-resend' })
  assert.equal(once.status, 202, once.text)
  assert.equal(twice.status, 202)
  assert.equal(twice.headers.get('idempotent-replayed'), 'true')
  assert.equal(twice.body.id, once.body.id)
  assert.equal(once.body.to, 'rita@example.pt')
  await deliverEmails(service)
  assert.equal(sink.messages.filter((m) => to(m) === 'rita@example.pt' && m.subject!.startsWith('Booking confirmed')).length, 1)
  const kinds = (await staff.get(`/bookings/${booking.code}/emails`)).body.emails.map((e: { kind: string }) => e.kind)
  assert.equal(kinds.filter((k: string) => k === 'confirmation_resent').length, 1)
})

test('only a confirmed booking has a confirmation to resend: others are 409 invalid_transition with their status; unknown is 404', async (t) => {
  const service = await build(t)
  const staff = await keyOf(service, 'staff')
  const request = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })
  const refused = await staff.post(`/bookings/${request.booking.code}/resend-confirmation`)
  assert.equal(refused.status, 409)
  assert.deepEqual([refused.body.code, refused.body.booking_status], ['invalid_transition', 'requested'])

  const cancelled = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1 }, { name: 'Cal Cel', email: 'cal@example.pt' })
  assert.equal((await staff.post(`/bookings/${cancelled.booking.code}/cancel`, { fee: 'waived' })).status, 200)
  const late = await staff.post(`/bookings/${cancelled.booking.code}/resend-confirmation`)
  assert.equal(late.status, 409)
  assert.equal(late.body.booking_status, 'cancelled')

  assert.equal((await staff.post('/bookings/NOSUCH/resend-confirmation')).status, 404)
  assert.equal((await staff.get('/bookings/NOSUCH/emails')).status, 404)
  const none = await service.context.store.db.selectFrom('emails').select('id').where('kind', '=', 'confirmation_resent').execute()
  assert.deepEqual(none, [], 'a refusal queues nothing')
})

test('the per-recipient cap applies to a resend, and without SMTP_URL the copy is kept as not_sent', async (t) => {
  const { service, sink } = await withMail(t, { emails_per_recipient_per_hour: 2 })
  const { booking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 })
  await deliverEmails(service)
  const staff = await keyOf(service, 'staff')
  const states = []
  for (let i = 0; i < 2; i++) {
    const res = await staff.post(`/bookings/${booking.code}/resend-confirmation`)
    assert.equal(res.status, 202, res.text)
    states.push([res.body.state, res.body.state_reason])
  }
  assert.deepEqual(states, [['queued', null], ['not_sent', 'recipient_cap']])
  await deliverEmails(service)
  assert.equal(sink.messages.filter((m) => to(m) === CONTACT.email).length, 2, 'the confirmation and one copy')

  const plain = await build(t)
  const made = await guestBooking(plain, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 })
  const kept = await (await keyOf(plain, 'staff')).post(`/bookings/${made.booking.code}/resend-confirmation`)
  assert.equal(kept.status, 202)
  assert.deepEqual([kept.body.state, kept.body.state_reason], ['not_sent', 'no_smtp'])
})

test('resends fired at once never take a recipient past the hourly cap (PostgreSQL counts and inserts under a lock per recipient)', async (t) => {
  const { service } = await withMail(t, { emails_per_recipient_per_hour: 3 })
  const { booking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 })
  await service.context.scheduler.runNow('emails')
  const staff = await keyOf(service, 'staff')
  const answers = await Promise.all(Array.from({ length: 12 }, () => staff.post(`/bookings/${booking.code}/resend-confirmation`)))
  assert.deepEqual(answers.map((a) => a.status), answers.map(() => 202), answers.map((a) => a.text).join('\n'))
  const queued = answers.filter((a) => a.body.state === 'queued').length
  // The confirmation itself took one of the three.
  assert.equal(queued, 2, `two copies queued, the rest kept as not_sent (recipient_cap); got ${queued}`)
  assert.ok(answers.filter((a) => a.body.state !== 'queued').every((a) => a.body.state_reason === 'recipient_cap'))
})

test("a resend answers the text sent with its manage link's token to managers only: staff cannot act as the guest with it", async (t) => {
  const service = await build(t)
  const { booking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 })
  const token = new URL(booking.manage_url).hash.slice(1)
  const lookUp = async (text: string) => {
    const guest = service.client()
    const session = await guest.session()
    const found = /\/manage#(\S+)/.exec(text)
    assert.ok(found, 'the text has the manage link')
    return guest.post('/booking/lookup', { token: found[1] }, { headers: session.headers })
  }

  const staffCallers = [await keyOf(service, 'staff'), await contractChecked((await signedInStaff(service, 'staff')).client)]
  for (const [i, staff] of staffCallers.entries()) {
    const key = { 'idempotency-key': `resend-${i}` }
    for (const resent of [await staff.post(`/bookings/${booking.code}/resend-confirmation`, undefined, key),
      await staff.post(`/bookings/${booking.code}/resend-confirmation`, undefined, key)]) {
      assert.equal(resent.status, 202, resent.text)
      assert.ok(!resent.text.includes(token), 'no token in the answer, nor in the one kept for the Idempotency-Key')
      assert.match(resent.body.text, /\/book\/lisbon\/manage#withheld/)
      assert.equal((await lookUp(resent.body.text)).status, 404, 'what staff got opens nothing')
    }
  }
  const manager = await keyOf(service, 'manager')
  const resent = await manager.post(`/bookings/${booking.code}/resend-confirmation`)
  assert.equal(resent.status, 202, resent.text)
  assert.ok(resent.body.text.includes(token), 'a manager, who reads the email log, sees the link as sent')
  const log = await manager.get(`/emails?booking=${booking.code}`)
  assert.ok(log.body.emails.filter((e: { kind: string }) => e.kind === 'confirmation_resent').every((e: { text: string }) => e.text.includes(token)), 'the log keeps what was sent')
  assert.equal((await lookUp(resent.body.text)).status, 200)
})
