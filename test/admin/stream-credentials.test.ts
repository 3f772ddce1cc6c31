import assert from 'node:assert/strict'
import { test } from 'node:test'
import { apiKeyClient, signedInStaff } from '../helpers/operator.ts'
import { FADO_TUE, guestBooking, operatorService } from './bookings-fixtures.ts'
import { openStream } from './stream-client.ts'

// Issue 24, item 1: an open GET {admin_base}/stream must not outlive its credential. The hub
// reads every stream's credential again from the database (src/admin/event-stream.ts), so
// nothing here tells it of the change: it must find it, as it would a change another node made.

test('signing out ends the session\'s stream, and an event made after never reaches it', async (t) => {
  const { service } = await operatorService(t)
  const { client: viewer } = await signedInStaff(service, 'viewer')
  const stream = await openStream(viewer)
  t.after(stream.close)
  assert.equal(stream.response.status, 200)
  const before = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 1 })
  assert.equal((await stream.nextWithin())!.data.data.code, before.booking.code, 'the stream delivers while the session holds')

  assert.equal((await viewer.delete('/session')).status, 204)
  await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 }, { name: 'Rui Costa', email: 'rui@example.pt' })
  assert.equal(await stream.nextWithin(), null, 'the stream ended without sending the new booking')
  assert.equal((await viewer.get('/me')).status, 401)
})

test('disabling the account, removing it, or demoting it to guide ends its stream', async (t) => {
  const { service } = await operatorService(t)
  const { client: manager } = await signedInStaff(service, 'manager')
  const staff = await Promise.all(['disabled', 'removed', 'demoted'].map(() => signedInStaff(service, 'viewer')))
  const streams = await Promise.all(staff.map(({ client }) => openStream(client)))
  for (const stream of streams) t.after(stream.close)
  assert.deepEqual(streams.map((s) => s.response.status), [200, 200, 200])
  const [disabled, removed, demoted] = staff.map((s) => s.signIn.body.user.id as string)

  assert.equal((await manager.patch(`/staff/${disabled}`, { disabled: true })).status, 200)
  assert.equal((await manager.delete(`/staff/${removed}`)).status, 200)
  assert.equal((await manager.patch(`/staff/${demoted}`, { role: 'guide' })).status, 200)
  await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 1 })
  for (const stream of streams) assert.equal(await stream.nextWithin(), null)
  assert.equal((await staff[2].client.get('/events')).status, 403, 'the demoted guide may no longer read the feed')
})

test('revoking an API key ends its stream; another key\'s stream goes on', async (t) => {
  const { service } = await operatorService(t)
  const { client: manager } = await signedInStaff(service, 'manager')
  const revoked = await apiKeyClient(service, 'viewer')
  const kept = await apiKeyClient(service, 'viewer')
  const revokedStream = await openStream(revoked.client)
  const keptStream = await openStream(kept.client)
  t.after(revokedStream.close)
  t.after(keptStream.close)

  assert.equal((await manager.delete(`/api-keys/${revoked.key.id}`)).status, 200)
  const { booking } = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 1 })
  assert.equal(await revokedStream.nextWithin(), null)
  assert.equal((await keptStream.nextWithin())!.data.data.code, booking.code)
  assert.equal((await revoked.client.get('/me')).status, 401)
})

test('a stream ends when its session has been idle for 2 hours: the stream does not keep it alive', async (t) => {
  const { service } = await operatorService(t)
  const { client: viewer } = await signedInStaff(service, 'viewer')
  const stream = await openStream(viewer)
  t.after(stream.close)
  service.clock.advance({ minutes: 119 })
  const { booking } = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 1 })
  assert.equal((await stream.nextWithin())!.data.data.code, booking.code, 'still live a minute before the idle limit')
  service.clock.advance({ minutes: 2 })
  assert.equal(await stream.nextWithin(), null)
  assert.equal((await viewer.get('/me')).status, 401)
})

test('a stream ends at its session\'s 12-hour expiry, however active the session is', async (t) => {
  const { service } = await operatorService(t)
  const { client: viewer } = await signedInStaff(service, 'viewer')
  const stream = await openStream(viewer)
  t.after(stream.close)
  for (let hour = 1; hour < 12; hour++) {
    service.clock.advance({ hours: 1 })
    assert.equal((await viewer.get('/me')).status, 200, `the session is used at hour ${hour}`)
  }
  service.clock.advance({ minutes: 59 })
  const { booking } = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 1 })
  assert.equal((await stream.nextWithin())!.data.data.code, booking.code, 'still live a minute before the expiry')
  service.clock.advance({ minutes: 1 })
  assert.equal(await stream.nextWithin(), null)
  assert.equal((await viewer.get('/me')).status, 401)
})
