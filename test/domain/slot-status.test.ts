import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { Temporal } from 'temporal-polyfill'
import { isPastCutoffMs, slotState } from '../../src/domain/slot-status.ts'

const open = { pastCutoff: false, closedByOperator: false, seats: null }

describe('slotState status without a party', () => {
  test('all seats free is available', () => {
    assert.deepEqual(slotState({ ...open, capacity: 10, seatsTaken: 0 }), { remaining: 10, status: 'available' })
  })

  test('exactly half left is still available; under half is limited', () => {
    assert.deepEqual(slotState({ ...open, capacity: 10, seatsTaken: 5 }), { remaining: 5, status: 'available' })
    assert.deepEqual(slotState({ ...open, capacity: 10, seatsTaken: 6 }), { remaining: 4, status: 'limited' })
    assert.deepEqual(slotState({ ...open, capacity: 10, seatsTaken: 9 }), { remaining: 1, status: 'limited' })
  })

  test('with an odd capacity, 3 of 5 is available and 2 of 5 is limited', () => {
    assert.equal(slotState({ ...open, capacity: 5, seatsTaken: 2 }).status, 'available')
    assert.equal(slotState({ ...open, capacity: 5, seatsTaken: 3 }).status, 'limited')
  })

  test('nothing left is sold_out', () => {
    assert.deepEqual(slotState({ ...open, capacity: 10, seatsTaken: 10 }), { remaining: 0, status: 'sold_out' })
  })

  test('more seats taken than capacity counts as none remaining, not negative', () => {
    assert.deepEqual(slotState({ ...open, capacity: 4, seatsTaken: 6 }), { remaining: 0, status: 'sold_out' })
  })

  test('past the cutoff is closed, whatever is left', () => {
    assert.deepEqual(slotState({ ...open, capacity: 10, seatsTaken: 0, pastCutoff: true }), { remaining: 10, status: 'closed' })
    assert.deepEqual(slotState({ ...open, capacity: 10, seatsTaken: 10, pastCutoff: true }), { remaining: 0, status: 'closed' })
  })

  test('closed by the operator is closed, whatever is left', () => {
    assert.deepEqual(slotState({ ...open, capacity: 10, seatsTaken: 0, closedByOperator: true }), { remaining: 10, status: 'closed' })
    assert.deepEqual(slotState({ ...open, capacity: 10, seatsTaken: 8, closedByOperator: true }), { remaining: 2, status: 'closed' })
  })
})

describe('slotState with a party (the seats its mix takes)', () => {
  test('a party that fits is bookable, up to exactly the seats left', () => {
    assert.deepEqual(slotState({ ...open, capacity: 10, seatsTaken: 6, seats: 2 }), { remaining: 4, status: 'limited', bookable: true })
    assert.deepEqual(slotState({ ...open, capacity: 10, seatsTaken: 6, seats: 4 }), { remaining: 4, status: 'limited', bookable: true })
  })

  test('a party larger than the seats left is insufficient_capacity', () => {
    assert.deepEqual(slotState({ ...open, capacity: 10, seatsTaken: 6, seats: 5 }),
      { remaining: 4, status: 'limited', bookable: false, reason: 'insufficient_capacity' })
  })

  test('no seats left is sold_out', () => {
    assert.deepEqual(slotState({ ...open, capacity: 10, seatsTaken: 10, seats: 1 }),
      { remaining: 0, status: 'sold_out', bookable: false, reason: 'sold_out' })
  })

  test('past the cutoff is cutoff_passed, even when sold out or with room to spare', () => {
    assert.deepEqual(slotState({ ...open, capacity: 10, seatsTaken: 0, pastCutoff: true, seats: 2 }),
      { remaining: 10, status: 'closed', bookable: false, reason: 'cutoff_passed' })
    assert.deepEqual(slotState({ ...open, capacity: 10, seatsTaken: 10, pastCutoff: true, seats: 2 }),
      { remaining: 0, status: 'closed', bookable: false, reason: 'cutoff_passed' })
  })

  test('closed by the operator is unbookable with reason sold_out, though seats remain', () => {
    assert.deepEqual(slotState({ ...open, capacity: 10, seatsTaken: 0, closedByOperator: true, seats: 2 }),
      { remaining: 10, status: 'closed', bookable: false, reason: 'sold_out' })
  })
})

describe('isPastCutoff', () => {
  const start = Temporal.Instant.from('2026-07-01T08:30:00Z')

  test('booking closes cutoff minutes before the start', () => {
    const at = (iso: string) => Temporal.Instant.from(iso).epochMilliseconds
    assert.equal(isPastCutoffMs(start.epochMilliseconds, 120, at('2026-07-01T06:29:59.999Z')), false)
    assert.equal(isPastCutoffMs(start.epochMilliseconds, 120, at('2026-07-01T06:30:00Z')), true)
    assert.equal(isPastCutoffMs(start.epochMilliseconds, 0, at('2026-07-01T08:30:00Z')), true)
  })

  test('one nanosecond before start minus cutoff is not past; exactly at it is past', () => {
    const closes = Temporal.Instant.from('2026-07-01T06:30:00Z')
    assert.equal(isPastCutoffMs(start.epochMilliseconds, 120, closes.subtract({ nanoseconds: 1 }).epochMilliseconds), false)
    assert.equal(isPastCutoffMs(start.epochMilliseconds, 120, closes.epochMilliseconds), true)
    assert.equal(isPastCutoffMs(start.epochMilliseconds, 120, closes.add({ minutes: 1 }).epochMilliseconds), true)
  })

  test('with no cutoff, booking is open until the start itself', () => {
    assert.equal(isPastCutoffMs(start.epochMilliseconds, 0, Temporal.Instant.from('2026-07-01T08:29:59Z').epochMilliseconds), false)
    assert.equal(isPastCutoffMs(start.epochMilliseconds, 0, start.epochMilliseconds), true)
  })

  test('a one-day cutoff is counted in exact minutes across a DST change', () => {
    // Lisbon 09:30 on 2026-03-29 (08:30Z) closes 1440 minutes earlier: 08:30Z on the 28th, 08:30 local.
    const dstStart = Temporal.Instant.from('2026-03-29T08:30:00Z')
    assert.equal(isPastCutoffMs(dstStart.epochMilliseconds, 1440, Temporal.Instant.from('2026-03-28T08:29:59Z').epochMilliseconds), false)
    assert.equal(isPastCutoffMs(dstStart.epochMilliseconds, 1440, Temporal.Instant.from('2026-03-28T08:30:00Z').epochMilliseconds), true)
  })
})
