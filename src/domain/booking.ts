import { Temporal } from 'temporal-polyfill'
import type { BookingChannel, CancelledBy } from '../schemas/admin/booking.ts'
import type { BookingStatus } from '../schemas/booking-status.ts'
import type { CatalogPolicy, CatalogTour } from '../schemas/catalog.ts'
import type { BookingPolicy } from './cancellation.ts'
import type { AddonLine } from './pricing.ts'
import type { UnitLine } from './units.ts'
import { departureAt } from './departure-at.ts'
import { findDeparture, type Departure } from './schedule.ts'
import { isPastCutoffMs } from './slot-status.ts'

/**
 * A booking as the service knows it: what every service, view and email works with. The store
 * keeps one row of these fields per booking (src/store/tables/guest-tables.ts) and answers rows
 * as records. Times are stored instants (src/domain/instant-format.ts). The add-on lines and
 * the policy stay the JSON text they are kept as, which the audit log and the event feed carry
 * as they are: read them with addonLinesOf and policyOf.
 */
export interface BookingRecord {
  id: string
  instance_id: string
  session_id: string
  tour_id: string
  start_at: string
  end_at: string
  /** The people it counts (src/domain/units.ts). */
  party: number
  /** The seats it takes of the departure's capacity: Σ quantity × seats of its units. */
  seats: number
  /** JSON of the unit lines ({id, type, name, quantity, amount}[]): unitLinesOf. */
  units: string
  status: BookingStatus
  /** 1 when a spam decoy quarantined it: it takes no seat, makes no event, is not emailed. */
  quarantined: number
  /** JSON of the add-on lines ({id, name, quantity, amount}[]): addonLinesOf. */
  addons: string
  promo_code: string | null
  referral_code: string | null
  currency: string
  subtotal: number
  addons_total: number
  discount: number
  total: number
  hold_expires_at: string | null
  code: string | null
  contact_name: string | null
  contact_email: string | null
  contact_phone: string | null
  cancellable_until: string
  cancellation_fee_percent: number | null
  cancellation_fee: number | null
  cancelled_at: string | null
  created_at: string
  updated_at: string
  /** Grows with every change. */
  version: number
  channel: BookingChannel
  /** JSON of the cancellation policy the booking was made under ({id, version, tiers, no_show_fee_percent}); null before migration 008: policyOf. */
  policy: string | null
  checked_in_at: string | null
  internal_note: string | null
  decline_reason: string | null
  cancelled_by: CancelledBy | null
  cancellation_reason: string | null
  /** 1 when the operator waived the cancellation fee, 0 when not, null unless cancelled by the operator. */
  fee_waived: number | null
  /** The reseller key that sold it through the OCTo API (channel octo); null for every other booking. */
  reseller_key_id: string | null
  /** The reseller's uuid for the booking, unique per key. */
  reseller_uuid: string | null
  /** The reseller's own reference, kept and searchable. */
  reseller_reference: string | null
  /** The key's commission when it was sold, in basis points: the operator is owed the total less it. */
  reseller_commission_basis_points: number | null
  /** The reseller's notes for the operator (OCTo notes on reserve, confirm and update; migration 029). */
  reseller_notes: string | null
  /** The language it is guided in, one of its tour's languages; null before migration 028: languageOfBooking. */
  language: string | null
}

/** The reseller fields of every booking not sold by a reseller. */
export const NOT_RESOLD = { reseller_key_id: null, reseller_uuid: null, reseller_reference: null, reseller_commission_basis_points: null, reseller_notes: null } as const

/** The booking's unit lines, as kept when it was made or last priced. */
export const unitLinesOf = (booking: Pick<BookingRecord, 'units'>): UnitLine[] => JSON.parse(booking.units)

/** The booking's add-on lines. */
export const addonLinesOf = (booking: Pick<BookingRecord, 'addons'>): AddonLine[] => JSON.parse(booking.addons)

/** The cancellation policy the booking was made under; the instance's current one for a booking made before policies were kept. */
export const policyOf = (booking: Pick<BookingRecord, 'policy'>, current: CatalogPolicy): BookingPolicy =>
  booking.policy === null ? current : JSON.parse(booking.policy)

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
