export type BookingStatus =
  | 'held' | 'released' | 'expired'
  | 'requested' | 'confirmed' | 'declined' | 'cancelled' | 'completed' | 'no_show'

/** Live statuses: the guest can still release or cancel the booking (DELETE /booking acts on these). */
export const LIVE: readonly BookingStatus[] = ['held', 'requested', 'confirmed']

/**
 * Statuses whose seats count against the departure's capacity (departures.seats_taken): the
 * live ones, and a booking checked in (completed) or marked no-show, which keeps its seats: a
 * guest checked in before the start must not free a seat for sale, and undoing either never
 * needs a seat back. Only declined, cancelled, released and expired give seats back.
 */
export const SEATED: readonly BookingStatus[] = [...LIVE, 'completed', 'no_show']

/** Every status a booking reaches once checked out: what the operator's list shows unless asked otherwise. */
export const CHECKED_OUT: readonly BookingStatus[] = ['requested', 'confirmed', 'declined', 'cancelled', 'completed', 'no_show']

export const BOOKING_STATUSES: readonly BookingStatus[] = ['held', 'released', 'expired', ...CHECKED_OUT]

const TRANSITIONS: Record<BookingStatus, readonly BookingStatus[]> = {
  held: ['released', 'expired', 'requested', 'confirmed'],
  requested: ['confirmed', 'declined', 'cancelled'],
  confirmed: ['cancelled', 'completed', 'no_show'],
  released: [],
  expired: [],
  declined: [],
  cancelled: [],
  // The operator's undo of a check-in or a no-show mark.
  completed: ['confirmed'],
  no_show: ['confirmed'],
}

export function canTransition(from: BookingStatus, to: BookingStatus): boolean {
  return TRANSITIONS[from].includes(to)
}

/** What checkout turns a hold into. */
export function checkedOutStatus(confirmation: 'instant' | 'on_request'): BookingStatus {
  return confirmation === 'instant' ? 'confirmed' : 'requested'
}
