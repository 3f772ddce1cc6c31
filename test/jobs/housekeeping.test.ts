import assert from 'node:assert/strict'
import { test } from 'node:test'
import { runHousekeeping } from '../../src/jobs/housekeeping.ts'
import { CONTACT } from '../helpers/booking-fixtures.ts'
import { build } from '../helpers/build.ts'
import type { ManualClock } from '../helpers/manual-clock.ts'
import { OperatorClient, signedInStaff } from '../helpers/operator.ts'

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
  assert.deepEqual(first, { expiredHolds: 1, declinedRequests: 0, deletedSessions: 0, deletedStaffRecords: 0, deletedIdempotencyKeys: 0, deletedSubmissions: 0, deletedEvents: 0, deletedEmails: 0 })
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

test('housekeeping deletes staff sessions gone idle, sign-in failure counts past the lockout and setup links past their expiry, and keeps the live ones', async (t) => {
  const service = await build(t)
  const clock = service.clock as ManualClock
  const { store } = service.context
  const lisbon = service.context.catalogs.get('lisbon')!.instance.ref
  const idle = await signedInStaff(service, 'staff')
  assert.equal((await new OperatorClient(service.origin, 'lisbon').post('/session', { email: idle.email, password: 'not the password at all' })).status, 401)
  await service.context.staff.addStaff(lisbon, { email: 'invited@example.com', name: 'Invited', role: 'staff' }, { type: 'system', id: null, name: 'test' }, clock.now())
  const count = async (table: 'staff_sessions' | 'sign_in_counts' | 'staff_setup_tokens') =>
    Number((await store.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
  assert.deepEqual([await count('staff_sessions'), await count('sign_in_counts'), await count('staff_setup_tokens')], [1, 1, 1])

  clock.advance({ minutes: 121 })
  const live = await signedInStaff(service, 'manager')
  const first = await runHousekeeping(service.context, clock.now())
  assert.equal(first.deletedStaffRecords, 2, 'the idle session and the failure count')
  assert.equal((await idle.client.get('/me')).status, 401)
  assert.equal((await live.client.get('/me')).status, 200, 'the live session stays')
  assert.deepEqual([await count('staff_sessions'), await count('sign_in_counts'), await count('staff_setup_tokens')], [1, 0, 1], 'the setup link lasts 24 hours')

  clock.advance({ hours: 23 })
  assert.equal((await runHousekeeping(service.context, clock.now())).deletedStaffRecords, 2, 'the setup link and the now idle session')
  assert.deepEqual([await count('staff_sessions'), await count('sign_in_counts'), await count('staff_setup_tokens')], [0, 0, 0])
})
