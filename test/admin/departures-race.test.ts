import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, type TestService } from '../helpers/build.ts'
import { db } from '../helpers/booking-fixtures.ts'
import type { OperatorClient } from '../helpers/operator.ts'
import { departurePath, departureRow, guestBooking, operator } from './departures-fixtures.ts'

const HOLDS_PER_ROUND = 12
const PARTY = 2

/** alfama-walk (capacity 16) at 09:30, `day` days after 2 June (13 June is a blackout date). */
const startOn = (day: number) => `2026-06-${String(2 + day).padStart(2, '0')}T08:30:00Z`

/** Sessions made before the race, so the race itself is only holds (and the operator's request). */
async function sessions(service: TestService, count: number) {
  const client = service.client()
  return Promise.all(Array.from({ length: count }, () => client.session()))
}

/** Every request at once over its own HTTP request; `operatorAt` places the operator's among the holds. */
async function race(service: TestService, start: string, operatorRequest: () => Promise<{ status: number, body: any }>, operatorAt: number) {
  const client = service.client()
  const guests = await sessions(service, HOLDS_PER_ROUND)
  const holds = guests.map((s) => () => client.post('/booking', { tour_id: 'alfama-walk', start, party: PARTY }, { headers: s.headers }))
  const all = [...holds.slice(0, operatorAt), operatorRequest, ...holds.slice(operatorAt)]
  const answers = await Promise.all(all.map((send) => send()))
  const operatorAnswer = answers[operatorAt]
  const holdAnswers = answers.filter((_, i) => i !== operatorAt)
  for (const answer of holdAnswers) {
    assert.ok(answer.status === 200 || (answer.status === 409 && answer.body.code === 'insufficient_capacity'), `a hold answered ${answer.status} ${JSON.stringify(answer.body)}`)
  }
  return { operatorAnswer, held: holdAnswers.filter((a) => a.status === 200).length }
}

/** The seats the departure's live bookings hold, counted from the bookings themselves. */
async function liveSeats(service: TestService, start: string): Promise<number> {
  const rows = await db(service).selectFrom('bookings').select(['party', 'status', 'start_at']).where('tour_id', '=', 'alfama-walk').execute()
  return rows.filter((r) => Date.parse(r.start_at) === Date.parse(start) && ['held', 'requested', 'confirmed'].includes(r.status)).reduce((sum, r) => sum + r.party, 0)
}

test('a capacity PATCH racing guest holds over parallel HTTP never puts a departure over capacity: it applies with capacity ≥ seats, or is 409', async (t) => {
  const service = await build(t)
  const staff: OperatorClient = await operator(service)
  const outcomes: string[] = []
  for (let round = 0; round < 8; round++) {
    const start = startOn(round)
    await guestBooking(service, { tour_id: 'alfama-walk', start, party: 4 })
    const capacity = 7 + round
    const { operatorAnswer, held } = await race(service, start, () => staff.patch(departurePath('alfama-walk', start), { capacity }), (round * 5) % (HOLDS_PER_ROUND + 1))
    const row = (await departureRow(service, 'alfama-walk', start))!
    assert.equal(row.seats_taken, 4 + held * PARTY, 'the seat ledger counts exactly the holds that were answered 200')
    assert.equal(row.seats_taken, await liveSeats(service, start))
    assert.ok(row.seats_taken <= row.capacity, `round ${round}: ${row.seats_taken} seats on capacity ${row.capacity}`)
    if (operatorAnswer.status === 200) {
      assert.deepEqual([row.capacity, row.capacity_source, operatorAnswer.body.capacity], [capacity, 'operator', capacity])
      outcomes.push('applied')
    } else {
      assert.equal(operatorAnswer.status, 409, JSON.stringify(operatorAnswer.body))
      assert.equal(operatorAnswer.body.code, 'capacity_below_booked')
      assert.ok(operatorAnswer.body.seats_taken > capacity)
      assert.deepEqual([row.capacity, row.capacity_source, row.version], [16, 'tour', 1], 'a refused change changes nothing')
      outcomes.push('refused')
    }
  }
  t.diagnostic(`PATCH outcomes: ${outcomes.join(', ')}`)
})

test('a cancellation racing guest holds leaves no live booking and no seat taken on the departure', async (t) => {
  const service = await build(t)
  const staff: OperatorClient = await operator(service)
  for (let round = 0; round < 4; round++) {
    const start = startOn(14 + round)
    const earlier = await guestBooking(service, { tour_id: 'alfama-walk', start, party: 2 })
    const { operatorAnswer } = await race(service, start, () => staff.post(`${departurePath('alfama-walk', start)}/cancel`, { reason: 'storm' }), round * 4)
    assert.equal(operatorAnswer.status, 200, JSON.stringify(operatorAnswer.body))
    assert.equal(operatorAnswer.body.cancelled_bookings, 1)
    const row = (await departureRow(service, 'alfama-walk', start))!
    assert.deepEqual([row.seats_taken, row.closed, row.cancelled], [0, 1, 1])
    assert.equal(await liveSeats(service, start), 0, 'every hold that got in before the cancel was released; the rest were refused')
    const mine = await earlier.client.get('/booking', { headers: { 'x-session': earlier.session.session } })
    assert.equal(mine.body.status, 'cancelled')
  }
})
