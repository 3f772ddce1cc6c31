import type { BookingStatus } from '../schemas/booking-status.ts'
import type { Actor } from '../store/audit.ts'
import type { BookingEventRow, RecordedChange } from '../store/operator-bookings.ts'
import { SYSTEM } from './operator-booking-plan.ts'

/** One line of a booking's history: a status transition, or a change that kept the status (then from and to are that status). */
export interface HistoryEntry {
  at: string
  from: BookingStatus | null
  to: BookingStatus
  /** The audit entry's action (booking.confirmed, booking.changed…); null for a guest's own step or a hold's expiry. */
  action: string | null
  /** The stored fields before and after, as the audit entry keeps them; null when it keeps none. */
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
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

const parsed = (json: string | null) => json === null ? null : JSON.parse(json) as Record<string, unknown>
const actorOf = (entry: RecordedChange): Actor => ({ type: entry.actor_type as Actor['type'], id: entry.actor_id, name: entry.actor_name })

/**
 * Every change to a booking, oldest first, with who made it. Transitions come from
 * booking_events; booking_events has no actor column, but every change an operator or the
 * system makes to a booking writes an audit entry naming the booking, at the instant of the
 * transition and with the status it moved to, and that entry names the actor and what else
 * changed. A transition no entry accounts for was the guest's own (hold, checkout, release,
 * cancel), or the system's expiry of a lapsed hold. The entries no transition takes are the
 * changes that kept the status: a move, a resize, a contact or note change, a release from
 * quarantine, a confirmation sent again.
 */
export function bookingHistory(events: readonly BookingEventRow[], audit: readonly RecordedChange[]): HistoryEntry[] {
  const unused = audit.map((entry) => ({ entry, before: parsed(entry.before), after: parsed(entry.after) }))
  const history: HistoryEntry[] = []
  for (const event of inTransitionOrder(events)) {
    // The entry of this very step: a guest's checkout and a check-in undone in the same instant both end in confirmed.
    const index = unused.findIndex(({ entry, before, after }) => entry.at === event.at && after?.status === event.to_status
      && (before?.status === undefined || before.status === event.from_status))
    const [found] = index < 0 ? [] : unused.splice(index, 1)
    history.push({
      at: event.at,
      from: event.from_status as BookingStatus | null,
      to: event.to_status as BookingStatus,
      action: found?.entry.action ?? null,
      before: found?.before ?? null,
      after: found?.after ?? null,
      actor: found ? actorOf(found.entry) : event.to_status === 'expired' ? SYSTEM : { type: 'guest', id: null, name: null },
    })
  }
  for (const { entry, before, after } of unused) {
    // After every transition at or before it: the status it found is the last of those.
    const position = history.findLastIndex((h) => h.at <= entry.at) + 1
    const status = position === 0 ? null : history[position - 1].to
    if (status === null) continue
    history.splice(position, 0, { at: entry.at, from: status, to: status, action: entry.action, before, after, actor: actorOf(entry) })
  }
  return history
}
