import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Temporal } from 'temporal-polyfill'
import { deleteExpiredSubmissions, erasePersonalData, exportPersonalData, RETENTION } from '../../src/store/privacy.ts'
import { build, type TestService } from '../helpers/build.ts'
import type { ApiClient } from '../helpers/client.ts'

// Privacy requests (export and erase one person's data by email) and retention, on a store
// built by build() and filled through the real API. The clock starts at 2026-06-01T08:00:00Z.
const LISBON = 'lx4t7k2m'
const NYC = 'ny8h3p5r'
const ANA = 'ana@example.pt'
const HOLD = { tour_id: 'alfama-walk', start: '2026-06-02T08:30:00Z', party: 2 }

const db = (service: TestService) => service.context.store.db

async function ok(res: Promise<{ status: number, text: string, body: any }>) {
  const answer = await res
  assert.equal(answer.status, 200, answer.text)
  return answer.body
}

/** Holds alfama-walk and checks out with `contact`; returns the session and the booking. */
async function book(client: ApiClient, contact: Record<string, string>, headers: Record<string, string> = {}) {
  const session = await client.session()
  await ok(client.post('/booking', HOLD, { headers: session.headers }))
  const booking = await ok(client.post('/checkout', contact, { headers: { 'x-session': session.session, ...headers } }))
  return { session, booking }
}

/**
 * Ana (under two spellings of her address), Rui, and Ana again in New York: messages,
 * sign-ups (one a decoy), a subscription and a booking each.
 */
async function seed(service: TestService) {
  const lisbon = service.client('lisbon')
  const nyc = service.client('nyc')
  await ok(lisbon.post('/contact', { message: 'Pushchair?', name: 'Ana', email: ANA }))
  service.clock.advance({ minutes: 1 })
  await ok(lisbon.post('/contact', { message: 'Also: dogs?', email: 'Ana@Example.PT' }))
  await ok(lisbon.post('/contact', { message: 'Anonymous question' }))
  await ok(lisbon.post('/contact', { message: 'From Rui', email: 'rui@example.pt' }))
  await ok(lisbon.post('/newsletter', { email: ANA, name: 'Ana' }))
  service.clock.advance({ minutes: 1 })
  await ok(lisbon.post('/newsletter', { email: ANA, website: 'spam.example' }))
  await ok(lisbon.post('/newsletter', { email: 'rui@example.pt' }))
  const anaBooking = await book(lisbon, { name: 'Ana Silva', email: 'ANA@example.pt', phone: '912 345 678' })
  const ruiBooking = await book(lisbon, { name: 'Rui Costa', email: 'rui@example.pt' })
  await ok(nyc.post('/contact', { message: 'NY question', email: ANA }))
  await ok(nyc.post('/newsletter', { email: ANA }))
  return { anaBooking, ruiBooking }
}

test('exportPersonalData returns every message, sign-up, subscription and booking of one address in one instance, matched without case', async (t) => {
  const service = await build(t)
  const { anaBooking } = await seed(service)
  const data = await exportPersonalData(db(service), LISBON, '  Ana@EXAMPLE.pt ')

  assert.deepEqual(data.contactMessages.map((m) => [m.message, m.email]), [['Pushchair?', ANA], ['Also: dogs?', 'Ana@Example.PT']])
  assert.deepEqual(data.newsletterSignups.map((s) => [s.email, s.spam]), [[ANA, 0], [ANA, 1]], 'the decoy sign-up too: it is stored')
  assert.deepEqual(data.newsletterSubscriptions.map((s) => [s.email, s.name, s.source]), [[ANA, 'Ana', 'api']])
  assert.deepEqual(data.bookings.map((b) => [b.id, b.code, b.contact_name, b.contact_phone]), [[anaBooking.booking.id, anaBooking.booking.code, 'Ana Silva', '+351912345678']])
  for (const rows of [data.contactMessages, data.newsletterSignups, data.newsletterSubscriptions, data.bookings]) {
    assert.ok(rows.every((row) => row.instance_id === LISBON), 'nothing from another instance')
  }
  assert.ok(!JSON.stringify(data).includes('rui@example.pt'), 'nothing about anyone else')
})

test('exportPersonalData of an address nobody used is empty', async (t) => {
  const service = await build(t)
  await seed(service)
  const data = await exportPersonalData(db(service), LISBON, 'nobody@example.pt')
  assert.deepEqual([data.contactMessages, data.newsletterSignups, data.newsletterSubscriptions, data.bookings], [[], [], [], []])
})

test('erasePersonalData deletes the messages, sign-ups and subscription, strips the booking contact but keeps its seats', async (t) => {
  const service = await build(t)
  const { anaBooking, ruiBooking } = await seed(service)
  const seatsBefore = await db(service).selectFrom('departures').select(['tour_id', 'start_at', 'seats_taken']).execute()
  const at = Temporal.Instant.from('2026-06-01T09:00:00Z')

  const counts = await erasePersonalData(service.context.store, LISBON, 'ANA@example.pt', at)
  assert.deepEqual(counts, { contactMessages: 2, newsletterSignups: 2, newsletterSubscriptions: 1, bookingsAnonymised: 1, storedAnswers: 0, emails: 0, operatorEmails: 0, eventsScrubbed: 4, auditEntriesScrubbed: 0 })

  const after = await exportPersonalData(db(service), LISBON, ANA)
  assert.deepEqual([after.contactMessages, after.newsletterSignups, after.newsletterSubscriptions, after.bookings], [[], [], [], []])

  const row = await db(service).selectFrom('bookings').selectAll().where('id', '=', anaBooking.booking.id).executeTakeFirstOrThrow()
  assert.equal(row.status, 'confirmed', 'the booking itself stays')
  assert.equal(row.code, anaBooking.booking.code)
  assert.notEqual(row.contact_name, 'Ana Silva')
  assert.ok(!JSON.stringify(row).toLowerCase().includes(ANA), 'no trace of the address')
  assert.ok(!JSON.stringify(row).includes('912345678'), 'no trace of the phone')
  assert.equal(row.contact_phone, null)
  assert.equal(Date.parse(row.updated_at), Date.parse('2026-06-01T09:00:00Z'))
  assert.deepEqual(await db(service).selectFrom('departures').select(['tour_id', 'start_at', 'seats_taken']).execute(), seatsBefore)

  // The booking still reads through the API, without the erased details.
  const shown = await ok(service.client().get('/booking', { headers: { 'x-session': anaBooking.session.session } }))
  assert.equal(shown.code, anaBooking.booking.code)
  assert.ok(!JSON.stringify(shown).toLowerCase().includes(ANA))

  // Everyone else, and Ana in another instance, are untouched.
  const rui = await exportPersonalData(db(service), LISBON, 'rui@example.pt')
  assert.equal(rui.contactMessages.length, 1)
  assert.equal(rui.newsletterSubscriptions.length, 1)
  assert.equal(rui.bookings[0].id, ruiBooking.booking.id)
  assert.equal(rui.bookings[0].contact_name, 'Rui Costa')
  const anaInNewYork = await exportPersonalData(db(service), NYC, ANA)
  assert.equal(anaInNewYork.contactMessages.length, 1)
  assert.equal(anaInNewYork.newsletterSubscriptions.length, 1)
  const anonymous = await db(service).selectFrom('contact_messages').select('message').where('email', 'is', null).execute()
  assert.deepEqual(anonymous.map((m) => m.message), ['Anonymous question'])
})

test('erasing an address twice, or one never used, erases nothing more', async (t) => {
  const service = await build(t)
  await seed(service)
  const at = service.clock.now()
  await erasePersonalData(service.context.store, LISBON, ANA, at)
  const none = { contactMessages: 0, newsletterSignups: 0, newsletterSubscriptions: 0, bookingsAnonymised: 0, storedAnswers: 0, emails: 0, operatorEmails: 0, eventsScrubbed: 0, auditEntriesScrubbed: 0 }
  assert.deepEqual(await erasePersonalData(service.context.store, LISBON, ANA, at), none)
  assert.deepEqual(await erasePersonalData(service.context.store, LISBON, 'nobody@example.pt', at), none)
  assert.equal((await exportPersonalData(db(service), LISBON, 'rui@example.pt')).bookings.length, 1)
})

test('after erasure a new sign-up from the same address is a fresh subscription with a fresh consent', async (t) => {
  const service = await build(t)
  await seed(service)
  await erasePersonalData(service.context.store, LISBON, ANA, service.clock.now())
  service.clock.set('2026-07-01T10:00:00Z')
  await ok(service.client().post('/newsletter', { email: ANA }))
  const [subscription] = (await exportPersonalData(db(service), LISBON, ANA)).newsletterSubscriptions
  assert.equal(Date.parse(subscription.consented_at), Date.parse('2026-07-01T10:00:00Z'))
})

test('erasure also reaches answers kept for Idempotency-Key replays, which hold the contact details for 24 hours', async (t) => {
  const service = await build(t)
  const { booking } = await book(service.client(), { name: 'Ana Silva', email: ANA, phone: '912 345 678' }, { 'idempotency-key': 'pay-1' })
  assert.equal(booking.contact.email, ANA)
  await erasePersonalData(service.context.store, LISBON, ANA, service.clock.now())
  const kept = await db(service).selectFrom('idempotency_keys').select('body').execute()
  assert.ok(kept.every((row) => !row.body.toLowerCase().includes(ANA)), 'no stored answer still names the address')
})

// ---------------------------------------------------------------- retention

test(`the documented retention: contact messages ${RETENTION.contactMessageDays} days, quarantined messages and sign-ups ${RETENTION.spamDays} days`, () => {
  assert.deepEqual(RETENTION, { contactMessageDays: 365, spamDays: 30 })
})

test('deleteExpiredSubmissions deletes messages older than 365 days and spam older than 30, and keeps everything younger', async (t) => {
  const service = await build(t)
  const client = service.client()
  const t0 = Temporal.Instant.from('2026-06-01T08:00:00Z')
  await ok(client.post('/contact', { message: 'real' }))
  await ok(client.post('/contact', { message: 'spam', company: 'ACME' }))
  await ok(client.post('/newsletter', { email: ANA }))
  await ok(client.post('/newsletter', { email: 'bot@example.com', fax: '1' }))
  const remaining = async () => ({
    messages: (await db(service).selectFrom('contact_messages').select('message').orderBy('message').execute()).map((r) => r.message),
    signups: (await db(service).selectFrom('newsletter_signups').select('email').orderBy('email').execute()).map((r) => r.email),
    subscribers: (await db(service).selectFrom('newsletter_subscribers').select('email').execute()).map((r) => r.email),
  })

  assert.equal(await deleteExpiredSubmissions(db(service), t0.add({ hours: 30 * 24 })), 0, 'exactly 30 days old: kept')
  assert.deepEqual(await remaining(), { messages: ['real', 'spam'], signups: [ANA, 'bot@example.com'], subscribers: [ANA] })

  assert.equal(await deleteExpiredSubmissions(db(service), t0.add({ hours: 30 * 24, seconds: 1 })), 2, 'the spam message and the decoy sign-up')
  assert.deepEqual(await remaining(), { messages: ['real'], signups: [ANA], subscribers: [ANA] })

  assert.equal(await deleteExpiredSubmissions(db(service), t0.add({ hours: 365 * 24 })), 0, 'exactly 365 days old: kept')
  assert.equal(await deleteExpiredSubmissions(db(service), t0.add({ hours: 365 * 24, seconds: 1 })), 1)
  assert.deepEqual(await remaining(), { messages: [], signups: [ANA], subscribers: [ANA] }, 'consent records and subscriptions stay until erased')
  assert.equal(await deleteExpiredSubmissions(db(service), t0.add({ hours: 5 * 365 * 24 })), 0)
})

test('retention applies to every instance and only by age: a newer message survives next to an expired one', async (t) => {
  const service = await build(t)
  await ok(service.client('nyc').post('/contact', { message: 'old' }))
  service.clock.set('2027-05-01T00:00:00Z')
  await ok(service.client('lisbon').post('/contact', { message: 'new' }))
  await ok(service.client('nyc').post('/contact', { message: 'new spam', website: 'x' }))
  const deleted = await deleteExpiredSubmissions(db(service), Temporal.Instant.from('2027-06-02T00:00:00Z'))
  assert.equal(deleted, 2)
  const rows = await db(service).selectFrom('contact_messages').select(['instance_id', 'message']).execute()
  assert.deepEqual(rows, [{ instance_id: LISBON, message: 'new' }])
})
