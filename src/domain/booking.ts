import { Temporal } from 'temporal-polyfill'
import type { CatalogTour } from '../schemas/catalog.ts'
import { departureAt } from './departure-at.ts'
import { findDeparture, type Departure } from './schedule.ts'
import { isPastCutoffMs } from './slot-status.ts'

/**
 * Whose limits a booking is made under: a guest's (the cutoff, and the last local date of the
 * horizon, YYYY-MM-DD) or staff's (none but the departure's end).
 */
export type BookingLimits = { by: 'guest', lastDate: string } | { by: 'staff' }

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
  const { tour, timeZone, start } = input
  const departure = findDeparture(tour, timeZone, start) ?? (input.added ? departureAt(start, tour.duration_minutes, timeZone) : undefined)
  if (!departure) return 'slot_not_found'
  return departureRefusal(departure, tour.cutoff_minutes, input.now.epochMilliseconds, input.limits) ?? departure
}

/**
 * Why a departure that exists cannot be booked at `nowMs` under `limits`, or null when it can:
 * the time part of bookableDeparture, which the availability slots (src/services/availability.ts)
 * also follow for every departure they show. Epoch milliseconds and ISO dates, as that read
 * checks hundreds of departures.
 */
export function departureRefusal(departure: Pick<Departure, 'startMs' | 'end' | 'date'>, cutoffMinutes: number, nowMs: number,
  limits: BookingLimits): Exclude<DepartureRefusal, 'slot_not_found'> | null {
  if (limits.by === 'staff') return departure.end.epochMilliseconds <= nowMs ? 'departure_ended' : null
  if (departure.startMs <= nowMs || isPastCutoffMs(departure.startMs, cutoffMinutes, nowMs)) return 'cutoff_passed'
  // ISO dates of four-digit years order as text.
  if (departure.date > limits.lastDate) return 'date_out_of_range'
  return null
}
