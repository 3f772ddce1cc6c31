import assert from 'node:assert/strict'
import { test } from 'node:test'
import { runHousekeeping } from '../../src/jobs/housekeeping.ts'
import { CONTACT } from '../helpers/booking-fixtures.ts'
import { build } from '../helpers/build.ts'
import type { ManualClock } from '../helpers/manual-clock.ts'

test('housekeeping expires lapsed holds once and deletes sessions, idempotency keys, events and emails past their lifetime', async (t) => {
  const service = await build(t)
  const clock = service.clock as ManualClock
  const client = service.client()
  const s = await client.session()
  const hold = await client.post('/booking', { tour_id: 'alfama-walk', start: '2026-06-02T08:30:00Z', party: 3 }, { headers: { ...s.headers, 'idempotency-key': 'house-1' } })
  assert.equal(hold.status, 200)
  const booker = await client.session()
  assert.equal((await client.post('/booking', { tour_id: 'alfama-walk', start: '2026-06-02T13:00:00Z', party: 1 }, { headers: booker.headers })).status, 200)
  assert.equal((await client.post('/checkout', CONTACT, { headers: booker.headers })).status, 200)
  const { store } = service.context
  await service.context.scheduler.runNow('emails')

  clock.advance({ minutes: 16 })
  const first = await runHousekeeping(service.context, clock.now())
  assert.deepEqual(first, { expiredHolds: 1, declinedRequests: 0, deletedSessions: 0, deletedIdempotencyKeys: 0, deletedSubmissions: 0, deletedEvents: 0, deletedEmails: 0 })
  const departure = await store.db.selectFrom('departures').select('seats_taken').where('start_at', '=', '2026-06-02T08:30:00.000Z').executeTakeFirstOrThrow()
  assert.equal(departure.seats_taken, 0)
  assert.equal((await runHousekeeping(service.context, clock.now())).expiredHolds, 0)

  clock.advance({ hours: 31 * 24 })
  const later = await runHousekeeping(service.context, clock.now())
  assert.equal(later.deletedSessions, 2, 'both sessions, each 30 days after its last hold')
  assert.equal(later.deletedIdempotencyKeys, 1)
  assert.equal(later.deletedEvents, 1, 'the checkout\'s booking.confirmed, kept 30 days')
  assert.equal(later.deletedEmails, 0)
  clock.advance({ hours: 150 * 24 })
  assert.equal((await runHousekeeping(service.context, clock.now())).deletedEmails, 1, 'the confirmation, kept 180 days')
  const booking = await store.db.selectFrom('bookings').select('status').where('session_id', '=', s.session).executeTakeFirstOrThrow()
  assert.equal(booking.status, 'expired', 'expired bookings stay on record')
})
