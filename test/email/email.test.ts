import assert from 'node:assert/strict'
import { test, type TestContext } from 'node:test'
import ical, { type VEvent } from 'node-ical'
import type { ParsedMail } from 'mailparser'
import { toStoredInstant } from '../../src/domain/instant-format.ts'
import { build, demoCatalog, type BuildOptions, type TestService } from '../helpers/build.ts'
import { CONTACT } from '../helpers/booking-fixtures.ts'
import { mailSink, type MailSink } from '../helpers/smtp.ts'
import { signedInStaff, STAFF_PASSWORD } from '../helpers/operator.ts'
import { ALFAMA_TUE, ALFAMA_TUE_PM, auditEntries, FADO_MON, FADO_TUE, guestBooking, keyOf } from '../admin/bookings-fixtures.ts'

const OPERATOR = 'ops@tours.example'

function catalogWith(settings: Record<string, unknown>) {
  const catalog = demoCatalog()
  Object.assign(catalog.instances.find((i: { prefix: string }) => i.prefix === 'lisbon'), settings)
  return catalog
}

async function withMail(t: TestContext, settings: Record<string, unknown> = {}, options: BuildOptions = {}): Promise<{ service: TestService, sink: MailSink }> {
  const sink = await mailSink()
  t.after(sink.close)
  const service = await build(t, { catalog: catalogWith({ operator_emails: [OPERATOR], ...settings }), email: { smtpUrl: sink.url }, ...options })
  return { service, sink }
}

/** What the scheduler does every second on every node: events into emails, then sending. */
async function deliverEmails(service: TestService): Promise<void> {
  await service.context.scheduler.runNow('emails')
  await service.context.scheduler.runNow('email-sending')
}

const to = (mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to[0] : mail.to)!.value[0].address
const calendarOf = (mail: ParsedMail) => {
  const attachment = mail.attachments.find((a) => a.contentType.startsWith('text/calendar'))
  assert.ok(attachment, `${mail.subject} carries a calendar`)
  const events = Object.values(ical.sync.parseICS(attachment.content.toString('utf8'))).filter((c) => c?.type === 'VEVENT') as VEvent[]
  assert.equal(events.length, 1)
  return events[0]
}

test('a Fado request: the guest hears it arrived, the operator gets links; confirmed, the guest gets a calendar whose DTSTART is the start; changed, its SEQUENCE rises', async (t) => {
  const { service, sink } = await withMail(t)
  const { booking } = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })
  await deliverEmails(service)

  const received = sink.messages.find((m) => to(m) === CONTACT.email)!
  assert.ok(received, 'the guest is emailed')
  assert.match(received.subject!, /^Request received: Fado/)
  assert.ok(received.subject!.includes(booking.code), received.subject)
  assert.ok(received.subject!.includes('Tue, 2 Jun 2026, 20:30 (Lisbon time)'), received.subject)
  assert.ok(received.text!.includes(`/book/lisbon/manage#`), 'the manage link')
  assert.ok(String(received.html).includes('Lisbon time'))

  const alert = sink.messages.find((m) => to(m) === OPERATOR)!
  assert.match(alert.subject!, /^New request: Fado/)
  assert.ok(alert.text!.includes(`${service.origin}/admin/lisbon/bookings/${booking.code}`), 'a link to it in the back office')
  assert.equal([...alert.text!.matchAll(/\/admin\/lisbon\/email-actions\/[A-Za-z0-9_-]+/g)].length, 2, 'confirm and decline links')

  const key = await keyOf(service, 'staff')
  assert.equal((await key.post(`/bookings/${booking.code}/confirm`)).status, 200)
  await deliverEmails(service)
  const confirmed = sink.messages.find((m) => to(m) === CONTACT.email && m.subject!.startsWith('Booking confirmed'))!
  assert.ok(confirmed, 'the confirmation')
  const event = calendarOf(confirmed)
  assert.equal(event.start.toISOString(), new Date(FADO_TUE).toISOString(), 'DTSTART is the booking start')
  assert.ok(event.uid.startsWith(booking.id))

  assert.equal((await key.patch(`/bookings/${booking.code}`, { party: 3 })).status, 200)
  await deliverEmails(service)
  const changed = sink.messages.find((m) => m.subject!.startsWith('Booking changed'))!
  const again = calendarOf(changed)
  assert.equal(again.uid, event.uid, 'the same calendar event')
  assert.ok(Number(again.sequence) > Number(event.sequence), `SEQUENCE ${event.sequence} then ${again.sequence}`)

  const manager = await keyOf(service, 'manager')
  const log = await manager.get(`/emails?booking=${booking.code}`)
  assert.equal(log.status, 200)
  assert.deepEqual(log.body.emails.map((e: { kind: string }) => e.kind).sort(), ['booking_changed', 'booking_confirmed', 'new_request', 'request_received'])
  assert.ok(log.body.emails.every((e: { state: string }) => e.state === 'sent'))
  assert.equal((await (await keyOf(service, 'staff')).get('/emails')).status, 403, 'managers only')
})

test("the operator's confirm link asks for one click, works once, and the guest is told", async (t) => {
  const { service, sink } = await withMail(t)
  const { booking, client, session } = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })
  await deliverEmails(service)
  const alert = sink.messages.find((m) => to(m) === OPERATOR)!
  const [confirmLink] = [...alert.text!.matchAll(/Confirm it: (\S+)/g)].map((m) => m[1])

  const page = await fetch(confirmLink)
  assert.equal(page.status, 200)
  const html = await page.text()
  assert.ok(html.includes(booking.code) && html.includes('<form method="post">'))
  assert.ok(!html.includes('<script'), 'no script')
  assert.equal((await client.get('/booking', { headers: session.headers })).body.status, 'requested', 'opening the link changes nothing')

  const done = await fetch(confirmLink, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' })
  assert.equal(done.status, 200, await done.text())
  assert.equal((await client.get('/booking', { headers: session.headers })).body.status, 'confirmed')
  assert.equal((await fetch(confirmLink, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' })).status, 404, 'single-use')
  assert.equal((await fetch(confirmLink.replace(/[A-Za-z0-9_-]{8}$/, 'AAAAAAAA'))).status, 404)
  await deliverEmails(service)
  assert.ok(sink.messages.some((m) => to(m) === CONTACT.email && m.subject!.startsWith('Booking confirmed')))
})

test("an email link acts only while the one it was sent to may act: a disabled manager's does nothing, an active one's names them in the audit; managers who never set a password get no alert", async (t) => {
  const { service, sink } = await withMail(t, { operator_emails: [] })
  const ref = service.context.catalogs.get('lisbon')!.instance.ref
  const system = { type: 'system' as const, id: null, name: 'test' }
  const add = (email: string, name: string, password?: string) =>
    service.context.staff.addStaff(ref, { email, name, role: 'manager', ...password ? { password } : {} }, system, service.clock.now())
  const ana = (await add('ana.manager@tours.example', 'Ana Manager', STAFF_PASSWORD)).staff
  const bea = (await add('bea.manager@tours.example', 'Bea Manager', STAFF_PASSWORD)).staff
  await add('cid.invited@tours.example', 'Cid Invited')
  const first = (await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })).booking
  const second = (await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 1 })).booking
  await deliverEmails(service)
  const linkTo = (address: string, code: string, action: 'Confirm' | 'Decline') => {
    const alert = sink.messages.find((m) => to(m) === address && m.subject!.startsWith('New request') && m.subject!.includes(code))
    assert.ok(alert, `${address} is alerted to ${code}`)
    return new RegExp(`${action} it: (\\S+)`).exec(alert.text!)![1]
  }
  assert.deepEqual([...new Set(sink.messages.filter((m) => m.subject!.startsWith('New request')).map(to))].sort(),
    ['ana.manager@tours.example', 'bea.manager@tours.example'], 'not the manager who never set a password')

  const manager = await keyOf(service, 'manager')
  assert.equal((await manager.patch(`/staff/${bea.id}`, { disabled: true })).status, 200)
  const post = (link: string) => fetch(link, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' })
  const beas = linkTo(bea.email, first.code, 'Confirm')
  assert.equal((await fetch(beas)).status, 404, 'the page says the link does not work')
  assert.equal((await post(beas)).status, 404)
  assert.equal((await manager.get(`/bookings/${first.code}`)).body.status, 'requested', 'nothing changed')

  assert.equal((await post(linkTo(ana.email, second.code, 'Decline'))).status, 200)
  assert.equal((await manager.get(`/bookings/${second.code}`)).body.status, 'declined')
  const [declined] = (await auditEntries(service, second.id)).filter((e) => e.action === 'booking.declined')
  assert.deepEqual([declined.actor_type, declined.actor_id, declined.actor_name], ['staff', ana.id, 'Ana Manager'])

  assert.equal((await manager.patch(`/staff/${bea.id}`, { disabled: false })).status, 200)
  assert.equal((await post(beas)).status, 200, 'enabled again, the link acts (once, before the deadline)')
  const [confirmed] = (await auditEntries(service, first.id)).filter((e) => e.action === 'booking.confirmed')
  assert.deepEqual([confirmed.actor_id, confirmed.actor_name], [bea.id, 'Bea Manager'])
})

test('without SMTP_URL every message is kept as not_sent and listed; at most emails_per_recipient_per_hour go to one address', async (t) => {
  const plain = await build(t, { catalog: catalogWith({ operator_emails: [OPERATOR] }) })
  await guestBooking(plain, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 })
  await plain.context.scheduler.runNow('emails')
  const log = await (await keyOf(plain, 'manager')).get(`/emails?to=${encodeURIComponent(CONTACT.email.toUpperCase())}`)
  assert.deepEqual(log.body.emails.map((e: { kind: string, state: string, state_reason: string }) => [e.kind, e.state, e.state_reason]), [['booking_confirmed', 'not_sent', 'no_smtp']])

  const { service, sink } = await withMail(t, { emails_per_recipient_per_hour: 2 })
  for (let i = 0; i < 3; i++) await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1 })
  await deliverEmails(service)
  assert.equal(sink.messages.filter((m) => to(m) === CONTACT.email).length, 2)
  const capped = await (await keyOf(service, 'manager')).get(`/emails?to=${CONTACT.email}`)
  assert.deepEqual(capped.body.emails.map((e: { state: string }) => e.state).sort(), ['not_sent', 'sent', 'sent'])
})

test("guests' contact messages never use up the operator's cap: a request's alert after them goes, links and all; the messages are capped on their own", async (t) => {
  const { service, sink } = await withMail(t, { emails_per_recipient_per_hour: 2 })
  const guest = service.client('lisbon')
  for (let i = 0; i < 3; i++) {
    assert.equal((await guest.post('/contact', { message: `Question ${i}: is the walk steep?`, name: 'Ana Silva', email: 'ana@example.pt' })).status, 200)
  }
  await deliverEmails(service)
  for (let i = 0; i < 3; i++) await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 1 })
  await deliverEmails(service)
  const log = await (await keyOf(service, 'manager')).get(`/emails?to=${OPERATOR}`)
  const states = (kind: string) => log.body.emails.filter((e: { kind: string }) => e.kind === kind).map((e: { state: string, state_reason: string | null }) => `${e.state} ${e.state_reason}`).sort()
  assert.deepEqual(states('contact_message'), ['not_sent recipient_cap', 'sent null', 'sent null'])
  assert.deepEqual(states('new_request'), ['sent null', 'sent null', 'sent null'], 'alerts about bookings are never capped')
  const alerts = sink.messages.filter((m) => to(m) === OPERATOR && m.subject!.startsWith('New request'))
  assert.equal(alerts.length, 3)
  assert.ok(alerts.every((m) => [...m.text!.matchAll(/\/admin\/lisbon\/email-actions\//g)].length === 2), 'each with its confirm and decline links')
})

test('the reminder goes once, reminder_hours before the start, however many times the task runs', async (t) => {
  const { service, sink } = await withMail(t, { reminder_hours: 20 })
  const { booking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 })
  await deliverEmails(service)
  const before = sink.messages.length
  service.clock.set('2026-06-01T12:29:00Z')
  await service.context.scheduler.runNow('email-reminders')
  assert.equal(sink.messages.length, before, 'not yet')
  service.clock.set('2026-06-01T12:31:00Z')
  await Promise.all([service.context.scheduler.runNow('email-reminders'), service.context.scheduler.runNow('email-reminders')])
  await service.context.scheduler.runNow('email-reminders')
  await deliverEmails(service)
  const reminders = sink.messages.filter((m) => m.subject!.startsWith('See you soon'))
  assert.equal(reminders.length, 1)
  assert.ok(reminders[0].subject!.includes(booking.code))
})

test('newsletter double opt-in: the sign-up is kept pending and subscribed when its link is opened', async (t) => {
  const { service, sink } = await withMail(t)
  const client = service.client('lisbon')
  const session = await client.session()
  const signup = await client.post('/newsletter', { email: 'Reader@Example.org', name: 'Rita' }, { headers: session.headers })
  assert.deepEqual(signup.body, { status: 'subscribed' })
  const subscribers = () => service.context.store.db.selectFrom('newsletter_subscribers').selectAll().execute()
  assert.equal((await subscribers()).length, 0, 'pending')
  await deliverEmails(service)
  const mail = sink.messages.find((m) => to(m) === 'reader@example.org')!
  const link = /(http\S+\/newsletter\/confirm\?token=\S+)/.exec(mail.text!)![1]
  const opened = await fetch(link)
  assert.equal(opened.status, 200)
  assert.equal((await subscribers()).length, 1)
  assert.equal((await fetch(link)).status, 200, 'opening it again answers the same')
  assert.equal((await subscribers()).length, 1)
  assert.equal((await fetch(link.replace(/token=.{6}/, 'token=AAAAAA'))).status, 404)
  const events = await (await keyOf(service, 'staff')).get('/events?types=newsletter.subscribed')
  assert.equal(events.body.events.length, 1)
})

test('a decline, a guest cancelling and a cancelled departure each tell the guest; a quarantined checkout and notify_guests false tell nobody', async (t) => {
  const { service, sink } = await withMail(t)
  const key = await keyOf(service, 'staff')
  const declined = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 }, { name: 'Dee Clined', email: 'dee@example.org' })
  assert.equal((await key.post(`/bookings/${declined.booking.code}/decline`, { reason: 'The boat is under repair.' })).status, 200)

  const leaving = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 }, { name: 'Lee Ving', email: 'lee@example.org' })
  assert.equal((await leaving.client.delete('/booking', { headers: leaving.session.headers })).status, 200)

  await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE_PM, party: 1 }, { name: 'Stor Mee', email: 'storm@example.org' })
  await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 1 }, { name: 'Kwai Et', email: 'quiet@example.org' })
  assert.equal((await key.post(`/departures/alfama-walk/${ALFAMA_TUE_PM}/cancel`, { reason: 'storm warning' })).status, 200)
  assert.equal((await key.post(`/departures/fado-night/${FADO_TUE}/cancel`, { reason: 'no boat', notify_guests: false })).status, 200)

  const client = service.client('lisbon')
  const session = await client.session()
  await client.post('/booking', { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1 }, { headers: session.headers })
  const decoy = await client.post('/checkout', { name: 'Bot', email: 'bot@example.org', middle_name: 'Maria' }, { headers: session.headers })
  assert.equal(decoy.status, 200)
  await deliverEmails(service)

  const subjects = (address: string) => sink.messages.filter((m) => to(m) === address).map((m) => m.subject!.split(':')[0])
  assert.deepEqual(subjects('dee@example.org'), ['Request received', 'Request declined'])
  assert.ok(sink.messages.find((m) => m.subject!.startsWith('Request declined'))!.text!.includes('The boat is under repair.'))
  assert.deepEqual(subjects('lee@example.org'), ['Booking confirmed', 'Booking cancelled'])
  assert.deepEqual(subjects('storm@example.org'), ['Booking confirmed', 'Departure cancelled'])
  const stormMail = sink.messages.find((m) => m.subject!.startsWith('Departure cancelled'))!
  assert.ok(stormMail.text!.includes('storm warning'))
  assert.equal(calendarOf(stormMail).status, 'CANCELLED', 'the calendar event is cancelled')
  assert.deepEqual(subjects('quiet@example.org'), ['Request received'], 'notify_guests false')
  assert.deepEqual(subjects('bot@example.org'), [], 'quarantined')
  assert.deepEqual(subjects(OPERATOR).sort(), ['Cancelled by the guest', 'New booking', 'New booking', 'New request', 'New request'])
})

test('managers hear once that a webhook endpoint has failed for 24 hours, and once that it is disabled', async (t) => {
  const { service, sink } = await withMail(t, { operator_emails: [] })
  const { email: manager } = await signedInStaff(service, 'manager')
  const instanceId = service.context.catalogs.get('lisbon')!.instance.ref
  const at = (hoursAgo: number) => toStoredInstant(service.clock.now().subtract({ hours: hoursAgo }))
  const endpoint = (id: string, failingHoursAgo: number) => ({
    instance_id: instanceId, id, url: `https://hooks.example.org/${id}`, description: null, secret: 'whsec_dGVzdA==', previous_secret: null, previous_secret_until: null,
    disabled_at: null, disabled_reason: null, failing_since: at(failingHoursAgo), created_at: at(200), updated_at: at(200), version: 1,
  })
  await service.context.store.write(function* () {
    yield* service.context.store.webhooks.insertEndpoint(endpoint('wh_recent', 23), ['booking.confirmed'])
    yield* service.context.store.webhooks.insertEndpoint(endpoint('wh_failing', 25), ['booking.confirmed'])
  })
  const warnings = async () => {
    await service.context.scheduler.runNow('email-reminders')
    await service.context.scheduler.runNow('email-reminders')
    await service.context.scheduler.runNow('email-sending')
    return sink.messages.filter((m) => to(m) === manager).map((m) => m.subject)
  }
  assert.deepEqual(await warnings(), ['Webhook failing for 24 hours: https://hooks.example.org/wh_failing'])
  await service.context.store.write(() => service.context.store.webhooks.setHealth(instanceId, 'wh_failing', { disabled: at(0), reason: 'every delivery failed for 5 days' }))
  assert.deepEqual(await warnings(), ['Webhook failing for 24 hours: https://hooks.example.org/wh_failing', 'Webhook disabled: https://hooks.example.org/wh_failing'])
})

test('a departure below its minimum at its deadline is flagged to the operator by email', async (t) => {
  const sink = await mailSink()
  t.after(sink.close)
  const catalog = catalogWith({ operator_emails: [OPERATOR] })
  for (const tour of catalog.instances.find((i: { prefix: string }) => i.prefix === 'lisbon').tours) {
    if (tour.id === 'fado-night') Object.assign(tour, { min_participants: 3, min_participants_deadline_hours: 6 })
  }
  const service = await build(t, { catalog, email: { smtpUrl: sink.url } })
  await guestBooking(service, { tour_id: 'fado-night', start: FADO_MON, party: 2 })
  service.clock.set('2026-06-01T13:30:00Z')
  await service.context.scheduler.runNow('departure-deadlines')
  await deliverEmails(service)
  const atRisk = sink.messages.filter((m) => to(m) === OPERATOR && m.subject!.startsWith('At risk'))
  assert.equal(atRisk.length, 1, sink.messages.map((m) => m.subject).join('\n'))
  assert.equal(atRisk[0].subject, 'At risk: Fado à Noite in Alfama · Mon, 1 Jun 2026, 20:30 (Lisbon time) has 2 of 3')
  assert.ok(atRisk[0].text!.includes(`/admin/lisbon/departures/fado-night/`))
})
