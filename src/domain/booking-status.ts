export type BookingStatus =
  | 'held' | 'released' | 'expired'
  | 'requested' | 'confirmed' | 'declined' | 'cancelled' | 'completed' | 'no_show'

/** Statuses whose seats count against the departure's capacity. */
export const SEAT_HOLDING: readonly BookingStatus[] = ['held', 'requested', 'confirmed']

const TRANSITIONS: Record<BookingStatus, readonly BookingStatus[]> = {
  held: ['released', 'expired', 'requested', 'confirmed'],
  requested: ['confirmed', 'declined', 'cancelled'],
  confirmed: ['cancelled', 'completed', 'no_show'],
  released: [],
  expired: [],
  declined: [],
  cancelled: [],
  completed: [],
  no_show: [],
}

export function canTransition(from: BookingStatus, to: BookingStatus): boolean {
  return TRANSITIONS[from].includes(to)
}

/** What checkout turns a hold into. */
export function checkedOutStatus(confirmation: 'instant' | 'on_request'): BookingStatus {
  return confirmation === 'instant' ? 'confirmed' : 'requested'
}
