import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Temporal } from 'temporal-polyfill'
import { contractChecked, FADO_TUE, guestBooking, operatorService } from '../admin/bookings-fixtures.ts'
import { demoCatalog } from '../helpers/build.ts'
import { apiKeyClient } from '../helpers/operator.ts'
import { receiver } from './receiver.ts'

const PRIVATE_ALLOWED = { allowPrivate: true, retryScheduleMs: [1000, 2000] }

/** A manager's API key (the clock moves past a staff session's idle limit in some tests), its answers checked against openapi.json. */
async function manager(service: Awaited<ReturnType<typeof operatorService>>['service']) {
  return contractChecked((await apiKeyClient(service, 'manager')).client)
}

test('a receiver sees booking.requested then booking.confirmed, signed and verified by the reference library', async (t) => {
  const { service, staff } = await operatorService(t, { webhooks: PRIVATE_ALLOWED })
  const hooks = await receiver(t)
  const admin = await manager(service)
  const made = await admin.post('/webhooks', { url: hooks.url, events: ['booking.requested', 'booking.confirmed'], description: 'test' })
  assert.equal(made.status, 201, made.text)
  assert.match(made.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/)
  assert.equal(made.body.webhook.enabled, true)
  hooks.trust(made.body.secret)

  const { booking } = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })
  assert.equal((await staff.post(`/bookings/${booking.code}/confirm`)).status, 200)
  const report = await service.context.scheduler.runNow('webhooks')
  assert.equal((report as any).delivered, 2)

  assert.deepEqual(hooks.received.map((r) => [r.event.type, r.event.data.code]), [['booking.requested', booking.code], ['booking.confirmed', booking.code]])
  hooks.assertAllVerified()
  const feed = (await staff.get('/events')).body.events
  assert.deepEqual(hooks.received.map((r) => r.headers['webhook-id']), feed.map((e: any) => e.id))
  assert.deepEqual(hooks.received.map((r) => r.event), feed, 'the body is the event as the feed gives it')

  const log = await admin.get(`/webhooks/${made.body.webhook.id}/deliveries`)
  assert.equal(log.status, 200, log.text)
  assert.deepEqual(log.body.deliveries.map((d: any) => [d.status, d.attempts, d.last_status]), [['delivered', 1, 200], ['delivered', 1, 200]])
  // Both were made at the same instant of the test's clock, so their order is the ids'.
  assert.deepEqual(log.body.deliveries.map((d: any) => [d.event_type, d.booking]).sort(), [['booking.confirmed', booking.code], ['booking.requested', booking.code]],
    'the log says what each delivery was: its event type and booking')
  assert.equal((await service.context.scheduler.runNow('webhooks') as any).delivered, 0, 'nothing is sent twice')
  const audit = await admin.get('/audit?action=webhook.created')
  assert.equal(audit.body.entries.length, 1)
  assert.ok(!JSON.stringify(audit.body).includes(made.body.secret), 'the audit log never holds the secret')
})

test('a failed attempt is retried on the schedule with the same webhook-id; Retry-After is honoured; the last failure is final', async (t) => {
  const { service } = await operatorService(t, { webhooks: PRIVATE_ALLOWED })
  const answers = [{ status: 500 }, { status: 503, headers: { 'retry-after': '60' } }, { status: 200 }]
  const hooks = await receiver(t, { answer: (n) => answers[n - 1] ?? { status: 500 } })
  const admin = await manager(service)
  const made = await admin.post('/webhooks', { url: hooks.url, events: ['booking.requested'] })
  hooks.trust(made.body.secret)
  await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })

  await service.context.scheduler.runNow('webhooks')
  assert.equal(hooks.received.length, 1)
  let [delivery] = (await admin.get(`/webhooks/${made.body.webhook.id}/deliveries`)).body.deliveries
  assert.deepEqual([delivery.status, delivery.attempts, delivery.last_status], ['pending', 1, 500])
  assert.match((await admin.get(`/webhooks/${made.body.webhook.id}`)).body.failing_since, /^2026-/)

  service.clock.advance({ milliseconds: 500 })
  await service.context.scheduler.runNow('webhooks')
  assert.equal(hooks.received.length, 1, 'not before its time (1 s ± 10 %)')
  service.clock.advance({ milliseconds: 700 })
  await service.context.scheduler.runNow('webhooks')
  assert.equal(hooks.received.length, 2)
  service.clock.advance({ seconds: 10 })
  await service.context.scheduler.runNow('webhooks')
  assert.equal(hooks.received.length, 2, 'Retry-After: 60 is later than the 2 s of the schedule')
  service.clock.advance({ seconds: 60 })
  await service.context.scheduler.runNow('webhooks')
  assert.equal(hooks.received.length, 3)
  hooks.assertAllVerified()
  assert.equal(new Set(hooks.received.map((r) => r.headers['webhook-id'])).size, 1, 'every attempt has the same webhook-id')
  ;[delivery] = (await admin.get(`/webhooks/${made.body.webhook.id}/deliveries`)).body.deliveries
  assert.deepEqual([delivery.status, delivery.attempts, delivery.last_status], ['delivered', 3, 200])
  assert.equal((await admin.get(`/webhooks/${made.body.webhook.id}`)).body.failing_since, null)

  // A receiver that keeps failing: two retries (the schedule 1s,2s), then failed.
  await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 1 })
  for (let i = 0; i < 4; i++) {
    await service.context.scheduler.runNow('webhooks')
    service.clock.advance({ seconds: 3 })
  }
  const [last] = (await admin.get(`/webhooks/${made.body.webhook.id}/deliveries`)).body.deliveries
  assert.deepEqual([last.status, last.attempts, last.last_status, last.next_attempt_at], ['failed', 3, 500, null])
  assert.equal(hooks.received.length, 6)
})

test('the delivery log keeps every attempt: when, how long, the status or the network error, the first 1 KiB of the answer; pruned with the log after 30 days', async (t) => {
  const { service } = await operatorService(t, { webhooks: PRIVATE_ALLOWED })
  const failure = `database down: ${'é'.repeat(600)}`
  const answers = [{ status: 500, body: failure }, { status: 200, body: 'ok' }]
  const hooks = await receiver(t, { answer: (n) => answers[n - 1] ?? { status: 500 } })
  const admin = await manager(service)
  const made = await admin.post('/webhooks', { url: hooks.url, events: ['booking.requested'] })
  // Nothing listens on port 9 (discard) here: a network error.
  const dead = await admin.post('/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['booking.requested'] })
  await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })
  const firstAt = service.clock.now()
  await service.context.scheduler.runNow('webhooks')
  service.clock.advance({ seconds: 2 })
  await service.context.scheduler.runNow('webhooks')

  const [delivery] = (await admin.get(`/webhooks/${made.body.webhook.id}/deliveries`)).body.deliveries
  assert.deepEqual([delivery.status, delivery.attempts, delivery.last_status], ['delivered', 2, 200])
  const [first, second] = delivery.attempt_log
  assert.deepEqual(delivery.attempt_log.map((a: any) => [a.attempt, a.status]), [[1, 500], [2, 200]])
  assert.equal(Date.parse(first.at), firstAt.epochMilliseconds)
  assert.equal(Date.parse(second.at), firstAt.epochMilliseconds + 2000)
  assert.ok(Number.isInteger(first.duration_ms) && first.duration_ms >= 0)
  assert.match(first.error, /answered 500/)
  assert.equal(Buffer.byteLength(first.answer), 1024 - 1, 'the first 1 KiB, cut before a split character')
  assert.ok(failure.startsWith(first.answer))
  assert.deepEqual([second.error, second.answer], [null, 'ok'])

  const [refused] = (await admin.get(`/webhooks/${dead.body.webhook.id}/deliveries`)).body.deliveries
  assert.equal(refused.attempt_log.length, refused.attempts)
  assert.deepEqual([refused.attempt_log[0].status, refused.attempt_log[0].answer], [null, null])
  assert.match(refused.attempt_log[0].error, /could not connect: .*ECONNREFUSED/)

  service.clock.advance({ hours: 31 * 24 })
  await service.context.scheduler.runNow('webhooks')
  assert.deepEqual((await admin.get(`/webhooks/${made.body.webhook.id}/deliveries`)).body.deliveries, [])
  assert.deepEqual(await service.context.store.db.selectFrom('webhook_attempts').selectAll().execute(), [], 'pruned with the log')
})

test('410 disables the endpoint; nothing more is sent until it is enabled again', async (t) => {
  const { service } = await operatorService(t, { webhooks: PRIVATE_ALLOWED })
  const hooks = await receiver(t, { answer: (n) => ({ status: n === 1 ? 410 : 200 }) })
  const admin = await manager(service)
  const made = await admin.post('/webhooks', { url: hooks.url, events: ['booking.requested'] })
  const id = made.body.webhook.id
  await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })
  assert.equal((await service.context.scheduler.runNow('webhooks') as any).disabledEndpoints, 1)
  const disabled = (await admin.get(`/webhooks/${id}`)).body
  assert.equal(disabled.enabled, false)
  assert.match(disabled.disabled_reason, /410/)
  await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 1 })
  service.clock.advance({ minutes: 1 })
  await service.context.scheduler.runNow('webhooks')
  assert.equal(hooks.received.length, 1)
  const enabled = await admin.patch(`/webhooks/${id}`, { enabled: true })
  assert.equal(enabled.body.enabled, true)
  const replay = await admin.post(`/webhooks/${id}/replay`, { since: '2026-06-01T00:00:00Z' })
  assert.equal(replay.body.deliveries, 2)
  await service.context.scheduler.runNow('webhooks')
  assert.equal(hooks.received.length, 3)
  assert.equal(new Set(hooks.received.map((r) => r.headers['webhook-id'])).size, 2, 'a replay keeps the event id')
})

test('after a rotation both secrets verify every delivery for 24 hours, then only the new one', async (t) => {
  const { service } = await operatorService(t, { webhooks: PRIVATE_ALLOWED })
  const hooks = await receiver(t)
  const admin = await manager(service)
  const made = await admin.post('/webhooks', { url: hooks.url, events: ['booking.requested'] })
  const id = made.body.webhook.id
  const rotated = await admin.post(`/webhooks/${id}/rotate-secret`)
  assert.equal(rotated.status, 200, rotated.text)
  assert.notEqual(rotated.body.secret, made.body.secret)
  assert.ok(rotated.body.webhook.previous_secret_expires_at)
  hooks.trust(made.body.secret)
  hooks.trust(rotated.body.secret)
  await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })
  await service.context.scheduler.runNow('webhooks')
  assert.deepEqual(hooks.verifiedBy[0], [made.body.secret, rotated.body.secret])
  assert.equal(String(hooks.received[0].headers['webhook-signature']).split(' ').length, 2)

  const ping = await admin.post(`/webhooks/${id}/test`)
  assert.deepEqual([ping.body.delivered, ping.body.status], [true, 200])
  assert.equal(hooks.received[1].event.type, 'webhook.test')
  assert.deepEqual(hooks.verifiedBy[1], [made.body.secret, rotated.body.secret])

  service.clock.advance({ hours: 24, seconds: 1 })
  await admin.post(`/webhooks/${id}/test`)
  assert.deepEqual(hooks.verifiedBy[2], [rotated.body.secret])
  assert.equal((await admin.get(`/webhooks/${id}`)).body.previous_secret_expires_at, null)
})

test('an endpoint that has failed for 5 days is disabled', async (t) => {
  const { service } = await operatorService(t, { webhooks: PRIVATE_ALLOWED })
  const hooks = await receiver(t, { answer: () => ({ status: 500 }) })
  const admin = await manager(service)
  const made = await admin.post('/webhooks', { url: hooks.url, events: ['booking.requested'] })
  const id = made.body.webhook.id
  await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })
  await service.context.scheduler.runNow('webhooks')
  const failingSince = (await admin.get(`/webhooks/${id}`)).body.failing_since
  assert.ok(failingSince)

  service.clock.advance({ hours: 24 * 5 - 1 })
  assert.equal((await admin.post(`/webhooks/${id}/replay`, { since: '2026-06-01T00:00:00Z' })).body.deliveries, 1)
  await service.context.scheduler.runNow('webhooks')
  assert.equal((await admin.get(`/webhooks/${id}`)).body.enabled, true, 'still enabled before 5 days')

  service.clock.advance({ hours: 2 })
  await service.context.scheduler.runNow('webhooks')
  const endpoint = (await admin.get(`/webhooks/${id}`)).body
  assert.equal(endpoint.enabled, false)
  assert.match(endpoint.disabled_reason, /failed for 5 days/)
  assert.equal(endpoint.failing_since, failingSince)
  const audit = (await admin.get('/audit?action=webhook.disabled')).body.entries
  assert.equal(audit.length, 1)
})

test('webhook-timestamp is read from the injected signing clock, and the reference library verifies it', async (t) => {
  const signedAt = Temporal.Now.instant().subtract({ seconds: 90 }).round({ smallestUnit: 'second', roundingMode: 'floor' })
  const { service } = await operatorService(t, { webhooks: { ...PRIVATE_ALLOWED, signingClock: { now: () => signedAt } } })
  const hooks = await receiver(t)
  const made = await (await manager(service)).post('/webhooks', { url: hooks.url, events: ['booking.requested'] })
  hooks.trust(made.body.secret)
  await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })
  assert.equal((await service.context.scheduler.runNow('webhooks') as any).delivered, 1)
  assert.equal(hooks.received[0].headers['webhook-timestamp'], String(signedAt.epochMilliseconds / 1000))
  hooks.assertAllVerified()
})

test("a booking's webhook payload carries its party, seats and units lines, as the feed does", async (t) => {
  const catalog = demoCatalog()
  Object.assign(catalog.instances[0].tours.find((tour: { id: string }) => tour.id === 'fado-night'), {
    units: [
      { id: 'adult', type: 'adult', name: 'Adult', price: 5500 },
      { id: 'infant', type: 'infant', name: 'Infant', price: 0, seats: 0, accompanied_by: ['adult'] },
    ],
  })
  const { service } = await operatorService(t, { webhooks: PRIVATE_ALLOWED, catalog })
  const hooks = await receiver(t)
  const admin = await manager(service)
  const made = await admin.post('/webhooks', { url: hooks.url, events: ['booking.confirmed'], description: 'units' })
  assert.equal(made.status, 201, made.text)
  hooks.trust(made.body.secret)

  const booked = await admin.post('/bookings', { tour_id: 'fado-night', start: FADO_TUE, party: 3, units: { adult: 2, infant: 1 }, contact: { name: 'Ana Silva', email: 'ana@example.pt' } })
  assert.equal(booked.status, 201, booked.text)
  await service.context.scheduler.runNow('webhooks')
  assert.deepEqual(hooks.received.map((r) => [r.event.type, r.event.data.code, r.event.data.party, r.event.data.seats, r.event.data.units]), [['booking.confirmed', booked.body.code, 3, 2, [
    { id: 'adult', type: 'adult', name: 'Adult', quantity: 2, amount: 11000 },
    { id: 'infant', type: 'infant', name: 'Infant', quantity: 1, amount: 0 },
  ]]])
  hooks.assertAllVerified()
})
