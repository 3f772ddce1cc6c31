import type { Temporal } from 'temporal-polyfill'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { toStoredInstant } from '../domain/instant-format.ts'
import type { BookingService } from '../services/bookings.ts'
import type { OperatorBookingService } from '../services/operator-bookings.ts'
import { LOCKOUT, STAFF_IDLE_MINUTES } from '../services/staff-auth.ts'
import { EVENT_RETENTION_DAYS } from '../store/events.ts'
import { deleteExpiredSubmissions } from '../store/privacy.ts'
import type { Store } from '../store/store.ts'

/** How long the email log keeps a message (it holds the guest's name and booking). */
export const EMAIL_RETENTION_DAYS = 180

/** What housekeeping works with (src/context.ts hands it these). */
export interface HousekeepingParts {
  store: Store
  bookings: Pick<BookingService, 'sweepLapsedHolds'>
  operatorBookings: Pick<OperatorBookingService, 'declineOverdueRequests'>
  catalogs: { values(): Iterable<InstanceCatalog> }
}

export interface HousekeepingReport {
  expiredHolds: number
  /** Requests nobody answered within the instance's request_decision_hours (or by their departure's cutoff). */
  declinedRequests: number
  deletedSessions: number
  /** Staff sessions expired or idle, sign-in failure counts past the lockout window and setup links past their expiry. */
  deletedStaffRecords: number
  deletedIdempotencyKeys: number
  deletedSubmissions: number
  /** Events past the feed's 30 days. */
  deletedEvents: number
  /** Emails past the log's 180 days. */
  deletedEmails: number
}

/**
 * The periodic work no request does: writes `expired` for lapsed holds nobody read, declines
 * the requests whose answer is overdue, and deletes guest and staff sessions, staff sign-in
 * failure counts and setup links, idempotency keys, form submissions, events and emails past
 * their lifetime.
 */
export async function runHousekeeping({ store, bookings, operatorBookings, catalogs }: HousekeepingParts, now: Temporal.Instant): Promise<HousekeepingReport> {
  const stored = toStoredInstant(now)
  return {
    expiredHolds: await bookings.sweepLapsedHolds(now),
    declinedRequests: await operatorBookings.declineOverdueRequests(catalogs.values(), now),
    deletedSessions: await store.sessions.deleteExpired(stored),
    // Past these a staff session or failure count no longer counts (src/services/staff-auth.ts).
    deletedStaffRecords: await store.staff.deleteExpired(stored,
      toStoredInstant(now.subtract({ minutes: STAFF_IDLE_MINUTES })), toStoredInstant(now.subtract({ minutes: LOCKOUT.minutes }))),
    deletedIdempotencyKeys: await store.idempotency.deleteExpired(stored),
    deletedSubmissions: await deleteExpiredSubmissions(store.db, now),
    deletedEvents: await store.write(() => store.events.prune(toStoredInstant(now.subtract({ hours: 24 * EVENT_RETENTION_DAYS })), 10_000)),
    deletedEmails: await store.write(() => store.emails.prune(toStoredInstant(now.subtract({ hours: 24 * EMAIL_RETENTION_DAYS })), 10_000)),
  }
}
