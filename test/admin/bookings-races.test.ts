import assert from 'node:assert/strict'
import { test } from 'node:test'
import { seatsTaken, transitions } from '../helpers/booking-fixtures.ts'
import { signedInStaff } from '../helpers/operator.ts'
import { ALFAMA_TUE, FADO_TUE, guestBooking, operatorService, WORKSHOP_TUE } from './bookings-fixtures.ts'

const ROUNDS = 8

test('confirm against decline on one request, in parallel: exactly one happens, the other is 409 invalid_transition', async (t) => {
  const { service, staff } = await operatorService(t)
  const { client: other } = await signedInStaff(service, 'manager')
  const requests = []
  for (let i = 0; i < ROUNDS; i++) requests.push(await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 }))

  let confirmedCount = 0
  for (const [i, { booking }] of requests.entries()) {
    const [confirm, decline] = await Promise.all(i % 2 === 0
      ? [staff.post(`/bookings/${booking.code}/confirm`), other.post(`/bookings/${booking.code}/decline`)]
      : [other.post(`/bookings/${booking.code}/confirm`), staff.post(`/bookings/${booking.code}/decline`)])
    const winner = confirm.status === 200 ? confirm : decline
    const loser = winner === confirm ? decline : confirm
    assert.equal(winner.status, 200, `${confirm.text} / ${decline.text}`)
    assert.equal(loser.status, 409, loser.text)
    assert.equal(loser.body.code, 'invalid_transition')
    assert.equal(loser.body.booking_status, winner.body.status)
    const steps = await transitions(service, booking.id)
    assert.equal(steps.filter((s) => s.startsWith('requested>')).length, 1, steps.join(' '))
    if (winner === confirm) confirmedCount++
  }
  assert.equal(await seatsTaken(service, 'fado-night', FADO_TUE), 2 * confirmedCount, 'declined requests freed their seats once')
})

test('two staff confirming at once: both see it confirmed, one transition', async (t) => {
  const { service, staff } = await operatorService(t)
  const { client: other } = await signedInStaff(service, 'staff')
  for (let i = 0; i < ROUNDS; i++) {
    const { booking } = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 1 })
    const answers = await Promise.all([staff.post(`/bookings/${booking.code}/confirm`), other.post(`/bookings/${booking.code}/confirm`)])
    assert.deepEqual(answers.map((a) => [a.status, a.body.status, a.body.version]), [[200, 'confirmed', 3], [200, 'confirmed', 3]])
    assert.deepEqual(await transitions(service, booking.id), ['->held', 'held>requested', 'requested>confirmed'])
  }
})

test('staff bookings against guest holds for the last seats: never over capacity, every seat sold once', async (t) => {
  const { service, staff } = await operatorService(t)
  const capacity = 4
  const guests = await Promise.all(Array.from({ length: 8 }, async () => {
    const client = service.client()
    return { client, session: await client.session() }
  }))
  const attempts = await Promise.all([
    ...guests.map(({ client, session }) => client.post('/booking', { tour_id: 'pastel-de-nata-workshop', start: WORKSHOP_TUE, party: 1 }, { headers: session.headers })),
    ...Array.from({ length: 8 }, (_, i) => staff.post('/bookings', {
      tour_id: 'pastel-de-nata-workshop', start: WORKSHOP_TUE, party: 1, contact: { name: `Caller ${i}`, email: `caller${i}@example.com` },
    })),
  ])
  const won = attempts.filter((a) => a.status === 200 || a.status === 201)
  const lost = attempts.filter((a) => a.status === 409)
  assert.equal(won.length, capacity, attempts.map((a) => a.status).join(' '))
  assert.equal(lost.length, attempts.length - capacity)
  assert.ok(lost.every((a) => a.body.code === 'insufficient_capacity' && a.body.remaining === 0))
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), capacity)
  const live = await service.context.store.db.selectFrom('bookings').select(({ fn }) => fn.sum<number>('party').as('seats'))
    .where('tour_id', '=', 'pastel-de-nata-workshop').where('status', 'in', ['held', 'requested', 'confirmed']).executeTakeFirstOrThrow()
  assert.equal(Number(live.seats), capacity)
})

test("an operator's cancel against the guest's own cancel: one cancellation, the seats freed once", async (t) => {
  const { service, staff } = await operatorService(t)
  const bookings = []
  for (let i = 0; i < ROUNDS; i++) bookings.push(await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 }))
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE), 2 * ROUNDS)

  for (const [i, { client, session, booking }] of bookings.entries()) {
    const guestCancel = () => client.delete('/booking', { headers: session.headers })
    const operatorCancel = () => staff.post(`/bookings/${booking.code}/cancel`, { reason: 'weather' })
    const [guest, operator] = i % 2 === 0 ? await Promise.all([guestCancel(), operatorCancel()]) : (await Promise.all([operatorCancel(), guestCancel()])).reverse()
    assert.equal(operator.status, 200, operator.text)
    assert.equal(operator.body.status, 'cancelled')
    assert.ok(guest.status === 200 || (guest.status === 404 && guest.body.code === 'no_booking'), `${guest.status} ${guest.text}`)
    if (guest.status === 200) assert.equal(operator.body.cancellation.by, 'guest', 'the guest was first: the operator sees their cancellation unchanged')
    else assert.equal(operator.body.cancellation.by, 'operator')
    assert.equal((await transitions(service, booking.id)).filter((s) => s.endsWith('>cancelled')).length, 1)
  }
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE), 0)
})
