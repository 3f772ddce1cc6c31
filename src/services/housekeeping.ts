import type { Temporal } from 'temporal-polyfill'
import { toStoredInstant } from '../domain/instant-format.ts'
import { deleteExpiredSubmissions } from '../store/privacy.ts'
import type { Store } from '../store/store.ts'
import type { BookingService } from './bookings.ts'

export interface HousekeepingReport {
  expiredHolds: number
  deletedSessions: number
  deletedIdempotencyKeys: number
  deletedSubmissions: number
}

/**
 * The periodic work no request does: writes `expired` for lapsed holds nobody read, and
 * deletes sessions, idempotency keys and form submissions past their lifetime.
 */
export async function runHousekeeping(store: Store, bookings: BookingService, now: Temporal.Instant): Promise<HousekeepingReport> {
  const stored = toStoredInstant(now)
  return {
    expiredHolds: await bookings.sweepLapsedHolds(now),
    deletedSessions: await store.sessions.deleteExpired(stored),
    deletedIdempotencyKeys: await store.idempotency.deleteExpired(stored),
    deletedSubmissions: await deleteExpiredSubmissions(store.db, now),
  }
}
