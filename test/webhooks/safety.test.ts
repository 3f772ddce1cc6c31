import assert from 'node:assert/strict'
import { test } from 'node:test'
import { contractChecked, FADO_TUE, guestBooking, operatorService } from '../admin/bookings-fixtures.ts'
import { webhookDelivery } from '../../src/notify/webhook-delivery.ts'
import { eventView } from '../../src/admin/event-view.ts'
import { apiKeyClient } from '../helpers/operator.ts'
import { receiver } from './receiver.ts'

async function manager(service: Awaited<ReturnType<typeof operatorService>>['service']) {
  return contractChecked((await apiKeyClient(service, 'manager')).client)
}

test('with private addresses refused, loopback and private URLs are 422 naming url, a name resolving to 127.0.0.1 included', async (t) => {
  const { service } = await operatorService(t)
  const admin = await manager(service)
  for (const url of ['http://127.0.0.1:9/hook', 'http://localhost:9/hook', 'http://[::1]:9/', 'http://[::ffff:127.0.0.1]/', 'http://10.0.0.7/', 'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data', 'http://100.64.0.1/', 'http://0.0.0.0/', 'http://[fd00::1]/', 'ftp://example.com/', 'not a url']) {
    const refused = await admin.post('/webhooks', { url, events: ['booking.requested'] })
    assert.equal(refused.status, 422, `${url}: ${refused.text}`)
    assert.equal(refused.body.code, 'webhook_url_refused')
    assert.deepEqual(refused.body.errors.map((e: any) => e.field), ['url'])
  }
  assert.deepEqual((await admin.get('/webhooks')).body.webhooks, [])
})

test('an IPv6 address carrying a refused IPv4 address, in any form, and site-local fec0::/10 are refused; the same forms carrying a public address are not', async (t) => {
  const { service } = await operatorService(t)
  const admin = await manager(service)
  // IPv4-compatible, IPv4-translated, NAT64, NAT64 for local use, 6to4, Teredo (client 127.0.0.1 obfuscated), site-local.
  for (const url of ['http://[::127.0.0.1]/', 'http://[::ffff:0:127.0.0.1]/', 'http://[64:ff9b::127.0.0.1]/', 'http://[64:ff9b::10.0.0.1]/',
    'http://[64:ff9b:1::808:808]/', 'http://[2002:7f00:1::]/', 'http://[2002:c0a8:101::1]/', 'http://[2001:0:5ef5:79fd::80ff:fffe]/', 'http://[fec0::1]/']) {
    const refused = await admin.post('/webhooks', { url, events: ['booking.requested'] })
    assert.equal(refused.status, 422, `${url}: ${refused.text}`)
    assert.equal(refused.body.code, 'webhook_url_refused')
  }
  for (const url of ['http://[64:ff9b::8.8.8.8]/', 'http://[2002:808:808::1]/', 'http://[2606:4700::1111]/']) {
    assert.equal((await admin.post('/webhooks', { url, events: ['booking.requested'] })).status, 201, url)
  }
})

test('a refused name is named, never what it resolves to', async (t) => {
  const { service } = await operatorService(t)
  const admin = await manager(service)
  const refused = await admin.post('/webhooks', { url: 'http://localhost:9/hook', events: ['booking.requested'] })
  assert.equal(refused.status, 422)
  assert.match(refused.text, /localhost/)
  assert.doesNotMatch(refused.text, /127\.0\.0\.1|::1/)
})

test('the address is checked again at every connection: an endpoint made while allowed is refused once the setting is off', async (t) => {
  const { service } = await operatorService(t, { webhooks: { allowPrivate: true } })
  const hooks = await receiver(t)
  const admin = await manager(service)
  const made = await admin.post('/webhooks', { url: `http://localhost:${hooks.port}/hook`, events: ['booking.requested'] })
  assert.equal(made.status, 201, made.text)
  // As if the name had been repointed at an internal address after creation: a node with the
  // setting off makes the attempt, and its check at connection refuses it.
  const strict = webhookDelivery(service.context.store, service.context.catalogs, service.clock, { ...service.context.webhooks.settings, allowPrivate: false }, eventView)
  await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })
  await strict.runDue(service.clock.now())
  assert.equal(hooks.received.length, 0)
  const [delivery] = (await admin.get(`/webhooks/${made.body.webhook.id}/deliveries`)).body.deliveries
  assert.equal(delivery.status, 'pending')
  assert.equal(delivery.last_status, null)
  assert.match(delivery.last_error, /localhost is or resolves to a private.*TOURDESK_WEBHOOKS_ALLOW_PRIVATE/)
  assert.doesNotMatch(delivery.last_error, /127\.0\.0\.1|::1/)
  const { store } = service.context
  const endpoint = await store.read(() => store.webhooks.find(service.context.catalogs.get('lisbon')!.instance.ref, made.body.webhook.id))
  const ping = await strict.ping(endpoint!, service.clock.now())
  assert.equal(ping.status, null)
  assert.match(ping.error!, /resolves to/)
  assert.equal(hooks.received.length, 0)
})

test('redirects are not followed: a 302 is a failed attempt and the place it points to sees nothing', async (t) => {
  const { service } = await operatorService(t, { webhooks: { allowPrivate: true, retryScheduleMs: [1000] } })
  const elsewhere = await receiver(t)
  const hooks = await receiver(t, { answer: () => ({ status: 302, headers: { location: elsewhere.url } }) })
  const admin = await manager(service)
  const made = await admin.post('/webhooks', { url: hooks.url, events: ['booking.requested'] })
  hooks.trust(made.body.secret)
  await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })
  await service.context.scheduler.runNow('webhooks')
  service.clock.advance({ seconds: 2 })
  await service.context.scheduler.runNow('webhooks')
  assert.equal(hooks.received.length, 2)
  hooks.assertAllVerified()
  assert.equal(elsewhere.received.length, 0)
  const [delivery] = (await admin.get(`/webhooks/${made.body.webhook.id}/deliveries`)).body.deliveries
  assert.deepEqual([delivery.status, delivery.attempts, delivery.last_status], ['failed', 2, 302])
  assert.match(delivery.last_error, /redirects are not followed/)
  const ping = await admin.post(`/webhooks/${made.body.webhook.id}/test`)
  assert.deepEqual([ping.body.delivered, ping.body.status], [false, 302])
})

test('endpoints: list, read, change, delete; managers only; every change audited', async (t) => {
  const { service, staff } = await operatorService(t, { webhooks: { allowPrivate: true } })
  const admin = await manager(service)
  const made = await admin.post('/webhooks', { url: 'http://127.0.0.1:9/a', events: ['booking.confirmed'] })
  const id = made.body.webhook.id
  assert.match(id, /^wh_[0-9a-f]{32}$/)
  assert.equal((await staff.get('/webhooks')).status, 403)
  assert.equal((await staff.post('/webhooks', { url: 'http://127.0.0.1:9/a', events: ['booking.confirmed'] })).status, 403)
  const list = await admin.get('/webhooks')
  assert.deepEqual(list.body.webhooks.map((w: any) => w.id), [id])
  assert.equal(JSON.stringify(list.body).includes('whsec_'), false, 'the secret is shown on creation and rotation only')
  const changed = await admin.patch(`/webhooks/${id}`, { events: ['booking.cancelled', 'booking.confirmed'], description: 'Accounting' })
  assert.equal(changed.status, 200, changed.text)
  assert.deepEqual([changed.body.events, changed.body.description, changed.body.version], [['booking.cancelled', 'booking.confirmed'], 'Accounting', 2])
  assert.equal((await admin.patch(`/webhooks/${id}`, { events: ['booking.nope'] })).status, 400)
  assert.equal((await admin.patch(`/webhooks/${id}`, { enabled: false })).body.enabled, false)
  assert.equal((await admin.get(`/webhooks/wh_${'0'.repeat(32)}`)).status, 404)
  assert.equal((await admin.delete(`/webhooks/${id}`)).status, 204)
  assert.equal((await admin.get(`/webhooks/${id}`)).status, 404)
  const actions = (await admin.get('/audit')).body.entries.map((e: any) => e.action).filter((a: string) => a.startsWith('webhook.'))
  assert.deepEqual(actions.sort(), ['webhook.changed', 'webhook.changed', 'webhook.created', 'webhook.deleted'])
})
