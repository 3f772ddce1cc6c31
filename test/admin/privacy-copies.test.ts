import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, demoCatalog } from '../helpers/build.ts'
import { OperatorClient } from '../helpers/operator.ts'
import { receiver } from '../webhooks/receiver.ts'
import { ALFAMA_TUE, FADO_TUE, guestBooking, keyOf } from './bookings-fixtures.ts'

// DELETE /privacy?email= reaches every copy of the person the service keeps: the event feed,
// webhook deliveries and their replay, a stream resumed from an old Last-Event-ID, the audit
// log, the operator's emails and kept Idempotency-Key answers. Real HTTP, a real receiver, a
// real database (SQLite, or PostgreSQL under TEST_DATABASE_URL).
const ANA = { name: 'Ana Silva', email: 'Ana.Silva@Example.pt', phone: '912 345 678' }
const TRACES = ['ana.silva@example.pt', 'ana silva', '912345678', '912 345 678', '912000111', 'pushchair']
const EVENTS = ['booking.confirmed', 'booking.changed', 'contact.received', 'newsletter.subscribed']

function assertNoTrace(text: string, where: string) {
  for (const trace of TRACES) assert.ok(!text.toLowerCase().includes(trace), `${where} holds no "${trace}"`)
}

/** The messages of GET /stream after `lastEventId`, read until `count` have come. */
async function streamed(client: OperatorClient, lastEventId: string, count: number): Promise<string[]> {
  const controller = new AbortController()
  const credential = (client as any).credential as { bearer: string }
  const response = await fetch(`${client.base}/stream`, {
    headers: { accept: 'text/event-stream', authorization: `Bearer ${credential.bearer}`, 'last-event-id': lastEventId }, signal: controller.signal,
  })
  assert.equal(response.status, 200)
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  let text = ''
  while ((text.match(/^data: /gm) ?? []).length < count) {
    const chunk = await reader.read()
    if (chunk.done) break
    text += chunk.value
  }
  controller.abort()
  return text.split('\n').filter((line) => line.startsWith('data: '))
}

test('an erasure reaches the feed, webhook retries and replays, a resumed stream, the audit log, the operator\'s emails and kept answers', async (t) => {
  const catalog = demoCatalog()
  Object.assign(catalog.instances.find((i: { prefix: string }) => i.prefix === 'lisbon'), { operator_emails: ['ops@tours.example'] })
  const service = await build(t, { catalog, webhooks: { allowPrivate: true, retryScheduleMs: [1000] } })
  let answer = 500
  const hooks = await receiver(t, { answer: () => ({ status: answer }) })
  const manager = await keyOf(service, 'manager')
  const staff = await keyOf(service, 'staff')
  const webhook = await manager.post('/webhooks', { url: hooks.url, events: EVENTS })
  assert.equal(webhook.status, 201, webhook.text)

  // Rui first, so a stream can resume after his event; then Ana's message, sign-up and two bookings.
  const rui = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1 }, { name: 'Rui Costa', email: 'rui@example.pt' })
  const lisbon = service.client('lisbon')
  assert.equal((await lisbon.post('/contact', { message: 'Is the walk pushchair-friendly?', name: ANA.name, email: ANA.email })).status, 200)
  assert.equal((await lisbon.post('/newsletter', { email: ANA.email, name: ANA.name })).status, 200)
  const { booking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 }, ANA)
  const walkIn = { tour_id: 'fado-night', start: FADO_TUE, party: 2, contact: ANA }
  const made = await staff.post('/bookings', walkIn, { 'idempotency-key': 'walk-in-1' })
  assert.equal(made.status, 201, made.text)
  const changed = await staff.patch(`/bookings/${booking.code}`, { contact: { phone: '+351 912 000 111' } })
  assert.equal(changed.status, 200, changed.text)
  await service.context.scheduler.runNow('emails')
  // The first attempts fail, so retries are pending when the erasure comes.
  await service.context.scheduler.runNow('webhooks')
  const failed = hooks.received.length
  assert.ok(failed >= 5, 'Rui\'s and Ana\'s events were sent once')

  const exported = await manager.get(`/privacy?email=${encodeURIComponent(ANA.email)}`)
  assert.equal(exported.body.stored_answers.length, 1, 'the staff booking\'s kept answer is about her')
  const feedBefore = (await staff.get('/events')).body.events
  const toOperator = async () => (await manager.get('/emails?to=ops@tours.example')).body.emails as Array<{ booking_id: string | null }>
  const aboutAna = (await toOperator()).filter((e) => e.booking_id !== rui.booking.id).length
  assert.ok(aboutAna >= 2, 'the operator heard of her message and booking')

  const erased = await manager.delete(`/privacy?email=${encodeURIComponent(ANA.email.toUpperCase())}`)
  assert.equal(erased.status, 200, erased.text)
  assert.equal(erased.body.bookings_anonymised, 2)
  assert.equal(erased.body.stored_answers, 1)
  assert.equal(erased.body.events_scrubbed, feedBefore.length - 1, 'every event but Rui\'s')
  assert.equal(erased.body.operator_emails, aboutAna)
  assert.deepEqual((await toOperator()).map((e) => e.booking_id), [rui.booking.id], 'the operator\'s email about Rui stays')
  assert.equal(erased.body.audit_entries_scrubbed, 1, 'the change of her phone')

  const feed = await staff.get('/events')
  assert.deepEqual(feed.body.events.map((e: { id: string }) => e.id), feedBefore.map((e: { id: string }) => e.id), 'the events keep their ids and numbers')
  assertNoTrace(feed.text, 'the feed')
  assert.ok(feed.text.includes('rui@example.pt'), 'Rui is untouched')
  assert.equal(feed.body.events.find((e: { data: { code?: string } }) => e.data.code === booking.code).data.contact.name, 'erased')

  answer = 200
  service.clock.advance({ seconds: 2 })
  await service.context.scheduler.runNow('webhooks')
  assert.ok(hooks.received.length > failed, 'the retries went')
  const replay = await manager.post(`/webhooks/${webhook.body.webhook.id}/replay`, { since: '2026-06-01T00:00:00Z' })
  assert.equal(replay.status, 200, replay.text)
  await service.context.scheduler.runNow('webhooks')
  const sentAfter = hooks.received.slice(failed).map((r) => r.body)
  assert.equal(sentAfter.length, 2 * failed, 'each event retried once and replayed once')
  assertNoTrace(sentAfter.join('\n'), 'what webhooks sent after the erasure')

  assertNoTrace((await streamed(staff, feedBefore[0].id, feedBefore.length - 1)).join('\n'), 'a stream resumed from Rui\'s event')
  assertNoTrace((await manager.get('/audit?limit=200')).text, 'the audit log')
  assertNoTrace((await manager.get('/emails?limit=200')).text, 'the email log')
  assert.deepEqual((await manager.get(`/privacy?email=${encodeURIComponent(ANA.email)}`)).body.stored_answers, [])
  const kept = await service.context.store.db.selectFrom('idempotency_keys').select('body').execute()
  assertNoTrace(JSON.stringify(kept), 'the kept answers')
  assert.equal((await staff.get(`/bookings/${rui.booking.code}`)).body.contact.email, 'rui@example.pt')

  // An erased booking has no guest to remind or to resend to.
  service.clock.advance({ hours: 1 })
  await service.context.scheduler.runNow('email-reminders')
  const reminders = (await manager.get('/emails?limit=200')).body.emails.filter((e: { kind: string }) => e.kind === 'reminder')
  assert.deepEqual(reminders.map((e: { to: string }) => e.to), ['rui@example.pt'])
  const resend = await staff.post(`/bookings/${booking.code}/resend-confirmation`)
  assert.equal(resend.status, 409, resend.text)
  assert.equal(resend.body.code, 'invalid_transition')
})
