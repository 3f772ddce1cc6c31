import { erasedAuditFields, erasedEventData, eventNames } from '../domain/erasure.ts'
import { statement, type Plan } from './write-plan.ts'

/**
 * Copies of one person's data kept beside their own records, for an erasure
 * (src/store/privacy.ts): the events that report their bookings, message and subscription
 * (which the feed, the stream and webhook deliveries and replays read), the audit entries
 * about those bookings, and the emails made from them.
 */

/** `text` as a LIKE pattern matches it literally, with `escape '\'`. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

/** A LIKE pattern (with `escape '\'`) matching JSON text that holds `email` (lower case), under lower(). */
export function containsAddress(email: string): string {
  return `%${likeLiteral(JSON.stringify(email).slice(1, -1))}%`
}

export interface ScrubbedEvents {
  count: number
  /** The events' ids, whose emails repeat what they said. */
  eventIds: string[]
  /** The bookings they report. */
  bookingIds: string[]
}

/**
 * Erases the person from the events that name them, in place: events are numbered per
 * instance with no gaps (src/store/events.ts), so they stay, and whatever reads one later
 * (a webhook retry or replay, a stream resumed from an old Last-Event-ID) reads it erased.
 */
export function* scrubEvents(instanceId: string, email: string): Plan<ScrubbedEvents> {
  const { rows } = yield* statement<{ seq: number, id: string, subject_type: string, subject_id: string, data: string }>(
    `select seq, id, subject_type, subject_id, data from events where instance_id = ? and lower(data) like ? escape '\\'`,
    [instanceId, containsAddress(email)])
  const scrubbed: ScrubbedEvents = { count: 0, eventIds: [], bookingIds: [] }
  for (const row of rows) {
    const data = JSON.parse(row.data) as Record<string, unknown>
    if (!eventNames(row.subject_type, data, email)) continue
    // A subscription's event is about the address itself.
    const subjectId = row.subject_type === 'newsletter' ? erasedEventData(row.subject_type, data).email as string : row.subject_id
    yield* statement('update events set data = ?, subject_id = ? where instance_id = ? and seq = ?',
      [JSON.stringify(erasedEventData(row.subject_type, data)), subjectId, instanceId, row.seq])
    scrubbed.count++
    scrubbed.eventIds.push(row.id)
    if (row.subject_type === 'booking') scrubbed.bookingIds.push(row.subject_id)
  }
  return scrubbed
}

/**
 * Erases the person from audit entries: the contact fields of entries about their bookings,
 * and the address wherever an entry holds it. Answers how many entries changed.
 */
export function* scrubAuditEntries(instanceId: string, email: string, bookingIds: readonly string[]): Plan<number> {
  const pattern = containsAddress(email)
  const aboutBookings = bookingIds.length === 0 ? '' : `(target_type = 'booking' and target_id in (${bookingIds.map(() => '?').join(', ')})) or `
  const { rows } = yield* statement<{ id: string, before: string | null, after: string | null }>(
    `select id, before, after from audit_log where instance_id = ?
     and (${aboutBookings}lower(before) like ? escape '\\' or lower(after) like ? escape '\\')`,
    [instanceId, ...bookingIds, pattern, pattern])
  let count = 0
  for (const row of rows) {
    const erase = (json: string | null) => {
      const erased = json === null ? null : erasedAuditFields(JSON.parse(json) as Record<string, unknown>, email)
      return erased === null ? json : JSON.stringify(erased)
    }
    const [before, after] = [erase(row.before), erase(row.after)]
    if (before === row.before && after === row.after) continue
    yield* statement('update audit_log set before = ?, after = ? where instance_id = ? and id = ?', [before, after, instanceId, row.id])
    count++
  }
  return count
}

/**
 * Deletes the emails to others (the operator's alerts and copies, a booking's earlier contact
 * address) made from the person's events or about their bookings; answers how many.
 */
export function* deleteEmailsAbout(instanceId: string, email: string, eventIds: readonly string[], bookingIds: readonly string[]): Plan<number> {
  if (eventIds.length === 0 && bookingIds.length === 0) return 0
  // An email made from an event is keyed "<event id>:<kind>:<recipient>" (src/notify/email-projection.ts).
  const fromEvents = eventIds.map(() => `dedupe_key like ? escape '\\'`)
  const aboutBookings = bookingIds.length === 0 ? [] : [`booking_id in (${bookingIds.map(() => '?').join(', ')})`]
  const { changes } = yield* statement(
    `delete from emails where instance_id = ? and recipient <> ? and (${[...fromEvents, ...aboutBookings].join(' or ')})`,
    [instanceId, email, ...eventIds.map((id) => `${likeLiteral(id)}:%`), ...bookingIds])
  return changes
}
