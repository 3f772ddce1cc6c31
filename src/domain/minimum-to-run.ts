/**
 * A tour's minimum to run (docs/events-and-webhooks.md, "Minimum to run"; docs/catalog.md): how many guests a
 * departure needs, and how many hours before its start that is decided.
 */
export interface MinimumToRun {
  participants: number
  deadlineHours: number
}

/** The deadline when the tour sets a minimum without one. */
export const DEFAULT_MIN_PARTICIPANTS_DEADLINE_HOURS = 24

/** The tour's minimum, its deadline given its default; null when the tour sets none. */
export function minimumToRun(tour: { min_participants?: number, min_participants_deadline_hours?: number } | undefined): MinimumToRun | null {
  if (tour?.min_participants === undefined) return null
  return { participants: tour.min_participants, deadlineHours: tour.min_participants_deadline_hours ?? DEFAULT_MIN_PARTICIPANTS_DEADLINE_HOURS }
}

/** Whether a departure with this many live people (src/store/departures.ts DepartureCounts) runs for sure: false when the tour sets no minimum. */
export function isGuaranteed(minimum: MinimumToRun | null, live: number): boolean {
  return minimum !== null && live >= minimum.participants
}

/** Whether a change that took the live total from `before` to `after` is the one that reached the minimum. */
export function reachesMinimum(minimum: MinimumToRun | null, before: number, after: number): boolean {
  return minimum !== null && before < minimum.participants && after >= minimum.participants
}

/** Whether the departure starting at `startMs` has come to its deadline by `nowMs` (epoch milliseconds): below the minimum then, it is at risk. */
export function deadlineHasCome(minimum: MinimumToRun, startMs: number, nowMs: number): boolean {
  return startMs - minimum.deadlineHours * 3_600_000 <= nowMs
}
