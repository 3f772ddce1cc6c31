import type { Selectable } from 'kysely'
import { isOneOf, ON_MANIFEST, type BookingStatus } from '../schemas/booking-status.ts'
import { reportBooking, reportTransitions } from './bookings.ts'
import type { Database } from './database.ts'
import { statusLiteral } from './status-sql.ts'
import type { Tables } from './tables.ts'
import { statement, type Plan } from './write-plan.ts'
import type { BookingRecord } from '../domain/booking.ts'

// The operator's side (docs/operator-api.md, "Bookings"): finding bookings, locking one to act on it,
// changing its fields, the requests waiting for an answer, and the history of each.

export type BookingEventRow = Selectable<Tables['booking_events']>
/** Who made a change at an instant, as the audit log has it. */
export type RecordedChange = Pick<Selectable<Tables['audit_log']>, 'at' | 'actor_type' | 'actor_id' | 'actor_name' | 'action' | 'before' | 'after'>

/** The operator's booking filters, in stored form. */
export interface BookingFilter {
  /** Departures starting at or after this stored instant. */
  fromAt?: string
  /** Departures starting before this stored instant. */
  toAt?: string
  tourId?: string
  statuses: readonly BookingStatus[]
  /** Matched against code, name, email and phone, ignoring case and accents. */
  q?: string
  channel?: string
  resellerKeyId?: string
  quarantined?: boolean
  /** Bookings guided in `tag` (lower case): those that say so, and those that say none (before migration 028) on `untaggedOn`, the tours whose first language it is. */
  language?: { tag: string, untaggedOn: readonly string[] }
}

/** One reseller's sales in one currency (resellerSales); money in minor units. */
export interface ResellerSales {
  reseller_key_id: string
  currency: string
  bookings: number
  guests: number
  retail: number
  net: number
}

/** A booking's place in the list's order (start, then id); a page starts after it. */
export interface BookingPosition {
  start_at: string
  id: string
}

/** Fields of a booking changed by hand (the operator's PATCH and release from quarantine, a reseller's PATCH); never its status. */
export type BookingFieldChanges = Partial<Pick<BookingRecord, 'tour_id' | 'start_at' | 'end_at' | 'party' | 'seats' | 'units' | 'addons' | 'promo_code' | 'subtotal'
  | 'addons_total' | 'discount' | 'total' | 'cancellable_until' | 'contact_name' | 'contact_email' | 'contact_phone' | 'internal_note' | 'quarantined'
  | 'reseller_reference' | 'reseller_notes' | 'language'>>

/**
 * Each base letter with every way it is written in Latin-1 and Latin Extended-A, both cases:
 * "joao" finds "João", "lodz" finds "Łódź". Search expands the query letter by letter into
 * these classes instead of folding every stored name: the rows are read as they are, so a
 * search costs one pattern match per field and row, on both databases alike.
 */
const LETTER_VARIANTS: ReadonlyMap<string, string> = (() => {
  const variants = new Map<string, string>()
  const add = (base: string, letter: string) => variants.set(base, (variants.get(base) ?? '') + letter)
  for (let cp = 0x41; cp <= 0x17f; cp++) {
    const letter = String.fromCodePoint(cp)
    const base = letter.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    if (/^[a-z]$/.test(base)) add(base, letter)
  }
  // Letters with a stroke do not decompose.
  for (const [letter, base] of Object.entries({ Ø: 'o', ø: 'o', Đ: 'd', đ: 'd', Ł: 'l', ł: 'l', ı: 'i', Ħ: 'h', ħ: 'h', Ŧ: 't', ŧ: 't' })) add(base, letter)
  return variants
})()

/** The base letters of a search text: accents dropped, lower case. */
function foldedLetters(text: string): string[] {
  return [...text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase()]
}

/** A SQLite GLOB pattern (unanchored) or a PostgreSQL regular expression that finds `text` case- and accent-insensitively. */
function searchPattern(text: string, dialect: Database['dialect']): string {
  const parts = foldedLetters(text).map((c) => {
    const variants = LETTER_VARIANTS.get(c)
    if (variants) return `[${variants}]`
    if (dialect === 'postgres') return c.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&')
    return c === '*' || c === '?' || c === '[' ? `[${c}]` : c
  })
  return dialect === 'postgres' ? parts.join('') : `*${parts.join('')}*`
}

function filterSql(dialect: Database['dialect'], instanceId: string, filter: BookingFilter, after: BookingPosition | null) {
  const where = ['instance_id = ?']
  const params: unknown[] = [instanceId]
  const add = (condition: string, ...values: unknown[]) => {
    where.push(condition)
    params.push(...values)
  }
  if (filter.fromAt !== undefined) add('start_at >= ?', filter.fromAt)
  if (filter.toAt !== undefined) add('start_at < ?', filter.toAt)
  if (filter.tourId !== undefined) add('tour_id = ?', filter.tourId)
  add(`status in (${filter.statuses.map(() => '?').join(', ')})`, ...filter.statuses)
  if (filter.channel !== undefined) add('channel = ?', filter.channel)
  if (filter.resellerKeyId !== undefined) add('reseller_key_id = ?', filter.resellerKeyId)
  if (filter.quarantined !== undefined) add('quarantined = ?', filter.quarantined ? 1 : 0)
  if (filter.language !== undefined) {
    const { tag, untaggedOn } = filter.language
    add(untaggedOn.length === 0 ? 'lower(language) = ?'
      : `(lower(language) = ? or (language is null and tour_id in (${untaggedOn.map(() => '?').join(', ')})))`, tag, ...untaggedOn)
  }
  const q = filter.q?.trim()
  if (q) {
    const match = dialect === 'postgres' ? '~' : 'glob'
    const pattern = searchPattern(q, dialect)
    const terms = ['code', 'contact_name', 'contact_email'].map((column) => `${column} ${match} ?`)
    const values: unknown[] = [pattern, pattern, pattern]
    // Phones are stored as E.164: "912 345 678" finds +351912345678 by its digits.
    const digits = q.replace(/\D/g, '')
    if (/^[\d\s+().\/-]+$/.test(q) && digits.length >= 3) {
      terms.push(`contact_phone ${match} ?`)
      values.push(searchPattern(digits, dialect))
    }
    add(`(${terms.join(' or ')})`, ...values)
  }
  // Written so that the start bound alone ranges over the departure index.
  if (after !== null) add('start_at >= ? and (start_at > ? or id > ?)', after.start_at, after.start_at, after.id)
  return { where: where.join(' and '), params }
}

export function operatorBookingRepository({ dialect, read }: Database) {
  return {
    /** Up to `limit` bookings matching the filter, by departure start then id, after `after`. */
    async page(instanceId: string, filter: BookingFilter, after: BookingPosition | null, limit: number): Promise<BookingRecord[]> {
      const { where, params } = filterSql(dialect, instanceId, filter, after)
      return read(function* () {
        const { rows } = yield* statement<BookingRecord>(`select * from bookings where ${where} order by start_at, id limit ${Number(limit)}`, params)
        return rows
      })
    },

    /** The booking with this code (any case) or id. */
    async find(instanceId: string, codeOrId: string): Promise<BookingRecord | undefined> {
      return read(function* () {
        const { rows } = yield* statement<BookingRecord>('select * from bookings where instance_id = ? and (code = ? or id = ?)',
          [instanceId, codeOrId.toUpperCase(), codeOrId])
        return rows[0]
      })
    },

    /**
     * The booking as it is now, read inside a plan and, on PostgreSQL, locked until the plan
     * commits: what an operator action decides on stays true until it is written. (Staff
     * bookings have no session row for lockSession to queue on.)
     */
    *lock(instanceId: string, id: string): Plan<BookingRecord | undefined> {
      const { rows } = yield* statement<BookingRecord>(`select * from bookings where instance_id = ? and id = ?${dialect === 'postgres' ? ' for update' : ''}`,
        [instanceId, id])
      return rows[0]
    },

    /** Changes the booking's fields (never its status), raising its version; answers the row as it is now. */
    *update(instanceId: string, id: string, changes: BookingFieldChanges, at: string): Plan<BookingRecord | undefined> {
      const columns = Object.keys(changes) as Array<keyof BookingFieldChanges>
      const set = ['updated_at = ?', 'version = version + 1', ...columns.map((c) => `${c} = ?`)].join(', ')
      const { rows: [row] } = yield* statement<BookingRecord>(`update bookings set ${set} where instance_id = ? and id = ? returning *`,
        [at, ...columns.map((c) => changes[c]), instanceId, id])
      if (row && row.quarantined === 0 && isOneOf(ON_MANIFEST, row.status)) {
        // A submission released from quarantine is heard of now, as if it had just been made;
        // a note for the staff is not news to anyone else.
        if (changes.quarantined === 0) yield* reportTransitions(null, [row])
        else if (columns.some((c) => c !== 'internal_note')) yield* reportBooking('booking.changed', row, { from: row.status, changed: columns })
      }
      return row
    },

    /**
     * The sales of each reseller key, per currency, of the bookings in `statuses` whose departure starts
     * in [fromAt, toAt): how many, their people, their total, and the total of their nets, each booking's
     * rounded as OCTo showed it (src/domain/reseller-terms.ts, netOf; integer division on both databases).
     */
    async resellerSales(instanceId: string, fromAt: string, toAt: string, statuses: readonly BookingStatus[]): Promise<ResellerSales[]> {
      return read(function* () {
        const { rows } = yield* statement<Record<keyof ResellerSales, string | number>>(
          `select reseller_key_id, currency, count(*) as bookings, sum(party) as guests, sum(total) as retail,
             sum((total * (10000 - coalesce(reseller_commission_basis_points, 0)) + 5000) / 10000) as net
           from bookings where instance_id = ? and reseller_key_id is not null and start_at >= ? and start_at < ?
             and status in (${statuses.map(() => '?').join(', ')}) and quarantined = 0
           group by reseller_key_id, currency order by reseller_key_id, currency`, [instanceId, fromAt, toAt, ...statuses])
        // PostgreSQL answers counts and sums of integers as text (bigint and numeric).
        return rows.map((row) => ({
          reseller_key_id: String(row.reseller_key_id), currency: String(row.currency),
          bookings: Number(row.bookings), guests: Number(row.guests), retail: Number(row.retail), net: Number(row.net),
        }))
      })
    },

    /** Every transition of the booking, oldest first. */
    async events(instanceId: string, bookingId: string): Promise<BookingEventRow[]> {
      return read(function* () {
        const { rows } = yield* statement<BookingEventRow>('select * from booking_events where instance_id = ? and booking_id = ? order by at',
          [instanceId, bookingId])
        return rows
      })
    },

    /** The audit entries about the booking, oldest first (through the log's target index): who changed it, and what. */
    async auditOf(instanceId: string, bookingId: string): Promise<RecordedChange[]> {
      return read(function* () {
        const { rows } = yield* statement<RecordedChange>(
          `select at, actor_type, actor_id, actor_name, action, before, after from audit_log
           where instance_id = ? and target_type = 'booking' and target_id = ? order by at, id`, [instanceId, bookingId])
        return rows
      })
    },

    /**
     * Requests still unanswered that were made before `requestedBefore` or whose departure
     * starts before `startsBefore`, with the instant each was requested (through the partial
     * index over requested bookings).
     */
    async awaitingDecision(instanceId: string, requestedBefore: string, startsBefore: string): Promise<Array<Pick<BookingRecord, 'id' | 'tour_id' | 'start_at'> & { requested_at: string }>> {
      return read(function* () {
        const { rows } = yield* statement<Pick<BookingRecord, 'id' | 'tour_id' | 'start_at'> & { requested_at: string }>(
          `select b.id, b.tour_id, b.start_at, min(e.at) as requested_at from bookings b
           join booking_events e on e.instance_id = b.instance_id and e.booking_id = b.id and e.to_status = ${statusLiteral('requested')}
           where b.instance_id = ? and b.status = ${statusLiteral('requested')}
           group by b.id, b.tour_id, b.start_at
           having min(e.at) <= ? or b.start_at <= ?`, [instanceId, requestedBefore, startsBefore])
        return rows
      })
    },
  }
}
export type OperatorBookingRepository = ReturnType<typeof operatorBookingRepository>
