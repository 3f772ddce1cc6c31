import type { SlotStatus, UnbookableReason } from '../schemas/availability.ts'

export interface SlotState {
  remaining: number
  status: SlotStatus
  bookable?: boolean
  reason?: UnbookableReason
}

/** Whether booking has closed at `nowMs` for a departure starting at `startMs` (epoch milliseconds, for loops over many departures). */
export function isPastCutoffMs(startMs: number, cutoffMinutes: number, nowMs: number): boolean {
  return nowMs >= startMs - cutoffMinutes * 60_000
}

/**
 * `closed` once booking has closed (cutoff) or the operator closed the departure;
 * otherwise `sold_out` with nothing left, `limited` under half left, else `available`.
 */
export function slotState(input: {
  capacity: number
  seatsTaken: number
  pastCutoff: boolean
  closedByOperator: boolean
  /** The seats the asked mix takes (src/domain/units.ts); null when no party or units was asked. */
  seats: number | null
}): SlotState {
  const remaining = Math.max(0, input.capacity - input.seatsTaken)
  const status: SlotStatus = input.pastCutoff || input.closedByOperator ? 'closed'
    : remaining === 0 ? 'sold_out'
      : remaining * 2 < input.capacity ? 'limited'
        : 'available'
  if (input.seats === null) return { remaining, status }
  const reason: UnbookableReason | undefined = input.pastCutoff ? 'cutoff_passed'
    : remaining === 0 || input.closedByOperator ? 'sold_out'
      : remaining < input.seats ? 'insufficient_capacity'
        : undefined
  return reason ? { remaining, status, bookable: false, reason } : { remaining, status, bookable: true }
}
