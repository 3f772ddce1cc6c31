import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { Temporal } from 'temporal-polyfill'
import { bookableDeparture, type BookingLimits } from '../../src/domain/booking.ts'
import type { CatalogTour } from '../../src/schemas/catalog.ts'

const LISBON = 'Europe/Lisbon'
/** Every day of 2026 at 09:30 in Lisbon, two hours long, booking closing an hour before the start. */
const tour: Pick<CatalogTour, 'schedule' | 'blackouts' | 'duration_minutes' | 'cutoff_minutes'> = {
  schedule: [{ from: '2026-01-01', until: '2026-12-31', weekdays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], times: ['09:30'] }],
  blackouts: [],
  duration_minutes: 120,
  cutoff_minutes: 60,
}
const START = Temporal.Instant.from('2026-06-02T09:30:00+01:00')
const guest: BookingLimits = { by: 'guest', lastDate: '2026-06-30' }
const staff: BookingLimits = { by: 'staff' }
const at = (text: string) => Temporal.Instant.from(text)
const bookable = (start: Temporal.Instant, now: Temporal.Instant, limits: BookingLimits, added = false) =>
  bookableDeparture({ tour, timeZone: LISBON, start, now, limits, added })

describe('bookableDeparture: the one rule of guest holds, staff bookings and moves', () => {
  test('a scheduled start is bookable by a guest before its cutoff, with its end and local date', () => {
    const departure = bookable(START, at('2026-06-01T12:00:00Z'), guest)
    assert.equal(typeof departure, 'object')
    if (typeof departure === 'string') return
    assert.ok(departure.start.equals(START))
    assert.ok(departure.end.equals(START.add({ minutes: 120 })))
    assert.equal(departure.date, '2026-06-02')
  })

  test('a start the schedule does not give is no departure, unless an operator added one there', () => {
    const offSchedule = START.add({ minutes: 30 })
    assert.equal(bookable(offSchedule, at('2026-06-01T12:00:00Z'), guest), 'slot_not_found')
    assert.equal(bookable(offSchedule, at('2026-06-01T12:00:00Z'), staff), 'slot_not_found')
    const added = bookable(offSchedule, at('2026-06-01T12:00:00Z'), guest, true)
    assert.ok(typeof added === 'object' && added.start.equals(offSchedule))
  })

  test('a guest is refused from the cutoff on, staff until the departure ends', () => {
    const cutoff = START.subtract({ minutes: 60 })
    assert.equal(bookable(START, cutoff, guest), 'cutoff_passed')
    assert.equal(typeof bookable(START, cutoff.subtract({ seconds: 1 }), guest), 'object')
    assert.equal(typeof bookable(START, START.add({ minutes: 119 }), staff), 'object')
    assert.equal(bookable(START, START.add({ minutes: 120 }), staff), 'departure_ended')
  })

  test("a guest cannot book past the horizon's last date; staff can", () => {
    const july = Temporal.Instant.from('2026-07-01T09:30:00+01:00')
    assert.equal(bookable(july, at('2026-06-01T12:00:00Z'), guest), 'date_out_of_range')
    assert.equal(typeof bookable(july, at('2026-06-01T12:00:00Z'), staff), 'object')
  })
})
