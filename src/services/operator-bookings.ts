import { Temporal } from 'temporal-polyfill'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { toStoredInstant } from '../domain/instant-format.ts'
import { ApiError } from '../errors/api-error.ts'
import { CHECKED_OUT, isBookingStatus, type BookingStatus } from '../schemas/booking-status.ts'
import type { Actor } from '../store/audit.ts'
import type { BookingRow } from '../store/bookings.ts'
import type { BookingEventRow, BookingFilter, BookingPosition, RecordedChange } from '../store/operator-bookings.ts'
import type { Store } from '../store/store.ts'
import { operatorBookingActions } from './operator-booking-actions.ts'
import type { DepartureMinimum } from './departure-minimum.ts'
import { operatorBookingChanges } from './operator-booking-changes.ts'
import { operatorBookingPlans, SYSTEM } from './operator-booking-plan.ts'
import { requestDeadlineSweep } from './request-deadline.ts'

/** The list's filters as the operator gives them: departure dates are local to the instance. */
export interface BookingQuery {
  from?: string
  to?: string
  tour?: string
  statuses?: readonly BookingStatus[]
  q?: string
  channel?: string
  quarantined?: boolean
}

export interface HistoryEntry {
  at: string
  from: BookingStatus | null
  to: BookingStatus
  actor: Actor
}

/**
 * Transitions of one day can share an instant (and their ids are random on PostgreSQL), so
 * events at the same instant are put in the order that chains one status to the next.
 */
function inTransitionOrder(events: readonly BookingEventRow[]): BookingEventRow[] {
  const remaining = [...events].sort((a, b) => a.at < b.at ? -1 : a.at > b.at ? 1 : 0)
  const ordered: BookingEventRow[] = []
  let status: string | null = null
  while (remaining.length > 0) {
    const next = remaining.findIndex((e) => e.at === remaining[0].at && e.from_status === status)
    const [event] = remaining.splice(Math.max(next, 0), 1)
    ordered.push(event)
    status = event.to_status
  }
  return ordered
}

/**
 * Who made a transition. booking_events has no actor column: every change an operator or
 * the system makes to a booking writes an audit entry naming the booking, at the instant of
 * the transition and with the status it moved to, and that entry names the actor. A
 * transition no entry accounts for was the guest's own (hold, checkout, release, cancel),
 * or the system's expiry of a lapsed hold.
 */
function actorOf(event: BookingEventRow, bookingId: string, changes: readonly RecordedChange[]): Actor {
  const status = (c: RecordedChange) => c.after === null ? undefined : (JSON.parse(c.after) as { status?: string }).status
  const entry = changes.find((c) => c.at === event.at && c.target_type === 'booking' && c.target_id === bookingId && status(c) === event.to_status)
  if (entry) return { type: entry.actor_type as Actor['type'], id: entry.actor_id, name: entry.actor_name }
  return event.to_status === 'expired' ? SYSTEM : { type: 'guest', id: null, name: null }
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
    async list(catalog: InstanceCatalog, query: BookingQuery, after: BookingPosition | null, limit: number): Promise<BookingRow[]> {
      return reads.page(catalog.instance.ref, storedFilter(catalog, query), after, limit)
    },

    /** Every transition of the booking with who made it, oldest first. */
    async history(catalog: InstanceCatalog, row: BookingRow): Promise<HistoryEntry[]> {
      const instanceId = catalog.instance.ref
      const events = inTransitionOrder(await reads.events(instanceId, row.id))
      const changes = await reads.changesAt(instanceId, [...new Set(events.map((e) => e.at))])
      return events.map((event) => ({
        at: event.at,
        from: event.from_status as BookingStatus | null,
        to: event.to_status as BookingStatus,
        actor: actorOf(event, row.id, changes),
      }))
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
    quarantined: query.quarantined,
  }
}

/** Statuses from the list's comma-separated `status` parameter (already checked against the schema's pattern). */
export function parseStatuses(text: string | undefined): BookingStatus[] | undefined {
  if (text === undefined) return undefined
  return [...new Set(text.split(','))].filter(isBookingStatus)
}
