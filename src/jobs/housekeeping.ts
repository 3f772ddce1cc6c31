import type { Temporal } from 'temporal-polyfill'
import { toStoredInstant } from '../domain/instant-format.ts'
import { EVENT_RETENTION_DAYS } from '../store/events.ts'
import { EMAIL_RETENTION_DAYS } from '../notify/email-outbox.ts'
import { deleteExpiredSubmissions } from '../store/privacy.ts'
import type { AppContext } from '../context.ts'

export interface HousekeepingReport {
  expiredHolds: number
  /** Requests nobody answered within the instance's request_decision_hours (or by their departure's cutoff). */
  declinedRequests: number
  deletedSessions: number
  deletedIdempotencyKeys: number
  deletedSubmissions: number
  /** Events past the feed's 30 days. */
  deletedEvents: number
  /** Emails past the log's 180 days. */
  deletedEmails: number
}

/**
 * The periodic work no request does: writes `expired` for lapsed holds nobody read, declines
 * the requests whose answer is overdue, and deletes sessions, idempotency keys and form
 * submissions, events and emails past their lifetime.
 */
export async function runHousekeeping(context: AppContext, now: Temporal.Instant): Promise<HousekeepingReport> {
  const { store } = context
  const stored = toStoredInstant(now)
  return {
    expiredHolds: await context.bookings.sweepLapsedHolds(now),
    declinedRequests: await context.operatorBookings.declineOverdueRequests(context.catalogs.values(), now),
    deletedSessions: await store.sessions.deleteExpired(stored),
    deletedIdempotencyKeys: await store.idempotency.deleteExpired(stored),
    deletedSubmissions: await deleteExpiredSubmissions(store.db, now),
    deletedEvents: await store.write(() => store.events.prune(toStoredInstant(now.subtract({ hours: 24 * EVENT_RETENTION_DAYS })), 10_000)),
    deletedEmails: await store.write(() => store.emails.prune(toStoredInstant(now.subtract({ hours: 24 * EMAIL_RETENTION_DAYS })), 10_000)),
  }
}
