import assert from 'node:assert/strict'
import { test } from 'node:test'
import { runHousekeeping } from '../../src/services/housekeeping.ts'
import { build } from '../helpers/build.ts'
import type { ManualClock } from '../helpers/manual-clock.ts'

test('housekeeping expires lapsed holds once and deletes sessions and idempotency keys past their lifetime', async (t) => {
  const service = await build(t)
  const clock = service.clock as ManualClock
  const client = service.client()
  const s = await client.session()
  const hold = await client.post('/booking', { tour_id: 'alfama-walk', start: '2026-06-02T08:30:00Z', party: 3 }, { headers: { ...s.headers, 'idempotency-key': 'house-1' } })
  assert.equal(hold.status, 200)
  const { store } = service.context

  clock.advance({ minutes: 16 })
  const first = await runHousekeeping(service.context, clock.now())
  assert.deepEqual(first, { expiredHolds: 1, declinedRequests: 0, deletedSessions: 0, deletedIdempotencyKeys: 0, deletedSubmissions: 0 })
  const departure = await store.db.selectFrom('departures').select('seats_taken').executeTakeFirstOrThrow()
  assert.equal(departure.seats_taken, 0)
  assert.equal((await runHousekeeping(service.context, clock.now())).expiredHolds, 0)

  clock.advance({ hours: 31 * 24 })
  const later = await runHousekeeping(service.context, clock.now())
  assert.equal(later.deletedSessions, 1)
  assert.equal(later.deletedIdempotencyKeys, 1)
  const booking = await store.db.selectFrom('bookings').select('status').executeTakeFirstOrThrow()
  assert.equal(booking.status, 'expired', 'expired bookings stay on record')
})
