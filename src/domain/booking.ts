import { Temporal } from 'temporal-polyfill'
import type { CatalogTour } from '../schemas/catalog.ts'
import { departureAt } from './departure-at.ts'
import { findDeparture, type Departure } from './schedule.ts'
import { isPastCutoff } from './slot-status.ts'

/** Whose limits a booking is made under: a guest's (the cutoff, and the last date of the horizon) or staff's (none but the departure's end). */
export type BookingLimits = { by: 'guest', lastDate: Temporal.PlainDate } | { by: 'staff' }

/** Why a start cannot be booked, as the error code the API answers with. */
export type DepartureRefusal = 'slot_not_found' | 'cutoff_passed' | 'date_out_of_range' | 'departure_ended'

/**
 * The departure of `tour` starting at `start` if a booking can be made on it at `now`, or why
 * not: the rule of guest holds, staff bookings and moves. The departure is a scheduled start,
 * or one an operator added by hand (`added`: whether the store has such a departure; read only
 * after an answer of slot_not_found, as the schedule gives nearly every start). Whether it is
 * closed, cancelled or full is for the seat change to say (src/store/bookings.ts).
 */
export function bookableDeparture(input: {
  tour: Pick<CatalogTour, 'schedule' | 'blackouts' | 'duration_minutes' | 'cutoff_minutes'>
  timeZone: string
  start: Temporal.Instant
  now: Temporal.Instant
  limits: BookingLimits
  added: boolean
}): Departure | DepartureRefusal {
  const { tour, timeZone, start, now, limits } = input
  const departure = findDeparture(tour, timeZone, start) ?? (input.added ? departureAt(start, tour.duration_minutes, timeZone) : undefined)
  if (!departure) return 'slot_not_found'
  if (limits.by === 'staff') return Temporal.Instant.compare(departure.end, now) <= 0 ? 'departure_ended' : departure
  if (Temporal.Instant.compare(start, now) <= 0 || isPastCutoff(start, tour.cutoff_minutes, now)) return 'cutoff_passed'
  if (Temporal.PlainDate.compare(Temporal.PlainDate.from(departure.date), limits.lastDate) > 0) return 'date_out_of_range'
  return departure
}
