import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { canTransition, checkedOutStatus } from '../../src/domain/booking-status.ts'
import { LIVE, SEATED, type BookingStatus } from '../../src/schemas/booking-status.ts'

const ALL: BookingStatus[] = ['held', 'released', 'expired', 'requested', 'confirmed', 'declined', 'cancelled', 'completed', 'no_show']

const ALLOWED: Record<BookingStatus, BookingStatus[]> = {
  held: ['released', 'expired', 'requested', 'confirmed'],
  requested: ['confirmed', 'declined', 'cancelled'],
  confirmed: ['cancelled', 'completed', 'no_show'],
  released: [],
  expired: [],
  declined: [],
  cancelled: [],
  completed: ['confirmed'],
  no_show: ['confirmed'],
}

describe('canTransition', () => {
  test('a hold can be released, expire, or be checked out as requested or confirmed', () => {
    for (const to of ['released', 'expired', 'requested', 'confirmed'] as const) assert.equal(canTransition('held', to), true, to)
  })

  test('a request can be confirmed, declined or cancelled', () => {
    for (const to of ['confirmed', 'declined', 'cancelled'] as const) assert.equal(canTransition('requested', to), true, to)
  })

  test('a confirmed booking can be cancelled, completed or marked no-show', () => {
    for (const to of ['cancelled', 'completed', 'no_show'] as const) assert.equal(canTransition('confirmed', to), true, to)
  })

  test('a hold cannot skip to an outcome of a checked-out booking', () => {
    for (const to of ['declined', 'cancelled', 'completed', 'no_show'] as const) assert.equal(canTransition('held', to), false, to)
  })

  test('nothing goes back to held, and a confirmed booking cannot go back to requested', () => {
    for (const from of ALL) assert.equal(canTransition(from, 'held'), false, from)
    assert.equal(canTransition('confirmed', 'requested'), false)
    assert.equal(canTransition('requested', 'completed'), false)
    assert.equal(canTransition('requested', 'no_show'), false)
  })

  test('terminal states go nowhere', () => {
    for (const from of ['released', 'expired', 'declined', 'cancelled'] as const) {
      for (const to of ALL) assert.equal(canTransition(from, to), false, `${from} → ${to}`)
    }
  })

  test('no state transitions to itself', () => {
    for (const s of ALL) assert.equal(canTransition(s, s), false, s)
  })

  test('the full 9×9 table is exactly the allowed transitions', () => {
    for (const from of ALL) {
      for (const to of ALL) assert.equal(canTransition(from, to), ALLOWED[from].includes(to), `${from} → ${to}`)
    }
  })
})

describe('checkedOutStatus', () => {
  test('instant confirmation checks out as confirmed', () => {
    assert.equal(checkedOutStatus('instant'), 'confirmed')
  })

  test('on-request confirmation checks out as requested', () => {
    assert.equal(checkedOutStatus('on_request'), 'requested')
  })

  test('checkout is always a transition a hold may make', () => {
    assert.equal(canTransition('held', checkedOutStatus('instant')), true)
    assert.equal(canTransition('held', checkedOutStatus('on_request')), true)
  })
})

describe('LIVE and SEATED', () => {
  test('held, requested and confirmed bookings are live; checked-in and no-show ones keep their seats too; no other status holds seats', () => {
    assert.deepEqual([...LIVE].sort(), ['confirmed', 'held', 'requested'])
    assert.deepEqual([...SEATED].sort(), ['completed', 'confirmed', 'held', 'no_show', 'requested'])
  })
})
