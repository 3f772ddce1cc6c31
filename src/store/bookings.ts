import { sql, type Selectable } from 'kysely'
import { bookingEventOf } from '../domain/booking-events.ts'
import { canTransition } from '../domain/booking-status.ts'
import { isOneOf, ON_MANIFEST, type BookingStatus } from '../schemas/booking-status.ts'
import type { Database } from './database.ts'
import { newRowId } from './row-id.ts'
import { statusLiteral } from './status-sql.ts'
import type { Tables } from './tables.ts'
import type { EventNotice } from './events.ts'
import { emit, statement, type Plan } from './write-plan.ts'

export type BookingRow = Selectable<Tables['bookings']>

export interface DepartureKey {
  instance_id: string
  tour_id: string
  start_at: string
}

/** Which bookings a transition applies to, besides their instance and current status. */
export type BookingSelector =
  | { id: string }
  | { ids: readonly string[] }
  | { session: string, lapsedBy?: string }
  | { departure: DepartureKey, lapsedBy: string }

/** A transition whose target depends on whether the hold has lapsed by `lapsedBy`. */
export interface LapseSplit {
  lapsedBy: string
  lapsed: BookingStatus
  live: BookingStatus
}

/** A change of seats on one departure: positive takes seats (if they fit), negative gives them back. */
export interface SeatChange {
  key: DepartureKey
  seats: number
  /** For a departure row that does not exist yet: its capacity. */
  capacity: number
}

/** When a take does not fit: why, and the changes not applied (that take and the ones after it). */
export type SeatChangeOutcome = { ok: true } | { ok: false, key: DepartureKey, remaining: number, closed: boolean, pending: SeatChange[] }

const BOOKING_COLUMNS = ['id', 'instance_id', 'session_id', 'tour_id', 'start_at', 'end_at', 'party', 'status', 'quarantined', 'addons',
  'promo_code', 'referral_code', 'currency', 'subtotal', 'addons_total', 'discount', 'total', 'hold_expires_at', 'code', 'contact_name',
  'contact_email', 'contact_phone', 'cancellable_until', 'cancellation_fee_percent', 'cancellation_fee', 'cancelled_at', 'created_at',
  'updated_at', 'version', 'channel', 'policy', 'checked_in_at', 'internal_note', 'decline_reason', 'cancelled_by', 'cancellation_reason',
  'fee_waived'] as const satisfies ReadonlyArray<keyof BookingRow>
const INSERT_BOOKING = `insert into bookings (${BOOKING_COLUMNS.join(', ')}) values (${BOOKING_COLUMNS.map(() => '?').join(', ')})`
const byDepartureKey = (a: SeatChange, b: SeatChange) =>
  a.key.tour_id < b.key.tour_id ? -1 : a.key.tour_id > b.key.tour_id ? 1 : a.key.start_at < b.key.start_at ? -1 : a.key.start_at > b.key.start_at ? 1 : 0

function selectorSql(selector: BookingSelector): { where: string, params: unknown[] } {
  if ('id' in selector) return { where: 'id = ?', params: [selector.id] }
  if ('ids' in selector) return { where: `id in (${selector.ids.map(() => '?').join(', ')})`, params: [...selector.ids] }
  if ('session' in selector) {
    return selector.lapsedBy === undefined
      ? { where: 'session_id = ?', params: [selector.session] }
      : { where: 'session_id = ? and hold_expires_at <= ?', params: [selector.session, selector.lapsedBy] }
  }
  const { tour_id, start_at } = selector.departure
  return { where: 'tour_id = ? and start_at = ? and hold_expires_at <= ?', params: [tour_id, start_at, selector.lapsedBy] }
}

function* reportBooking(type: NonNullable<ReturnType<typeof bookingEventOf>>, row: BookingRow, notice: EventNotice): Plan<void> {
  yield* emit({ instanceId: row.instance_id, type, subject: { type: 'booking', id: row.id }, occurredAt: row.updated_at, data: { ...row }, notice })
}

/** The events of these status changes (none for holds, none for quarantined submissions). */
function* reportTransitions(from: BookingStatus | null, rows: readonly BookingRow[], notice: Omit<EventNotice, 'from'> = {}): Plan<void> {
  for (const row of rows) {
    const type = bookingEventOf(from, row.status as BookingStatus)
    if (type && row.quarantined !== 1) yield* reportBooking(type, row, { ...notice, from })
  }
}

/**
 * Bookings and the per-departure seat counter. `departures.seats_taken` is the sum of the
 * parties of the departure's bookings in a SEATED status (held, requested, confirmed,
 * completed, no_show; quarantined ones excluded); it only changes in the same transaction
 * as the booking that moves it.
 */
export function bookingRepository({ db, dialect, supportsSkipLocked }: Database) {
  return {
    /**
     * Queues the session's writes behind each other (PostgreSQL; SQLite's BEGIN IMMEDIATE
     * already runs one transaction at a time). Every plan that reads a session's bookings in
     * order to change them starts here, so what it read stays true until it commits.
     */
    *lockSession(instanceId: string, sessionId: string): Plan<void> {
      if (dialect === 'postgres') {
        yield* statement('select 1 from sessions where instance_id = ? and id = ? for update', [instanceId, sessionId])
      }
    },

    /**
     * The one way a booking's status changes. Moves the selected bookings that are in `from`
     * to `to` (a transition the state machine must allow), records each transition, and
     * answers the rows as they are now. A booking no longer in `from` is left alone, so a
     * transition raced by another request or node happens once. `to` may split on the hold's
     * time: lapsed holds go one way (expired), live ones another (released), in one statement.
     */
    *transition(instanceId: string, selector: BookingSelector, from: BookingStatus, to: BookingStatus | LapseSplit, at: string,
      changes: Partial<Omit<BookingRow, 'id' | 'instance_id' | 'status' | 'updated_at' | 'version'>> = {}, notice: Omit<EventNotice, 'from'> = {}): Plan<BookingRow[]> {
      const targets = typeof to === 'string' ? [to] : [to.lapsed, to.live]
      for (const target of targets) {
        if (!canTransition(from, target)) throw new Error(`the booking state machine has no transition from ${from} to ${target}`)
      }
      const { where, params } = selectorSql(selector)
      const columns = Object.keys(changes) as Array<keyof typeof changes>
      // The statuses are written into the SQL, not bound: only a literal `status = 'held'`
      // lets either database use the partial indexes over held bookings.
      const status = typeof to === 'string' ? statusLiteral(to) : `case when hold_expires_at <= ? then ${statusLiteral(to.lapsed)} else ${statusLiteral(to.live)} end`
      const set = [`status = ${status}`, 'updated_at = ?', 'version = version + 1', ...columns.map((c) => `${c} = ?`)].join(', ')
      const update = `update bookings set ${set} where instance_id = ? and ${where} and status = ${statusLiteral(from)} returning *`
      const updateParams = [...typeof to === 'string' ? [] : [to.lapsedBy], at, ...columns.map((c) => changes[c]), instanceId, ...params]
      if (dialect === 'postgres') {
        // One round trip instead of two: the history rows are written from the update's own result.
        const { rows } = yield* statement<BookingRow>(`with moved as (${update}),
          recorded as (insert into booking_events (id, instance_id, booking_id, from_status, to_status, at)
            select gen_random_uuid()::text, instance_id, id, ${statusLiteral(from)}, status, updated_at from moved)
          select * from moved`, updateParams)
        yield* reportTransitions(from, rows, notice)
        return rows
      }
      const { rows } = yield* statement<BookingRow>(update, updateParams)
      if (rows.length > 0) {
        const values = rows.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')
        yield* statement(`insert into booking_events (id, instance_id, booking_id, from_status, to_status, at) values ${values}`,
          rows.flatMap((row) => [newRowId(), instanceId, row.id, from, row.status, at]))
      }
      yield* reportTransitions(from, rows, notice)
      return rows
    },

    /** A new booking in its first status, with that first transition recorded. */
    *insert(row: BookingRow, notice: Omit<EventNotice, 'from'> = {}): Plan<void> {
      const values = BOOKING_COLUMNS.map((c) => row[c])
      if (dialect === 'postgres') {
        yield* statement(`with inserted as (${INSERT_BOOKING} returning id, instance_id, status, created_at)
          insert into booking_events (id, instance_id, booking_id, from_status, to_status, at)
          select ?, instance_id, id, null, status, created_at from inserted`, [...values, newRowId()])
      } else {
        yield* statement(INSERT_BOOKING, values)
        yield* statement('insert into booking_events (id, instance_id, booking_id, from_status, to_status, at) values (?, ?, ?, ?, ?, ?)',
          [newRowId(), row.instance_id, row.id, null, row.status, row.created_at])
      }
      yield* reportTransitions(null, [row], notice)
    },

    /**
     * Applies seat changes in departure-key order, so two transactions that touch the same
     * departures lock them in the same order and never wait on each other in a cycle.
     * Taking is one conditional statement: it happens only if the seats fit and the
     * departure is open, so capacity is enforced by the database whatever the concurrency.
     * The first take that does not fit stops the seat changes and is answered with the
     * changes not yet applied; the caller may free seats and try those again, or throw,
     * which rolls the whole plan back.
     */
    *changeSeats(changes: readonly SeatChange[]): Plan<SeatChangeOutcome> {
      const ordered = [...changes].sort(byDepartureKey)
      for (const [index, change] of ordered.entries()) {
        const { instance_id, tour_id, start_at } = change.key
        if (change.seats === 0) continue
        if (change.seats < 0) {
          const { changes: updated } = yield* statement(
            'update departures set seats_taken = seats_taken - ? where instance_id = ? and tour_id = ? and start_at = ? and seats_taken >= ?',
            [-change.seats, instance_id, tour_id, start_at, -change.seats],
          )
          if (updated !== 1) throw new Error(`seat ledger broken: ${-change.seats} seats to give back on ${tour_id} ${start_at}, which has fewer taken`)
          continue
        }
        const { rows } = yield* statement(
          `insert into departures (instance_id, tour_id, start_at, capacity, seats_taken) values (?, ?, ?, ?, ?)
           on conflict (instance_id, tour_id, start_at) do update set seats_taken = departures.seats_taken + excluded.seats_taken
           where departures.closed = 0 and departures.seats_taken + excluded.seats_taken <= departures.capacity
           returning seats_taken`,
          [instance_id, tour_id, start_at, change.capacity, change.seats],
        )
        if (rows.length === 0) {
          const { rows: [departure] } = yield* statement<{ capacity: number, seats_taken: number, closed: number }>(
            'select capacity, seats_taken, closed from departures where instance_id = ? and tour_id = ? and start_at = ?',
            [instance_id, tour_id, start_at],
          )
          return { ok: false, key: change.key, remaining: Math.max(0, departure.capacity - departure.seats_taken), closed: departure.closed === 1, pending: ordered.slice(index) }
        }
      }
      return { ok: true }
    },

    /** The session's most recent booking in one of `statuses`, read inside a plan. */
    *latestForSessionIn(instanceId: string, sessionId: string, statuses: readonly BookingStatus[]): Plan<BookingRow | undefined> {
      const { rows } = yield* statement<BookingRow>(
        `select * from bookings where instance_id = ? and session_id = ? and status in (${statuses.map(() => '?').join(', ')})
         order by created_at desc, id desc limit 1`,
        [instanceId, sessionId, ...statuses],
      )
      return rows[0]
    },

    /** The booking with this id, read inside a plan. */
    *byId(instanceId: string, id: string): Plan<BookingRow | undefined> {
      const { rows } = yield* statement<BookingRow>('select * from bookings where instance_id = ? and id = ?', [instanceId, id])
      return rows[0]
    },

    /**
     * The booking with this code and contact email (`email` in lower case), read inside a plan.
     * One statement whether or not the code exists, so a wrong pair takes the same path as an
     * unknown code.
     */
    *byCodeAndEmail(instanceId: string, code: string, email: string): Plan<BookingRow | undefined> {
      const { rows } = yield* statement<BookingRow>('select * from bookings where instance_id = ? and code = ? and lower(contact_email) = ?',
        [instanceId, code, email])
      return rows[0]
    },

    *codeExists(instanceId: string, code: string): Plan<boolean> {
      const { rows } = yield* statement('select 1 from bookings where instance_id = ? and code = ?', [instanceId, code])
      return rows.length > 0
    },

    /** Lapsed holds to sweep; on PostgreSQL rows another node is sweeping are skipped, not waited for. */
    *lapsedHolds(now: string, limit: number): Plan<Array<Pick<BookingRow, 'id' | 'instance_id'>>> {
      const { rows } = yield* statement<Pick<BookingRow, 'id' | 'instance_id'>>(
        `select id, instance_id from bookings where status = ${statusLiteral('held')} and hold_expires_at <= ? order by hold_expires_at limit ${Number(limit)}`
          + (supportsSkipLocked ? ' for update skip locked' : ''),
        [now],
      )
      return rows
    },

    /** The session's most recent booking in one of `statuses`, outside any transaction. */
    async latestForSession(instanceId: string, sessionId: string, statuses: readonly string[]): Promise<BookingRow | undefined> {
      return db.selectFrom('bookings')
        .selectAll()
        .where('instance_id', '=', instanceId)
        .where('session_id', '=', sessionId)
        .where('status', 'in', statuses)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        // A literal, not a parameter: with LIMIT bound, SQLite walks the whole index range
        // before it stops (about 3 to 6 times slower here on a session with a long history).
        .limit(sql.lit(1))
        .executeTakeFirst()
    },
  }
}
export type BookingRepository = ReturnType<typeof bookingRepository>

// The operator's side (docs/operator-api.md, "Bookings"): finding bookings, locking one to act on it,
// changing its fields, the requests waiting for an answer, and the history of each.

export type BookingEventRow = Selectable<Tables['booking_events']>
/** Who made a change at an instant, as the audit log has it. */
export type RecordedChange = Pick<Selectable<Tables['audit_log']>, 'at' | 'actor_type' | 'actor_id' | 'actor_name' | 'action' | 'target_type' | 'target_id' | 'after'>

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
  quarantined?: boolean
}

/** A booking's place in the list's order (start, then id); a page starts after it. */
export interface BookingPosition {
  start_at: string
  id: string
}

/** Fields of a booking the operator changes by hand (PATCH, release from quarantine); never its status. */
export type BookingFieldChanges = Partial<Pick<BookingRow, 'tour_id' | 'start_at' | 'end_at' | 'party' | 'addons' | 'promo_code' | 'subtotal'
  | 'addons_total' | 'discount' | 'total' | 'cancellable_until' | 'contact_name' | 'contact_email' | 'contact_phone' | 'internal_note' | 'quarantined'>>

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
  if (filter.quarantined !== undefined) add('quarantined = ?', filter.quarantined ? 1 : 0)
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
    async page(instanceId: string, filter: BookingFilter, after: BookingPosition | null, limit: number): Promise<BookingRow[]> {
      const { where, params } = filterSql(dialect, instanceId, filter, after)
      return read(function* () {
        const { rows } = yield* statement<BookingRow>(`select * from bookings where ${where} order by start_at, id limit ${Number(limit)}`, params)
        return rows
      })
    },

    /** The booking with this code (any case) or id. */
    async find(instanceId: string, codeOrId: string): Promise<BookingRow | undefined> {
      return read(function* () {
        const { rows } = yield* statement<BookingRow>('select * from bookings where instance_id = ? and (code = ? or id = ?)',
          [instanceId, codeOrId.toUpperCase(), codeOrId])
        return rows[0]
      })
    },

    /**
     * The booking as it is now, read inside a plan and, on PostgreSQL, locked until the plan
     * commits: what an operator action decides on stays true until it is written. (Staff
     * bookings have no session row for lockSession to queue on.)
     */
    *lock(instanceId: string, id: string): Plan<BookingRow | undefined> {
      const { rows } = yield* statement<BookingRow>(`select * from bookings where instance_id = ? and id = ?${dialect === 'postgres' ? ' for update' : ''}`,
        [instanceId, id])
      return rows[0]
    },

    /** Changes the booking's fields (never its status), raising its version; answers the row as it is now. */
    *update(instanceId: string, id: string, changes: BookingFieldChanges, at: string): Plan<BookingRow | undefined> {
      const columns = Object.keys(changes) as Array<keyof BookingFieldChanges>
      const set = ['updated_at = ?', 'version = version + 1', ...columns.map((c) => `${c} = ?`)].join(', ')
      const { rows: [row] } = yield* statement<BookingRow>(`update bookings set ${set} where instance_id = ? and id = ? returning *`,
        [at, ...columns.map((c) => changes[c]), instanceId, id])
      if (row && row.quarantined === 0 && isOneOf(ON_MANIFEST, row.status)) {
        // A submission released from quarantine is heard of now, as if it had just been made;
        // a note for the staff is not news to anyone else.
        if (changes.quarantined === 0) yield* reportTransitions(null, [row])
        else if (columns.some((c) => c !== 'internal_note')) yield* reportBooking('booking.changed', row, { from: row.status, changed: columns })
      }
      return row
    },

    /** Every transition of the booking, oldest first. */
    async events(instanceId: string, bookingId: string): Promise<BookingEventRow[]> {
      return read(function* () {
        const { rows } = yield* statement<BookingEventRow>('select * from booking_events where instance_id = ? and booking_id = ? order by at',
          [instanceId, bookingId])
        return rows
      })
    },

    /** Audit entries made at these instants (through the log's time index): who made the transitions recorded then. */
    async changesAt(instanceId: string, ats: readonly string[]): Promise<RecordedChange[]> {
      if (ats.length === 0) return []
      return read(function* () {
        const { rows } = yield* statement<RecordedChange>(
          `select at, actor_type, actor_id, actor_name, action, target_type, target_id, after from audit_log
           where instance_id = ? and at in (${ats.map(() => '?').join(', ')})`, [instanceId, ...ats])
        return rows
      })
    },

    /**
     * Requests still unanswered that were made before `requestedBefore` or whose departure
     * starts before `startsBefore`, with the instant each was requested (through the partial
     * index over requested bookings).
     */
    async awaitingDecision(instanceId: string, requestedBefore: string, startsBefore: string): Promise<Array<Pick<BookingRow, 'id' | 'tour_id' | 'start_at'> & { requested_at: string }>> {
      return read(function* () {
        const { rows } = yield* statement<Pick<BookingRow, 'id' | 'tour_id' | 'start_at'> & { requested_at: string }>(
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
