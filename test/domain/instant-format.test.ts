import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { Temporal } from 'temporal-polyfill'
import { formatInZone, formatStoredInZone, fromStoredInstant, todayIn, toStoredInstant } from '../../src/domain/instant-format.ts'

const YEAR_10000_NS = 253402300800000000000n
const instants = fc.bigInt({ min: -1_000_000_000_000_000_000n, max: YEAR_10000_NS - 1n }).map((ns) => new Temporal.Instant(ns))

test('the stored form is Temporal\'s UTC form to the millisecond, truncated, for any instant before year 10000', () => {
  fc.assert(fc.property(instants, (instant) => {
    assert.equal(toStoredInstant(instant), instant.toString({ fractionalSecondDigits: 3 }))
  }), { numRuns: 2_000 })
})

test('a stored form reads back as the instant Temporal reads from it, and text that is no instant is refused', () => {
  fc.assert(fc.property(instants, (instant) => {
    const stored = toStoredInstant(instant)
    assert.ok(fromStoredInstant(stored).equals(Temporal.Instant.from(stored)))
  }), { numRuns: 2_000 })
  for (const text of ['', 'held', '2026-13-01T00:00:00.000Z']) assert.throws(() => fromStoredInstant(text), RangeError)
})

test('today in a zone is the zone\'s local date at that instant, whatever order instants are asked in', () => {
  const zones = fc.constantFrom('Europe/Lisbon', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Pacific/Apia')
  fc.assert(fc.property(fc.array(fc.tuple(instants, zones), { minLength: 1, maxLength: 20 }), (asks) => {
    for (const [instant, zone] of asks) {
      assert.equal(todayIn(instant, zone).toString(), instant.toZonedDateTimeISO(zone).toPlainDate().toString())
    }
  }), { numRuns: 300 })
})

test('today changes exactly at local midnight, also on a day that starts at 01:00 (spring-forward at midnight)', () => {
  // Santiago de Chile moved its clocks from 00:00 to 01:00 on 2026-09-06.
  const lastMomentOfSaturday = Temporal.Instant.from('2026-09-06T03:59:59.999Z')
  assert.equal(todayIn(lastMomentOfSaturday, 'America/Santiago').toString(), '2026-09-05')
  assert.equal(todayIn(lastMomentOfSaturday.add({ milliseconds: 1 }), 'America/Santiago').toString(), '2026-09-06')
  assert.equal(todayIn(lastMomentOfSaturday, 'America/Santiago').toString(), '2026-09-05')
})

const ZONES = ['Europe/Lisbon', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'America/Santiago', 'Africa/Casablanca', 'Europe/Dublin']

test('instants on either side of a transition take the offset in force at each', () => {
  for (const zone of ZONES) {
    let transition = Temporal.Instant.from('2026-01-01T00:00:00Z').toZonedDateTimeISO(zone).getTimeZoneTransition('next')
    for (let i = 0; i < 4 && transition !== null; i++) {
      // The transition instant itself first: the span looked up there must not reach back before it.
      for (const ms of [0, -1, -1000, 1, 1000]) {
        const instant = Temporal.Instant.fromEpochMilliseconds(transition.epochMilliseconds + ms)
        assert.equal(formatInZone(instant, zone), instant.toZonedDateTimeISO(zone).toString({ timeZoneName: 'never', smallestUnit: 'second' }), `${zone} ${instant}`)
      }
      transition = transition.getTimeZoneTransition('next')
    }
  }
})

test('an instant in a zone is formatted as Temporal formats it, whatever order instants and zones come in', () => {
  const years1900to2100 = fc.integer({ min: -2_208_988_800_000, max: 4_102_444_800_000 }).map((ms) => Temporal.Instant.fromEpochMilliseconds(ms))
  fc.assert(fc.property(fc.array(fc.tuple(years1900to2100, fc.constantFrom(...ZONES)), { minLength: 1, maxLength: 30 }), (asks) => {
    for (const [instant, zone] of asks) {
      const expected = instant.toZonedDateTimeISO(zone).toString({ timeZoneName: 'never', smallestUnit: 'second' })
      assert.equal(formatInZone(instant, zone), expected)
      assert.equal(formatStoredInZone(toStoredInstant(instant), zone), expected)
    }
  }), { numRuns: 500 })
})
