import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sql } from 'kysely'
import { CONTACT } from '../helpers/booking-fixtures.ts'
import { ALFAMA_TUE, FADO_TUE, contractChecked, guestBooking, keyOf, operatorService } from './bookings-fixtures.ts'
import { departurePath } from './departures-fixtures.ts'

test('the feed tells what happened in commit order, with the operator record as the change left it; holds make no events', async (t) => {
  const { service, staff } = await operatorService(t)
  const held = service.client()
  const heldSession = await held.session()
  assert.equal((await held.post('/booking', { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 }, { headers: heldSession.headers })).status, 200)
  assert.deepEqual((await staff.get('/events')).body, { events: [], next_cursor: null })

  const { booking } = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })
  const confirmed = await staff.post(`/bookings/${booking.code}/confirm`)
  assert.equal(confirmed.status, 200, confirmed.text)
  const instant = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1 })

  const feed = await staff.get('/events')
  assert.equal(feed.status, 200, feed.text)
  assert.deepEqual(feed.body.events.map((e: any) => [e.type, e.data.code]), [
    ['booking.requested', booking.code], ['booking.confirmed', booking.code], ['booking.confirmed', instant.booking.code],
  ])
  const [requested, confirmedEvent] = feed.body.events
  assert.match(requested.id, /^evt_[0-9a-f]{32}$/)
  assert.deepEqual(requested.instance, { prefix: 'lisbon', ref: service.context.catalogs.get('lisbon')!.instance.ref })
  assert.equal(requested.data.status, 'requested')
  assert.equal(confirmedEvent.data.status, 'confirmed')
  assert.equal(confirmedEvent.data.version, requested.data.version + 1)
  assert.equal(confirmedEvent.data.contact.email, CONTACT.email)
  assert.match(requested.occurred_at, /\+01:00$/)

  const after = await staff.get(`/events?after=${requested.id}`)
  assert.deepEqual(after.body.events.map((e: any) => e.id), feed.body.events.slice(1).map((e: any) => e.id))
  const paged = await staff.get('/events?limit=2')
  assert.equal(paged.body.next_cursor, paged.body.events[1].id)
  const rest = await staff.get(`/events?after=${paged.body.next_cursor}&limit=2`)
  assert.deepEqual([...paged.body.events, ...rest.body.events].map((e: any) => e.id), feed.body.events.map((e: any) => e.id))
  assert.equal(rest.body.next_cursor, null)
  const onlyRequested = await staff.get('/events?types=booking.requested')
  assert.deepEqual(onlyRequested.body.events.map((e: any) => e.id), [requested.id])
})

test('departure, contact and newsletter events; quarantined submissions make none', async (t) => {
  const { service, staff } = await operatorService(t)
  const guest = service.client()
  const session = await guest.session()
  const decoy = await guest.post('/booking', { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2, company: 'ACME Ltd' }, { headers: session.headers })
  assert.equal(decoy.status, 200, decoy.text)
  assert.equal((await guest.post('/checkout', CONTACT, { headers: session.headers })).status, 200)
  assert.equal((await guest.post('/contact', { name: 'Spam', email: 'spam@example.com', message: 'buy', website: 'http://x.example' }, { headers: session.headers })).status, 200)
  assert.equal((await guest.post('/contact', { name: 'Ana', email: 'ana@example.com', message: 'Is the walk steep?' }, { headers: session.headers })).status, 200)
  assert.equal((await guest.post('/newsletter', { email: 'news@example.com' }, { headers: session.headers })).status, 200)
  assert.equal((await guest.post('/newsletter', { email: 'news@example.com' }, { headers: session.headers })).status, 200)

  const path = departurePath('alfama-walk', ALFAMA_TUE)
  assert.equal((await staff.patch(path, { closed: true })).status, 200)
  assert.equal((await staff.patch(path, { note: 'no change of state' })).status, 200)
  assert.equal((await staff.patch(path, { closed: false })).status, 200)
  assert.equal((await staff.post(`${path}/cancel`, { reason: 'Storm' })).status, 200)

  const { body } = await staff.get('/events')
  assert.deepEqual(body.events.map((e: any) => e.type), [
    'contact.received', 'newsletter.subscribed', 'departure.closed', 'departure.reopened', 'departure.cancelled',
  ])
  const [contact, newsletter, closed, , cancelled] = body.events
  assert.equal(contact.data.message, 'Is the walk steep?')
  assert.equal(newsletter.data.email, 'news@example.com')
  assert.equal(closed.data.closed, true)
  assert.equal(cancelled.data.cancelled, true)
})

test('only roles that read bookings read the feed; an after the feed does not hold is 404; a bad types is 400', async (t) => {
  const { service, staff } = await operatorService(t)
  const guide = await keyOf(service, 'guide')
  assert.equal((await guide.get('/events')).status, 403)
  const viewer = await contractChecked(await keyOf(service, 'viewer'))
  assert.equal((await viewer.get('/events')).status, 200)
  const unknown = await staff.get(`/events?after=evt_${'0'.repeat(32)}`)
  assert.equal(unknown.status, 404)
  const badType = await staff.get('/events?types=booking.exploded')
  assert.equal(badType.status, 400)
  assert.equal(badType.body.errors[0].field, 'types')
  assert.equal((await staff.get('/events?after=nope')).status, 400)
})

test('parallel checkouts number their events 1…n with no gap and no repeat, and the feed gives each once', async (t) => {
  const { service, staff } = await operatorService(t)
  const parties = Array.from({ length: 12 }, (_, i) => i)
  await Promise.all(parties.map(() => guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1 })))
  const { rows } = await sql<{ seq: number | string }>`select seq from events order by seq`.execute(service.context.store.db)
  assert.deepEqual(rows.map((r) => Number(r.seq)), parties.map((i) => i + 1))
  const seen: string[] = []
  let after: string | null = null
  do {
    const page: any = await staff.get(`/events?limit=5${after ? `&after=${after}` : ''}`)
    seen.push(...page.body.events.map((e: any) => e.data.code))
    after = page.body.next_cursor
  } while (after)
  assert.equal(new Set(seen).size, parties.length)
  assert.equal(seen.length, parties.length)
})
