import { sql } from 'kysely'
import { bookingEventOf } from '../domain/booking-events.ts'
import { canTransition } from '../domain/booking-status.ts'
import type { BookingStatus } from '../schemas/booking-status.ts'
import type { Database } from './database.ts'
import { newRowId } from './row-id.ts'
import { statusLiteral } from './status-sql.ts'
import type { EventNotice } from './events.ts'
import type { BookingRecord } from '../domain/booking.ts'
import { changingExactly, emit, statement, UNUSED, type Foreseen, type Plan } from './write-plan.ts'

export interface DepartureKey {
  instance_id: string
  tour_id: string
  start_at: string
}

/** Which bookings a transition applies to, besides their instance and current status. */
export type BookingSelector =
  | { id: string }
  /** The booking as the plan read it under its session's lock: on PostgreSQL its change is foreseen (write-plan.ts). */
  | { read: BookingRecord }
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

const BOOKING_COLUMNS = ['id', 'instance_id', 'session_id', 'tour_id', 'start_at', 'end_at', 'party', 'seats', 'units', 'status', 'quarantined', 'addons',
  'promo_code', 'referral_code', 'currency', 'subtotal', 'addons_total', 'discount', 'total', 'hold_expires_at', 'code', 'contact_name',
  'contact_email', 'contact_phone', 'cancellable_until', 'cancellation_fee_percent', 'cancellation_fee', 'cancelled_at', 'created_at',
  'updated_at', 'version', 'channel', 'policy', 'checked_in_at', 'internal_note', 'decline_reason', 'cancelled_by', 'cancellation_reason',
  'fee_waived', 'reseller_key_id', 'reseller_uuid', 'reseller_reference', 'reseller_commission_basis_points', 'language', 'reseller_notes'] as const satisfies ReadonlyArray<keyof BookingRecord>
const INSERT_BOOKING = `insert into bookings (${BOOKING_COLUMNS.join(', ')}) values (${BOOKING_COLUMNS.map(() => '?').join(', ')})`
const FREE_SEATS = 'update departures set seats_taken = seats_taken - ? where instance_id = ? and tour_id = ? and start_at = ? and seats_taken >= ?'
/** Foreseen (PostgreSQL): the seats come back (anything else is a broken ledger, thrown when the plan runs again). */
const FREE_SEATS_FORESEEN: Foreseen = { outcome: { rows: [], changes: 1 }, sql: changingExactly(`${FREE_SEATS} returning 1`, 1) }
const TAKE_SEATS = `insert into departures (instance_id, tour_id, start_at, capacity, seats_taken) values (?, ?, ?, ?, ?)
  on conflict (instance_id, tour_id, start_at) do update set seats_taken = departures.seats_taken + excluded.seats_taken
  where departures.closed = 0 and departures.seats_taken + excluded.seats_taken <= departures.capacity
  returning seats_taken`
/** Foreseen (PostgreSQL): the seats fit; a take that does not is refused, or makes room, when the plan runs again. */
const TAKE_SEATS_FORESEEN: Foreseen = { outcome: { rows: [{}], changes: 1 }, sql: changingExactly(TAKE_SEATS, 1) }
const byDepartureKey = (a: SeatChange, b: SeatChange) =>
  a.key.tour_id < b.key.tour_id ? -1 : a.key.tour_id > b.key.tour_id ? 1 : a.key.start_at < b.key.start_at ? -1 : a.key.start_at > b.key.start_at ? 1 : 0

function selectorSql(selector: BookingSelector): { where: string, params: unknown[] } {
  if ('id' in selector) return { where: 'id = ?', params: [selector.id] }
  if ('read' in selector) return { where: 'id = ?', params: [selector.read.id] }
  if ('ids' in selector) return { where: `id in (${selector.ids.map(() => '?').join(', ')})`, params: [...selector.ids] }
  if ('session' in selector) {
    return selector.lapsedBy === undefined
      ? { where: 'session_id = ?', params: [selector.session] }
      : { where: 'session_id = ? and hold_expires_at <= ?', params: [selector.session, selector.lapsedBy] }
  }
  const { tour_id, start_at } = selector.departure
  return { where: 'tour_id = ? and start_at = ? and hold_expires_at <= ?', params: [tour_id, start_at, selector.lapsedBy] }
}

export function* reportBooking(type: NonNullable<ReturnType<typeof bookingEventOf>>, row: BookingRecord, notice: EventNotice): Plan<void> {
  yield* emit({ instanceId: row.instance_id, type, subject: { type: 'booking', id: row.id }, occurredAt: row.updated_at, data: { ...row }, notice })
}

/** The events of these status changes (none for holds, none for quarantined submissions). */
export function* reportTransitions(from: BookingStatus | null, rows: readonly BookingRecord[], notice: Omit<EventNotice, 'from'> = {}): Plan<void> {
  for (const row of rows) {
    const type = bookingEventOf(from, row.status)
    if (type && row.quarantined !== 1) yield* reportBooking(type, row, { ...notice, from })
  }
}

/**
 * Bookings and the per-departure seat counter. `departures.seats_taken` is the sum of the
 * seats (not the parties: src/domain/units.ts) of the departure's bookings in a SEATED status (held, requested, confirmed,
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
        yield* statement('select 1 from sessions where instance_id = ? and id = ? for update', [instanceId, sessionId], UNUSED)
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
      changes: Partial<Omit<BookingRecord, 'id' | 'instance_id' | 'status' | 'updated_at' | 'version'>> = {}, notice: Omit<EventNotice, 'from'> = {}): Plan<BookingRecord[]> {
      const targets = typeof to === 'string' ? [to] : [to.lapsed, to.live]
      for (const target of targets) {
        if (!canTransition(from, target)) throw new Error(`the booking state machine has no transition from ${from} to ${target}`)
      }
      const { where, params } = selectorSql(selector)
      const columns = Object.keys(changes) as Array<Extract<keyof typeof changes, string>>
      // The statuses are written into the SQL, not bound: only a literal `status = 'held'`
      // lets either database use the partial indexes over held bookings.
      const status = typeof to === 'string' ? statusLiteral(to) : `case when hold_expires_at <= ? then ${statusLiteral(to.lapsed)} else ${statusLiteral(to.live)} end`
      const set = [`status = ${status}`, 'updated_at = ?', 'version = version + 1', ...columns.map((c) => `${c} = ?`)].join(', ')
      const update = `update bookings set ${set} where instance_id = ? and ${where} and status = ${statusLiteral(from)} returning *`
      const updateParams = [...typeof to === 'string' ? [] : [to.lapsedBy], at, ...columns.map((c) => changes[c]), instanceId, ...params]
      if (dialect === 'postgres') {
        // One statement instead of two: the history rows are written from the update's own result.
        const recorded = `recorded as (insert into booking_events (id, instance_id, booking_id, from_status, to_status, at)
            select gen_random_uuid()::text, instance_id, id, ${statusLiteral(from)}, status, updated_at from moved)`
        // A booking read under its session's lock changes as the plan foresees, unless something
        // changed it since (its version then differs) or the sweep expired it (its status does).
        const foreseen: Foreseen | undefined = 'read' in selector && typeof to === 'string' ? {
          outcome: { rows: [{ ...selector.read, ...changes, status: to, updated_at: at, version: selector.read.version + 1 }], changes: 1 },
          sql: `with moved as (${update.replace(' returning *', ' and version = ? returning *')}), ${recorded}
            select tourdesk_expect(count(*) = 1) from moved`,
          params: [...updateParams, selector.read.version],
        } : undefined
        const { rows } = yield* statement<BookingRecord>(`with moved as (${update}), ${recorded} select * from moved`, updateParams, foreseen)
        yield* reportTransitions(from, rows, notice)
        return rows
      }
      const { rows } = yield* statement<BookingRecord>(update, updateParams)
      if (rows.length > 0) {
        const values = rows.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')
        yield* statement(`insert into booking_events (id, instance_id, booking_id, from_status, to_status, at) values ${values}`,
          rows.flatMap((row) => [newRowId(), instanceId, row.id, from, row.status, at]))
      }
      yield* reportTransitions(from, rows, notice)
      return rows
    },

    /** A new booking in its first status, with that first transition recorded. */
    *insert(row: BookingRecord, notice: Omit<EventNotice, 'from'> = {}): Plan<void> {
      const values = BOOKING_COLUMNS.map((c) => row[c])
      if (dialect === 'postgres') {
        yield* statement(`with inserted as (${INSERT_BOOKING} returning id, instance_id, status, created_at)
          insert into booking_events (id, instance_id, booking_id, from_status, to_status, at)
          select ?, instance_id, id, null, status, created_at from inserted`, [...values, newRowId()], UNUSED)
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
          const { changes: updated } = yield* statement(FREE_SEATS, [-change.seats, instance_id, tour_id, start_at, -change.seats], FREE_SEATS_FORESEEN)
          if (updated !== 1) throw new Error(`seat ledger broken: ${-change.seats} seats to give back on ${tour_id} ${start_at}, which has fewer taken`)
          continue
        }
        const { rows } = yield* statement(TAKE_SEATS, [instance_id, tour_id, start_at, change.capacity, change.seats], TAKE_SEATS_FORESEEN)
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
    *latestForSessionIn(instanceId: string, sessionId: string, statuses: readonly BookingStatus[]): Plan<BookingRecord | undefined> {
      const { rows } = yield* statement<BookingRecord>(
        `select * from bookings where instance_id = ? and session_id = ? and status in (${statuses.map(() => '?').join(', ')})
         order by created_at desc, id desc limit 1`,
        [instanceId, sessionId, ...statuses],
      )
      return rows[0]
    },

    /** The booking with this id, read inside a plan. */
    *byId(instanceId: string, id: string): Plan<BookingRecord | undefined> {
      const { rows } = yield* statement<BookingRecord>('select * from bookings where instance_id = ? and id = ?', [instanceId, id])
      return rows[0]
    },

    /**
     * The booking with this code and contact email (`email` in lower case), read inside a plan.
     * One statement whether or not the code exists, so a wrong pair takes the same path as an
     * unknown code.
     */
    *byCodeAndEmail(instanceId: string, code: string, email: string): Plan<BookingRecord | undefined> {
      const { rows } = yield* statement<BookingRecord>('select * from bookings where instance_id = ? and code = ? and lower(contact_email) = ?',
        [instanceId, code, email])
      return rows[0]
    },

    *codeExists(instanceId: string, code: string): Plan<boolean> {
      // Foreseen (PostgreSQL): a new code is free; one taken already is found when the plan runs again.
      const { rows } = yield* statement('select 1 from bookings where instance_id = ? and code = ?', [instanceId, code], {
        outcome: { rows: [], changes: 0 },
        sql: 'select tourdesk_expect(not exists (select 1 from bookings where instance_id = ? and code = ?))',
      })
      return rows.length > 0
    },

    /** Lapsed holds to sweep; on PostgreSQL rows another node is sweeping are skipped, not waited for. */
    *lapsedHolds(now: string, limit: number): Plan<Array<Pick<BookingRecord, 'id' | 'instance_id'>>> {
      const { rows } = yield* statement<Pick<BookingRecord, 'id' | 'instance_id'>>(
        `select id, instance_id from bookings where status = ${statusLiteral('held')} and hold_expires_at <= ? order by hold_expires_at limit ${Number(limit)}`
          + (supportsSkipLocked ? ' for update skip locked' : ''),
        [now],
      )
      return rows
    },

    /** The session's most recent booking in one of `statuses`, outside any transaction. */
    async latestForSession(instanceId: string, sessionId: string, statuses: readonly BookingStatus[]): Promise<BookingRecord | undefined> {
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
