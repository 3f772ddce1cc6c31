import type { BookingStatus } from '../schemas/booking-status.ts'

/** Which status may follow which (the statuses and their named subsets: src/schemas/booking-status.ts). */
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
