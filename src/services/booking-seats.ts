import { ApiError } from '../errors/api-error.ts'
import type { BookingRepository, DepartureKey, SeatChange } from '../store/bookings.ts'
import type { Plan } from '../store/write-plan.ts'
import type { BookingRecord } from '../domain/booking.ts'

export const departureOf = (row: Pick<BookingRecord, 'instance_id' | 'tour_id' | 'start_at'>): DepartureKey =>
  ({ instance_id: row.instance_id, tour_id: row.tour_id, start_at: row.start_at })

/** Seats given back by bookings that held them (quarantined ones never took any). */
export const seatsFreedBy = (rows: readonly BookingRecord[]): SeatChange[] =>
  rows.filter((row) => row.quarantined === 0).map((row) => ({ key: departureOf(row), seats: -row.seats, capacity: 0 }))

/**
 * Applies seat changes under the capacity rule, or throws insufficient_capacity (rolling the
 * plan back). Lapsed holds nobody has swept yet still count; when they are what stands in the
 * way, they are expired, give their seats back, and the rest of the changes is tried again.
 * The rule of every booking that takes seats: a guest's hold, a staff booking, a move, a
 * release from quarantine.
 */
export function* takeSeatsOrRefuse(bookings: BookingRepository, instanceId: string, changes: SeatChange[], now: string): Plan<void> {
  let outcome = yield* bookings.changeSeats(changes)
  if (!outcome.ok) {
    const lapsed = yield* bookings.transition(instanceId, { departure: outcome.key, lapsedBy: now }, 'held', 'expired', now)
    const freed = seatsFreedBy(lapsed)
    if (freed.length > 0) yield* bookings.changeSeats(freed)
    if (lapsed.length > 0) outcome = yield* bookings.changeSeats(outcome.pending)
  }
  if (!outcome.ok) {
    throw new ApiError('insufficient_capacity', outcome.closed ? 'This departure is closed to new bookings' : `Only ${outcome.remaining} seats are left on this departure`,
      { remaining: outcome.closed ? 0 : outcome.remaining })
  }
}
