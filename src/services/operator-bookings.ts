import { Temporal } from 'temporal-polyfill'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { toStoredInstant } from '../domain/instant-format.ts'
import { ApiError } from '../errors/api-error.ts'
import { CHECKED_OUT, isBookingStatus, RESELLER_OWES, type BookingStatus } from '../schemas/booking-status.ts'
import type { BookingFilter, BookingPosition, ResellerSales } from '../store/operator-bookings.ts'
import { bookingHistory, type HistoryEntry } from './booking-history.ts'
import type { Store } from '../store/store.ts'
import { operatorBookingActions } from './operator-booking-actions.ts'
import type { DepartureMinimum } from './departure-minimum.ts'
import { operatorBookingChanges } from './operator-booking-changes.ts'
import { operatorBookingPlans } from './operator-booking-plan.ts'
import { requestDeadlineSweep } from './request-deadline.ts'
import type { BookingRecord } from '../domain/booking.ts'

/** The list's filters as the operator gives them: departure dates are local to the instance. */
export interface BookingQuery {
  from?: string
  to?: string
  tour?: string
  statuses?: readonly BookingStatus[]
  q?: string
  channel?: string
  /** A reseller key id. */
  reseller?: string
  quarantined?: boolean
  language?: string
}

/**
 * The operator's side of bookings: finding, listing and reading them with their history here;
 * status actions (operator-booking-actions.ts), bookings made and changed by hand
 * (operator-booking-changes.ts) and the request deadline (request-deadline.ts) beside.
 */
export function operatorBookingService(store: Store, minimum: DepartureMinimum) {
  const plans = operatorBookingPlans(store)
  const { reads } = plans
  return {
    find: plans.find,

    /** A page of bookings in departure order. */
    async list(catalog: InstanceCatalog, query: BookingQuery, after: BookingPosition | null, limit: number): Promise<BookingRecord[]> {
      return reads.page(catalog.instance.ref, storedFilter(catalog, query), after, limit)
    },

    /**
     * Each reseller's sales over departures from `from` to `to` (local dates, both inclusive), one
     * line per reseller key and currency: what to invoice it (docs/resellers.md, "Invoicing resellers").
     */
    async resellerSummary(catalog: InstanceCatalog, range: { from: string, to: string }): Promise<ResellerSales[]> {
      const filter = storedFilter(catalog, range)
      return reads.resellerSales(catalog.instance.ref, filter.fromAt!, filter.toAt!, RESELLER_OWES)
    },

    /** Every change to the booking with who made it, oldest first (src/services/booking-history.ts). */
    async history(catalog: InstanceCatalog, row: BookingRecord): Promise<HistoryEntry[]> {
      const instanceId = catalog.instance.ref
      const [events, audit] = await Promise.all([reads.events(instanceId, row.id), reads.auditOf(instanceId, row.id)])
      return bookingHistory(events, audit)
    },

    ...operatorBookingActions(store, plans),
    ...operatorBookingChanges(store, plans, minimum),
    ...requestDeadlineSweep(store, plans),
  }
}
export type OperatorBookingService = ReturnType<typeof operatorBookingService>

/** The query's local dates as instants of the instance's zone: from the start of `from` to the end of `to`. */
function storedFilter(catalog: InstanceCatalog, query: BookingQuery): BookingFilter {
  const timeZone = catalog.instance.timezone
  const dayStart = (date: Temporal.PlainDate) => toStoredInstant(date.toZonedDateTime(timeZone).toInstant())
  const date = (text: string | undefined, field: string) => {
    if (text === undefined) return undefined
    try {
      return Temporal.PlainDate.from(text, { overflow: 'reject' })
    } catch {
      throw new ApiError('validation_failed', `${field} is not a calendar date`, { errors: [{ field, message: 'is not a calendar date' }] })
    }
  }
  const from = date(query.from, 'from')
  const to = date(query.to, 'to')
  if (from && to && Temporal.PlainDate.compare(from, to) > 0) {
    throw new ApiError('validation_failed', 'to is before from', { errors: [{ field: 'to', message: 'must not be before from' }] })
  }
  return {
    fromAt: from && dayStart(from),
    toAt: to && dayStart(to.add({ days: 1 })),
    tourId: query.tour,
    statuses: query.statuses ?? CHECKED_OUT,
    q: query.q,
    channel: query.channel,
    resellerKeyId: query.reseller,
    quarantined: query.quarantined,
    language: query.language === undefined ? undefined : languageFilter(catalog, query.language),
  }
}

/** The language filter: a booking from before bookings kept their language is guided in its tour's first (src/domain/booking-language.ts). */
function languageFilter(catalog: InstanceCatalog, language: string): NonNullable<BookingFilter['language']> {
  const tag = language.toLowerCase()
  const untaggedOn = [...catalog.tourById.values()].filter(({ catalog: tour }) => tour.languages[0].toLowerCase() === tag).map(({ catalog: tour }) => tour.id)
  return { tag, untaggedOn }
}

/** Statuses from the list's comma-separated `status` parameter (already checked against the schema's pattern). */
export function parseStatuses(text: string | undefined): BookingStatus[] | undefined {
  if (text === undefined) return undefined
  return [...new Set(text.split(','))].filter(isBookingStatus)
}
