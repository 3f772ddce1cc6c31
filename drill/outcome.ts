/** What one drill survived, as one row of the results table. */
export interface DrillOutcome {
  drill: string
  database: 'SQLite' | 'PostgreSQL' | '—'
  /** Requests the drill sent whose answer counts: holds, checkouts, retries. */
  attempted: number
  /** Of those, answered 200: the service promised the change. */
  acknowledged: number
  /** Acknowledged changes missing from the database afterwards. Must be 0. */
  lost: number
  /** Bookings made twice for one request (one Idempotency-Key, one session) or seats freed twice; events a webhook receiver took twice. Must be 0, or at most allowedDuplicates. */
  duplicated: number
  /** Set where the promise is at-least-once (webhooks): the duplicates it allows, e.g. one per attempt in flight when a fault struck. */
  allowedDuplicates?: number
  /** Seats taken beyond a departure's capacity. Must be 0. */
  overCapacity: number
  /** From the end of the fault to service again, in milliseconds; null where the drill has no outage. */
  recoverMs: number | null
  /** How the recovery time was measured, e.g. "median of 20 (max 2.1 s)". */
  recoverNote?: string
  /** Everything else that broke a rule of the drill (wrong status codes, a crash, a seat ledger mismatch). */
  failures: string[]
  /** Figures and findings that are not failures. */
  notes: string[]
  /** Set when the drill could not run here, with the reason. */
  skipped?: string
}

export function passed(outcome: DrillOutcome): boolean {
  return outcome.skipped !== undefined
    || (outcome.lost === 0 && outcome.duplicated <= (outcome.allowedDuplicates ?? 0) && outcome.overCapacity === 0 && outcome.failures.length === 0)
}

/** A drill's outcome before it has counted anything, filled in as it runs. */
export function emptyOutcome(drill: string, database: DrillOutcome['database']): DrillOutcome {
  return { drill, database, attempted: 0, acknowledged: 0, lost: 0, duplicated: 0, overCapacity: 0, recoverMs: null, failures: [], notes: [] }
}

export function skippedOutcome(drill: string, database: DrillOutcome['database'], reason: string): DrillOutcome {
  return { ...emptyOutcome(drill, database), skipped: reason }
}

/** A drill that threw before it could count: reported as a failure, not hidden. */
export function crashedOutcome(drill: string, database: DrillOutcome['database'], err: unknown): DrillOutcome {
  const message = err instanceof Error ? err.message.split('\n')[0] : String(err)
  return { ...emptyOutcome(drill, database), failures: [`drill aborted: ${message}`] }
}
