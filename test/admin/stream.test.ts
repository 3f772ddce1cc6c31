import assert from 'node:assert/strict'
import { test } from 'node:test'
import { startService } from '../helpers/build.ts'
import { signedInStaff } from '../helpers/operator.ts'
import { FADO_MON, FADO_TUE, guestBooking, keyOf, operatorService } from './bookings-fixtures.ts'
import { openStream } from './stream-client.ts'

// GET {admin_base}/stream (issue 17): the event feed as server-sent events, for the back
// office's Requests view. Real HTTP, real database, the stream read as a browser reads it.

test('the stream needs a credential and the role that reads bookings; a guide is refused', async (t) => {
  const { service } = await operatorService(t)
  const anonymous = await fetch(`${service.origin}/admin/api/lisbon/stream`)
  assert.equal(anonymous.status, 401)
  assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer realm="tourdesk"')
  assert.equal(((await anonymous.json()) as { code: string }).code, 'unauthenticated')
  const guide = await openStream(await keyOf(service, 'guide'))
  assert.equal(guide.response.status, 403)
  guide.close()
  const viewer = await openStream(await keyOf(service, 'viewer'))
  assert.equal(viewer.response.status, 200)
  viewer.close()
})

test('events arrive as they commit, each with its id, in commit order; a staff session streams too', async (t) => {
  const { service, staff } = await operatorService(t)
  const earlier = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 1 })
  const stream = await openStream(staff)
  t.after(stream.close)
  assert.equal(stream.response.status, 200)
  assert.match(stream.response.headers.get('content-type')!, /^text\/event-stream/)
  assert.equal(stream.response.headers.get('cache-control'), 'no-store')
  assert.equal(stream.response.headers.get('x-content-type-options'), 'nosniff')

  const { booking } = await guestBooking(service, { tour_id: 'fado-night', start: FADO_MON, party: 2 })
  const requested = await stream.next()
  assert.equal(requested!.data.type, 'booking.requested', 'the stream starts after the events made before it opened')
  assert.equal(requested!.data.data.code, booking.code)
  assert.equal(requested!.data.id, requested!.id)
  assert.notEqual(requested!.data.data.code, earlier.booking.code)

  assert.equal((await staff.post(`/bookings/${booking.code}/confirm`)).status, 200)
  const confirmed = await stream.next()
  assert.deepEqual([confirmed!.data.type, confirmed!.data.data.code, confirmed!.data.data.status], ['booking.confirmed', booking.code, 'confirmed'])

  const feed = (await staff.get('/events')).body.events.map((e: any) => e.id)
  assert.deepEqual(feed.slice(-2), [requested!.id, confirmed!.id], 'the stream gives the feed\'s ids')
})

test('Last-Event-ID resumes after that event; one the feed does not hold is 404, a malformed one 400', async (t) => {
  const { service, staff } = await operatorService(t)
  const first = await guestBooking(service, { tour_id: 'fado-night', start: FADO_MON, party: 2 })
  const second = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 1 }, { name: 'Rui Costa', email: 'rui@example.pt' })
  const [firstEvent, secondEvent] = (await staff.get('/events')).body.events
  assert.equal(firstEvent.data.code, first.booking.code)

  const resumed = await openStream(staff, { 'last-event-id': firstEvent.id })
  t.after(resumed.close)
  const missed = await resumed.next()
  assert.deepEqual([missed!.id, missed!.data.data.code], [secondEvent.id, second.booking.code])
  assert.equal((await staff.post(`/bookings/${first.booking.code}/decline`, { reason: 'Full' })).status, 200)
  const live = await resumed.next()
  assert.deepEqual([live!.data.type, live!.data.data.code], ['booking.declined', first.booking.code])

  const gone = await openStream(staff, { 'last-event-id': `evt_${'0'.repeat(32)}` })
  assert.equal(gone.response.status, 404)
  assert.equal(gone.problem.code, 'not_found')
  const malformed = await openStream(staff, { 'last-event-id': 'yesterday' })
  assert.equal(malformed.response.status, 400)
  assert.equal(malformed.problem.code, 'validation_failed')
})

test('the stream ends when the server shuts down', async () => {
  const service = await startService()
  try {
    const { client } = await signedInStaff(service, 'viewer')
    const stream = await openStream(client)
    assert.equal(stream.response.status, 200)
    const ended = stream.next()
    await service.app.close()
    assert.equal(await ended, null, 'the stream is closed, not left hanging')
  } finally {
    await service.close()
  }
})

test('openapi.json documents the stream as text/event-stream with Last-Event-ID, under the same roles as the feed', async (t) => {
  const { service } = await operatorService(t)
  const document: any = await (await fetch(`${service.origin}/admin/api/lisbon/openapi.json`)).json()
  const operation = document.paths['/stream'].get
  assert.ok(operation.responses['200'].content['text/event-stream'])
  assert.ok(operation.parameters.some((p: any) => p.name === 'Last-Event-ID' && p.in === 'header'))
  // A reseller key is refused on every operator route (docs/resellers.md), and a role short of the feed's.
  assert.deepEqual(operation.responses['403']['x-error-codes'], ['reseller_key_refused', 'forbidden'])
  assert.ok(operation.responses['401']['x-error-codes'].includes('unauthenticated'))
})
