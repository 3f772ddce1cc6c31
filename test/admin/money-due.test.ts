import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build } from '../helpers/build.ts'
import { ALFAMA_TUE, FADO_MON, FADO_TUE, guestBooking, keyOf } from './bookings-fixtures.ts'

// Money due follows the status (issue 25, item 3): nothing is due on arrival on a declined,
// cancelled or expired booking, a cancellation fee is stated as the fee, and withdrawing a
// request nobody has accepted costs nothing. Over real HTTP: the guest's record, the
// operator's record and manifest, and the emails the guest is sent.

test("a cancelled booking owes its fee and nothing on arrival, in the guest's and the operator's record, and its email says neither 'due on arrival' nor 'change your booking'", async (t) => {
  const service = await build(t)
  const manager = await keyOf(service, 'manager')
  // alfama-walk on Tuesday 09:30 is under 48 hours away: cancelling a confirmed booking costs a fee.
  const { client, session, booking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 })
  assert.equal(booking.status, 'confirmed')
  assert.ok(booking.cancellation_now.fee > 0, 'a fee applies to a confirmed booking this late')
  const cancelled = await client.delete('/booking', { headers: session.headers })
  assert.equal(cancelled.status, 200, cancelled.text)
  assert.equal(cancelled.body.price.due_on_arrival, 0)
  assert.equal(cancelled.body.cancellation.fee, booking.cancellation_now.fee)
  const record = (await manager.get(`/bookings/${booking.code}`)).body
  assert.equal(record.price.due_on_arrival, 0)
  assert.equal(record.price.total, booking.price.total, 'the total it was priced at stays on record')
  assert.equal(record.cancellation.fee, booking.cancellation_now.fee)

  await service.context.scheduler.runNow('emails')
  const [email] = (await manager.get(`/emails?booking=${booking.code}`)).body.emails.filter((e: { kind: string }) => e.kind === 'booking_cancelled')
  assert.ok(email, 'the guest is told')
  assert.match(email.text, /A cancellation fee of €\d+\.\d\d applies/)
  assert.doesNotMatch(email.text, /due on arrival/i)
  assert.doesNotMatch(email.text, /See or change your booking/)
  assert.match(email.text, /See your booking: http/)
})

test('a request costs nothing to withdraw, for the guest or the operator asking for the policy fee; declined or cancelled, it owes nothing', async (t) => {
  const service = await build(t)
  const manager = await keyOf(service, 'manager')
  // fado-night tonight at 20:30 is 11.5 hours away: a confirmed booking would pay 100%.
  const first = await guestBooking(service, { tour_id: 'fado-night', start: FADO_MON, party: 2 })
  assert.equal(first.booking.status, 'requested')
  assert.deepEqual(first.booking.cancellation_now, { allowed: true, fee_percent: 0, fee: 0 })
  const read = await first.client.get('/booking', { headers: first.session.headers })
  assert.deepEqual(read.body.cancellation_now, { allowed: true, fee_percent: 0, fee: 0 })

  const byOperator = await manager.post(`/bookings/${first.booking.code}/cancel`, { fee: 'policy' })
  assert.equal(byOperator.status, 200, byOperator.text)
  assert.deepEqual([byOperator.body.cancellation.fee, byOperator.body.cancellation.fee_percent, byOperator.body.price.due_on_arrival], [0, 0, 0])

  const second = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 }, { name: 'Rui Costa', email: 'rui@example.pt' })
  const declined = await manager.post(`/bookings/${second.booking.code}/decline`, { reason: 'Private event' })
  assert.equal(declined.status, 200, declined.text)
  assert.equal(declined.body.price.due_on_arrival, 0)
  assert.equal((await second.client.get('/booking', { headers: second.session.headers })).body.price.due_on_arrival, 0)

  await service.context.scheduler.runNow('emails')
  const [email] = (await manager.get(`/emails?booking=${second.booking.code}`)).body.emails.filter((e: { kind: string }) => e.kind === 'booking_declined')
  assert.doesNotMatch(email.text, /due on arrival/i)
  assert.doesNotMatch(email.text, /See or change your booking/)
})

test('an expired hold owes nothing on arrival', async (t) => {
  const service = await build(t, { holdSeconds: 60 })
  const client = service.client()
  const session = await client.session()
  const hold = await client.post('/booking', { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 }, { headers: session.headers })
  assert.equal(hold.body.price.due_on_arrival, hold.body.price.total, 'a hold shows what checking out would owe')
  service.clock.advance({ seconds: 61 })
  await service.context.scheduler.runNow('housekeeping')
  const expired = await client.get('/booking', { headers: session.headers })
  assert.equal(expired.body.status, 'expired', expired.text)
  assert.equal(expired.body.price.due_on_arrival, 0)
})
