import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { test } from 'node:test'
import { emailDigest } from '../../src/services/privacy-requests.ts'
import { ALFAMA, bookingRow, seatsTaken } from '../helpers/booking-fixtures.ts'
import { build, type TestService } from '../helpers/build.ts'
import type { ApiClient } from '../helpers/client.ts'
import { checked, operatorContract } from '../helpers/operator-contract.ts'
import { apiKeyClient, OperatorClient, signedInStaff } from '../helpers/operator.ts'

// GET and DELETE /privacy?email= over real HTTP: what a guest left through the guest API,
// exported and erased by a manager, and what the audit log keeps of it.
const LISBON = 'lx4t7k2m'
const ANA = 'ana@example.pt'

async function ok(res: Promise<{ status: number, text: string, body: any }>) {
  const answer = await res
  assert.ok(answer.status === 200 || answer.status === 201, answer.text)
  return answer.body
}

/** Holds alfama-walk with an Idempotency-Key (so an answer is kept) and checks out with `contact`. */
async function book(client: ApiClient, contact: Record<string, string>) {
  const session = await client.session()
  await ok(client.post('/booking', ALFAMA, { headers: { ...session.headers, 'idempotency-key': randomUUID() } }))
  return ok(client.post('/checkout', contact, { headers: { 'x-session': session.session } }))
}

/** Ana's message, sign-up and booking in Lisbon; Rui's booking; Ana again in New York. */
async function seed(service: TestService) {
  const lisbon = service.client('lisbon')
  await ok(lisbon.post('/contact', { message: 'Is the walk pushchair-friendly?', name: 'Ana', email: 'Ana@Example.pt' }))
  await ok(lisbon.post('/newsletter', { email: ANA, name: 'Ana' }))
  const ana = await book(lisbon, { name: 'Ana Silva', email: 'ANA@example.pt', phone: '912 345 678' })
  const rui = await book(lisbon, { name: 'Rui Costa', email: 'rui@example.pt' })
  await ok(service.client('nyc').post('/contact', { message: 'And in New York?', email: ANA }))
  // Each booking's confirmation email (kept as not_sent: these services have no SMTP_URL).
  await service.context.scheduler.runNow('emails')
  return { ana, rui }
}

async function managerClient(service: TestService) {
  return checked((await signedInStaff(service, 'manager')).client, await operatorContract(service))
}

test('a manager exports everything stored about an address, whatever its case, in this instance only', async (t) => {
  const service = await build(t)
  const { ana } = await seed(service)
  const manager = await managerClient(service)
  const res = await manager.get('/privacy?email=ANA%40example.PT')
  assert.equal(res.status, 200, res.text)
  assert.equal(res.headers.get('cache-control'), 'no-store')
  const data = res.body
  assert.equal(data.email, ANA)
  assert.deepEqual(data.contact_messages.map((m: any) => [m.message, m.email, m.spam]), [['Is the walk pushchair-friendly?', 'Ana@Example.pt', false]])
  assert.equal(data.contact_messages[0].received_at, '2026-06-01T09:00:00+01:00')
  assert.deepEqual(data.newsletter_signups.map((s: any) => [s.email, s.name]), [[ANA, 'Ana']])
  assert.equal(data.newsletter_subscriptions.length, 1)
  assert.deepEqual(data.bookings.map((b: any) => [b.code, b.contact, b.channel, b.status]), [[ana.code, { name: 'Ana Silva', email: 'ANA@example.pt', phone: '+351912345678' }, 'web', 'confirmed']])
  assert.equal(data.stored_answers.length, 1, "the kept answer of her booking's hold")
  assert.equal(data.stored_answers[0].body.id, ana.id)
  assert.deepEqual(data.emails.map((e: any) => [e.kind, e.booking_id, e.state]), [['booking_confirmed', ana.id, 'not_sent']])
  assert.match(data.emails[0].text, /Ana Silva/)
  assert.ok(!res.text.includes('rui@example.pt'), "nobody else's data")
  assert.ok(!res.text.includes('New York'), "nor another instance's")
  assert.ok(!res.text.includes((await bookingRow(service, ana.id)).session_id), "session ids are the guest's credentials, not data about her")

  const nobody = await manager.get('/privacy?email=nobody@example.pt')
  assert.deepEqual(nobody.body, { email: 'nobody@example.pt', contact_messages: [], newsletter_signups: [], newsletter_subscriptions: [], bookings: [], stored_answers: [], emails: [] })
})

test('a manager erases an address: its data goes, its bookings keep their seats and lose the contact, and the counts answer', async (t) => {
  const service = await build(t)
  const { ana, rui } = await seed(service)
  const manager = await managerClient(service)
  const seats = await seatsTaken(service, ALFAMA.tour_id, ALFAMA.start)
  const versionBefore = (await bookingRow(service, ana.id)).version

  const erased = await manager.delete('/privacy?email=Ana@Example.PT')
  assert.equal(erased.status, 200, erased.text)
  assert.deepEqual(erased.body, { contact_messages: 1, newsletter_signups: 1, newsletter_subscriptions: 1, bookings_anonymised: 1, stored_answers: 1, emails: 1, operator_emails: 0, events_scrubbed: 3, audit_entries_scrubbed: 0 })

  const row = await bookingRow(service, ana.id)
  assert.deepEqual([row.status, row.party, row.contact_name, row.contact_email, row.contact_phone], ['confirmed', 2, 'erased', 'erased', null])
  assert.equal(row.version, versionBefore + 1)
  assert.equal(await seatsTaken(service, ALFAMA.tour_id, ALFAMA.start), seats, 'the seats stay taken')
  assert.equal((await bookingRow(service, rui.id)).contact_email, 'rui@example.pt')

  const after = await manager.get(`/privacy?email=${ANA}`)
  assert.deepEqual([after.body.contact_messages, after.body.newsletter_signups, after.body.bookings, after.body.stored_answers, after.body.emails], [[], [], [], [], []])
  const again = await manager.delete(`/privacy?email=${ANA}`)
  assert.deepEqual(again.body, { contact_messages: 0, newsletter_signups: 0, newsletter_subscriptions: 0, bookings_anonymised: 0, stored_answers: 0, emails: 0, operator_emails: 0, events_scrubbed: 0, audit_entries_scrubbed: 0 })
  const nyc = await apiKeyClient(service, 'manager', 'nyc')
  assert.equal((await nyc.client.get(`/privacy?email=${ANA}`)).body.contact_messages.length, 1, 'New York keeps its own')
})

test('privacy requests are audited by a keyed hash of the address and the counts, never the data', async (t) => {
  const service = await build(t)
  await seed(service)
  const manager = await managerClient(service)
  await manager.get(`/privacy?email=${ANA}`)
  service.clock.advance({ minutes: 1 })
  await manager.delete(`/privacy?email=${ANA.toUpperCase()}`)
  const entries = (await manager.get('/audit?actor=staff')).body.entries
  const target = { type: 'email', id: emailDigest(service.context.secret, LISBON, ANA), ref: null }
  assert.deepEqual(entries.map((e: any) => [e.action, e.target, e.after]), [
    ['privacy.erased', target, { contact_messages: 1, newsletter_signups: 1, newsletter_subscriptions: 1, bookings_anonymised: 1, stored_answers: 1, emails: 1, operator_emails: 0, events_scrubbed: 3, audit_entries_scrubbed: 0 }],
    ['privacy.exported', target, { contact_messages: 1, newsletter_signups: 1, newsletter_subscriptions: 1, bookings: 1, stored_answers: 1, emails: 1 }],
  ])
  assert.ok(entries.every((e: any) => e.request_id !== null))
  const stored = JSON.stringify(await service.context.store.db.selectFrom('audit_log').selectAll().execute()).toLowerCase()
  // The phone number whole: three digits alone turn up by chance in the entries' random ids and
  // keyed hashes (a CI run on Node 24 found "912" in one).
  for (const personal of [ANA, 'ana silva', '912345678', 'pushchair']) assert.ok(!stored.includes(personal), `the audit log holds no "${personal}"`)
})

test('privacy requests are for managers, need a valid email, and a staff erase needs the CSRF token', async (t) => {
  const service = await build(t)
  const contract = await operatorContract(service)
  for (const role of ['guide', 'viewer', 'staff'] as const) {
    for (const caller of [(await signedInStaff(service, role)).client, (await apiKeyClient(service, role)).client]) {
      const client = checked(caller, contract)
      assert.equal((await client.get(`/privacy?email=${ANA}`)).status, 403, role)
      assert.equal((await client.delete(`/privacy?email=${ANA}`)).status, 403, role)
    }
  }
  const anonymous = checked(new OperatorClient(service.origin, 'lisbon'), contract)
  assert.equal((await anonymous.get(`/privacy?email=${ANA}`)).status, 401)
  assert.equal((await anonymous.delete(`/privacy?email=${ANA}`)).status, 401)

  const { client, signIn } = await signedInStaff(service, 'manager')
  const manager = checked(client, contract)
  for (const query of ['', '?email=', '?email=not-an-address', `?email=${ANA}&also=1`]) {
    const res = await manager.get(`/privacy${query}`)
    assert.equal(res.status, 400, query)
    assert.equal(res.body.code, 'validation_failed')
  }
  assert.equal((await manager.delete(`/privacy?email=${ANA}`, { email: ANA })).status, 400, 'the address goes in the query, never a body')
  const cookie = signIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
  const withoutToken = await checked(new OperatorClient(service.origin, 'lisbon', { cookie }), contract).delete(`/privacy?email=${ANA}`)
  assert.equal(withoutToken.status, 403)
  assert.equal(withoutToken.body.code, 'csrf_missing')
})
