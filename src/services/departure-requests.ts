import { Temporal } from 'temporal-polyfill'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { ApiError } from '../errors/api-error.ts'
import type { Actor } from '../store/audit.ts'
import type { DepartureRow } from '../store/departures.ts'
import type { DepartureRecord } from './departure-record.ts'

/* What operators ask of departures (docs/operator-api.md, "Departures"): who asks and when,
   the list window, a change, a cancellation's outcome; the start and version checks. */

/** The longest window GET /departures reads at once. */
export const MAX_LIST_DAYS = 62
/** Days listed when the request gives no `to`. */
const DEFAULT_LIST_DAYS = 14

export interface DepartureContext {
  catalog: InstanceCatalog
  now: Temporal.Instant
}

export interface ChangeContext extends DepartureContext {
  actor: Actor
  requestId: string | null
}

/** Where the previous page of a list ended. */
export interface ListPosition {
  startKey: string
  tourId: string
}

export interface ListQuery {
  from?: string
  to?: string
  tour?: string
  limit: number
  after: ListPosition | null
}

export interface DepartureChangeRequest {
  capacity?: number
  closed?: boolean
  note?: string | null
}

export interface Cancellation {
  departure: DepartureRecord
  cancelledBookings: number
  releasedHolds: number
}


/** A start given by an operator, as an instant; a text Temporal cannot read is refused like any malformed field. */
export function parseStart(text: string, field: string): Temporal.Instant {
  try {
    return Temporal.Instant.from(text)
  } catch {
    throw new ApiError('validation_failed', `${field} must be an RFC 3339 date-time with an offset`, { errors: [{ field, message: 'must be an RFC 3339 date-time with an offset' }] })
  }
}

export function requireVersion(row: DepartureRow, ifMatch: number | null): void {
  if (ifMatch !== null && row.version !== ifMatch) {
    throw new ApiError('precondition_failed', `The departure is at version ${row.version}, not ${ifMatch}; read it again`, { version: row.version })
  }
}

/** The local dates a list covers: `from` (default today) to `to` (default 14 days), at most MAX_LIST_DAYS. */
export function listDates(query: ListQuery, today: Temporal.PlainDate): { from: Temporal.PlainDate, to: Temporal.PlainDate } {
  const from = query.from === undefined ? today : Temporal.PlainDate.from(query.from, { overflow: 'reject' })
  const to = query.to === undefined ? from.add({ days: DEFAULT_LIST_DAYS - 1 }) : Temporal.PlainDate.from(query.to, { overflow: 'reject' })
  if (Temporal.PlainDate.compare(to, from) < 0) {
    throw new ApiError('date_out_of_range', 'to is before from', { errors: [{ field: 'to', message: 'must be on or after from' }] })
  }
  if (from.until(to).days + 1 > MAX_LIST_DAYS) {
    throw new ApiError('date_out_of_range', `A list covers at most ${MAX_LIST_DAYS} days`, {
      errors: [{ field: 'to', message: `must be at most ${MAX_LIST_DAYS - 1} days after from` }],
    })
  }
  return { from, to }
}
