import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { Temporal } from 'temporal-polyfill'
import { cancellableUntil, cancellationFee, cancellationFeePercent } from '../../src/domain/cancellation.ts'

/** The demo Lisbon policy. */
const flexible48 = {
  tiers: [
    { hours_before_start: 48, fee_percent: 0 },
    { hours_before_start: 24, fee_percent: 50 },
    { hours_before_start: 0, fee_percent: 100 },
  ],
}

const start = Temporal.Instant.from('2026-07-10T08:30:00Z')
const before = (duration: Temporal.DurationLike) => start.subtract(duration)

describe('cancellationFeePercent with tiers 48h → 0%, 24h → 50%, 0h → 100%', () => {
  test('exactly 48 hours before the start is free', () => {
    assert.equal(cancellationFeePercent(flexible48, start, before({ hours: 48 })), 0)
  })

  test('more than 48 hours before is free', () => {
    assert.equal(cancellationFeePercent(flexible48, start, before({ hours: 48, nanoseconds: 1 })), 0)
    assert.equal(cancellationFeePercent(flexible48, start, before({ hours: 24 * 30 })), 0)
  })

  test('47h59m before costs 50%', () => {
    assert.equal(cancellationFeePercent(flexible48, start, before({ hours: 47, minutes: 59 })), 50)
    assert.equal(cancellationFeePercent(flexible48, start, before({ hours: 47, minutes: 59, seconds: 59, milliseconds: 999 })), 50)
  })

  test('exactly 24 hours before costs 50%', () => {
    assert.equal(cancellationFeePercent(flexible48, start, before({ hours: 24 })), 50)
  })

  test('23h59m before costs 100%', () => {
    assert.equal(cancellationFeePercent(flexible48, start, before({ hours: 23, minutes: 59 })), 100)
  })

  test('at the start costs 100%', () => {
    assert.equal(cancellationFeePercent(flexible48, start, start), 100)
  })

  test('after the start costs 100%', () => {
    assert.equal(cancellationFeePercent(flexible48, start, start.add({ minutes: 1 })), 100)
  })

  test('the tiers may be listed in any order', () => {
    const shuffled = { tiers: [flexible48.tiers[2], flexible48.tiers[0], flexible48.tiers[1]] }
    assert.equal(cancellationFeePercent(shuffled, start, before({ hours: 48 })), 0)
    assert.equal(cancellationFeePercent(shuffled, start, before({ hours: 30 })), 50)
    assert.equal(cancellationFeePercent(shuffled, start, before({ hours: 1 })), 100)
  })

  test('hours are exact elapsed hours, even across a DST change', () => {
    // Lisbon 09:30 on Monday 2026-03-30 is 08:30Z; 48 elapsed hours earlier is 08:30Z on Saturday 03-28,
    // which is 08:30 on the Lisbon wall clock (winter time), not 09:30.
    const afterChange = Temporal.Instant.from('2026-03-30T08:30:00Z')
    assert.equal(cancellationFeePercent(flexible48, afterChange, Temporal.Instant.from('2026-03-28T08:30:00Z')), 0)
    assert.equal(cancellationFeePercent(flexible48, afterChange, Temporal.Instant.from('2026-03-28T08:30:01Z')), 50)
  })

  test('a moment no tier covers costs 100%', () => {
    const noZeroTier = { tiers: [{ hours_before_start: 24, fee_percent: 0 }] }
    assert.equal(cancellationFeePercent(noZeroTier, start, before({ hours: 24 })), 0)
    assert.equal(cancellationFeePercent(noZeroTier, start, before({ hours: 23 })), 100)
  })
})

describe('cancellableUntil', () => {
  test('with a 0-hour tier, cancellation is open until the start', () => {
    assert.equal(cancellableUntil(flexible48, start).toString(), '2026-07-10T08:30:00Z')
  })

  test('otherwise it closes at the start less the smallest notice', () => {
    const policy = { tiers: [{ hours_before_start: 72, fee_percent: 0 }, { hours_before_start: 6, fee_percent: 50 }] }
    assert.equal(cancellableUntil(policy, start).toString(), '2026-07-10T02:30:00Z')
  })
})

describe('cancellationFee', () => {
  test('is the percentage of the total', () => {
    assert.equal(cancellationFee(10000, 0), 0)
    assert.equal(cancellationFee(10000, 50), 5000)
    assert.equal(cancellationFee(10000, 100), 10000)
  })

  test('rounds half up to the minor unit', () => {
    assert.equal(cancellationFee(4999, 50), 2500) // 2499.5
    assert.equal(cancellationFee(4997, 50), 2499) // 2498.5 → 2499
    assert.equal(cancellationFee(1001, 15), 150) // 150.15
    assert.equal(cancellationFee(1003, 15), 150) // 150.45
    assert.equal(cancellationFee(1010, 15), 152) // 151.5
  })
})
