import type { BookingStatus } from '../schemas/booking-status.ts'

/** One move of a booking's status: from any of `from` to `to`. */
export interface StatusMove {
  from: readonly BookingStatus[]
  to: BookingStatus
}

/**
 * Every move a booking's status can make, each stated once and named by what makes it (the
 * statuses and their named subsets: src/schemas/booking-status.ts). The state machine is their
 * union; the operator's actions (src/services/operator-booking-actions.ts) are some of them,
 * so `requested → confirmed` is the operator's confirm and nothing else, and a hold becomes
 * confirmed only by its guest's checkout.
 */
export const STATUS_MOVES = {
  released: { from: ['held'], to: 'released' },
  expired: { from: ['held'], to: 'expired' },
  checkedOutOnRequest: { from: ['held'], to: 'requested' },
  checkedOutInstant: { from: ['held'], to: 'confirmed' },
  confirm: { from: ['requested'], to: 'confirmed' },
  decline: { from: ['requested'], to: 'declined' },
  cancel: { from: ['requested', 'confirmed'], to: 'cancelled' },
  checkIn: { from: ['confirmed'], to: 'completed' },
  markNoShow: { from: ['confirmed'], to: 'no_show' },
  // The operator's undo of a check-in or a no-show mark.
  undoCheckIn: { from: ['completed'], to: 'confirmed' },
  undoNoShow: { from: ['no_show'], to: 'confirmed' },
} as const satisfies Record<string, StatusMove>

const MOVES: readonly StatusMove[] = Object.values(STATUS_MOVES)

export function canTransition(from: BookingStatus, to: BookingStatus): boolean {
  return MOVES.some((move) => move.to === to && move.from.includes(from))
}

/** What checkout turns a hold into. */
export function checkedOutStatus(confirmation: 'instant' | 'on_request'): BookingStatus {
  return (confirmation === 'instant' ? STATUS_MOVES.checkedOutInstant : STATUS_MOVES.checkedOutOnRequest).to
}
