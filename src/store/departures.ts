import { sql, type Selectable } from 'kysely'
import type { DepartureKey } from './bookings.ts'
import { LIVE, ON_MANIFEST, SEATED } from '../schemas/booking-status.ts'
import type { Database } from './database.ts'
import { statusList, statusLiteral } from './status-sql.ts'
import type { Tables } from './tables.ts'
import { statement, UNUSED, type Plan } from './write-plan.ts'
import type { BookingRecord } from '../domain/booking.ts'

export type DepartureRow = Selectable<Tables['departures']>

/** Seats (the sum of the bookings' seats, src/domain/units.ts) per status on one departure; quarantined bookings never count. */
export interface SeatCounts {
  /** Holds that have not lapsed. */
  held: number
  requested: number
  confirmed: number
  completed: number
  no_show: number
}

/**
 * A departure's seats per status, and its live people: Σ party of its requested, confirmed,
 * completed and no-show bookings, what the minimum to run counts (docs/units.md: capacity
 * counts seats, the minimum counts people; an infant on a lap takes no seat but is a guest).
 * Holds are left out: they lapse on their own within minutes, and a departure guests see as
 * guaranteed must not fall back because someone stopped at checkout. Requests count: they
 * stand until the operator declines them.
 */
export interface DepartureCounts extends SeatCounts {
  people: number
}

export interface DepartureSeats extends DepartureCounts {
  tour_id: string
  start_at: string
  /** The latest end of its bookings: where the tour is no longer in the catalog, the only end known. */
  end_at: string | null
}

/** What the operator may change on a departure row; every change raises its version. */
export type DepartureChange = Partial<Pick<DepartureRow, 'capacity' | 'capacity_source' | 'closed' | 'cancelled' | 'note' | 'extra'>>

/** A departure's stored seats and flags as guest availability needs them. */
export interface WindowDeparture {
  start_at: string
  capacity: number
  seats_taken: number
  closed: number
  cancelled: number
  extra: number
  /** Live people (DepartureCounts.people); counted only when seatsInWindow is asked for them, else 0. */
  people: number
}

export interface WindowSeats {
  byStart: Map<string, WindowDeparture>
  /** Stored instant at which the next hold still counted here lapses; null when none is held. */
  nextLapseAt: string | null
}

/** Seats per seated status, a hold counting until it lapses (its one parameter: now); and the live people (DepartureCounts). */
const SEAT_SUMS = [...SEATED.map((status) =>
  `sum(case when status = ${statusLiteral(status)}${status === 'held' ? ' and hold_expires_at > ?' : ''} then seats else 0 end) as ${status}`),
`sum(case when status in ${statusList(ON_MANIFEST)} then party else 0 end) as people`].join(',\n  ')
/** Quarantined bookings take no seat and are on no manifest. */
const COUNTED = `status in ${statusList(SEATED)} and quarantined = 0`

/** PostgreSQL returns sums as bigint text. */
const seatsOf = (row: Record<string, unknown>): DepartureSeats => ({
  tour_id: row.tour_id as string,
  start_at: row.start_at as string,
  end_at: (row.end_at as string | null) ?? null,
  held: Number(row.held),
  requested: Number(row.requested),
  confirmed: Number(row.confirmed),
  completed: Number(row.completed),
  no_show: Number(row.no_show),
  people: Number(row.people),
})

/**
 * Departure rows: one exists for every departure someone booked, an operator touched or
 * whose minimum-to-run deadline was checked (the others are only in the schedule). `seats_taken` belongs to the booking repository's
 * seat ledger; this repository changes the operator's fields and reads seats per status.
 */
export function departureRepository({ db, dialect }: Database) {
  const keyWhere = 'instance_id = ? and tour_id = ? and start_at = ?'
  const keyParams = (key: DepartureKey) => [key.instance_id, key.tour_id, key.start_at]

  return {
    /** The stored row, locked until the transaction ends on PostgreSQL when `lock` (SQLite runs one writer at a time). */
    *find(key: DepartureKey, lock = false): Plan<DepartureRow | undefined> {
      const forUpdate = lock && dialect === 'postgres' ? ' for update' : ''
      const { rows } = yield* statement<DepartureRow>(`select * from departures where ${keyWhere}${forUpdate}`, keyParams(key))
      return rows[0]
    },

    /** Writes the row of a departure that has none yet, with the tour's capacity, as a first hold would. */
    *ensure(key: DepartureKey, capacity: number): Plan<void> {
      yield* statement(`insert into departures (instance_id, tour_id, start_at, capacity, seats_taken) values (?, ?, ?, ?, 0)
        on conflict (instance_id, tour_id, start_at) do nothing`, [...keyParams(key), capacity])
    },

    /** A departure added by hand; undefined when a row already exists. */
    *insertExtra(key: DepartureKey, capacity: number, capacitySource: string): Plan<DepartureRow | undefined> {
      const { rows } = yield* statement<DepartureRow>(`insert into departures (instance_id, tour_id, start_at, capacity, seats_taken, extra, capacity_source)
        values (?, ?, ?, ?, 0, 1, ?) on conflict (instance_id, tour_id, start_at) do nothing returning *`, [...keyParams(key), capacity, capacitySource])
      return rows[0]
    },

    /**
     * Changes the operator's fields and raises the version. With `seatsAtMost` (a new
     * capacity) the change happens only while no more seats than that are taken, checked by
     * the statement itself, so it is exact against holds committing at the same moment.
     * undefined when the row is missing or the seats did not fit.
     */
    *change(key: DepartureKey, change: DepartureChange, seatsAtMost?: number): Plan<DepartureRow | undefined> {
      const columns = Object.keys(change) as Array<keyof DepartureChange>
      const set = [...columns.map((c) => `${c} = ?`), 'version = version + 1'].join(', ')
      const seats = seatsAtMost === undefined ? '' : ' and seats_taken <= ?'
      const { rows } = yield* statement<DepartureRow>(`update departures set ${set} where ${keyWhere}${seats} returning *`,
        [...columns.map((c) => change[c]), ...keyParams(key), ...seatsAtMost === undefined ? [] : [seatsAtMost]])
      return rows[0]
    },

    /** Seats per status and live people on every departure starting in [fromAt, beforeAt) (of one tour, or all), in one grouped read. */
    *seats(instanceId: string, tourId: string | null, fromAt: string, beforeAt: string, now: string): Plan<DepartureSeats[]> {
      const tour = tourId === null ? '' : ' and tour_id = ?'
      const { rows } = yield* statement(`select tour_id, start_at, max(end_at) as end_at, ${SEAT_SUMS} from bookings
        where instance_id = ? and start_at >= ? and start_at < ?${tour} and ${COUNTED} group by tour_id, start_at`,
      [now, instanceId, fromAt, beforeAt, ...tourId === null ? [] : [tourId]])
      return rows.map(seatsOf)
    },

    /**
     * Holds the row until the plan commits (PostgreSQL; SQLite runs one writer at a time): a
     * plan that reads the departure's bookings after this sees every plan before it that did
     * the same, which is what makes the minimum's crossing seen by exactly one of two bookings
     * committing together.
     */
    *lock(key: DepartureKey): Plan<void> {
      if (dialect === 'postgres') yield* statement(`select 1 from departures where ${keyWhere} for update`, keyParams(key), UNUSED)
    },

    /** Seats per status and live people on this one departure (undefined when none of its bookings counts). */
    *seatsAt(key: DepartureKey, now: string): Plan<DepartureSeats | undefined> {
      const { rows: [row] } = yield* statement(`select tour_id, start_at, max(end_at) as end_at, ${SEAT_SUMS} from bookings
        where instance_id = ? and start_at = ? and tour_id = ? and ${COUNTED} group by tour_id, start_at`,
      [now, key.instance_id, key.start_at, key.tour_id])
      return row && seatsOf(row)
    },

    /** Stored rows of these tours starting in (afterAt, untilAt]: where the minimum-to-run deadlines of the coming hours stand. */
    *deadlinesBetween(instanceId: string, tourIds: readonly string[], afterAt: string, untilAt: string): Plan<Array<Pick<DepartureRow,
      'tour_id' | 'start_at' | 'cancelled' | 'deadline_checked_at'>>> {
      const { rows } = yield* statement<Pick<DepartureRow, 'tour_id' | 'start_at' | 'cancelled' | 'deadline_checked_at'>>(
        `select tour_id, start_at, cancelled, deadline_checked_at from departures
         where instance_id = ? and start_at > ? and start_at <= ? and tour_id in (${tourIds.map(() => '?').join(', ')})`,
        [instanceId, afterAt, untilAt, ...tourIds])
      return rows
    },

    /**
     * The row of a scheduled departure nobody booked yet, written checked at its deadline and
     * at risk (nobody booked it, so it is below any minimum); undefined when a row exists.
     */
    *insertAtRisk(key: DepartureKey, capacity: number, at: string): Plan<DepartureRow | undefined> {
      const { rows } = yield* statement<DepartureRow>(`insert into departures (instance_id, tour_id, start_at, capacity, seats_taken, deadline_checked_at, at_risk_at)
        values (?, ?, ?, ?, 0, ?, ?) on conflict (instance_id, tour_id, start_at) do nothing returning *`, [...keyParams(key), capacity, at, at])
      return rows[0]
    },

    /** Records the deadline's check (and whether it found the departure at risk) once; undefined when it was already recorded. */
    *markDeadlineChecked(key: DepartureKey, at: string, atRisk: boolean): Plan<DepartureRow | undefined> {
      const { rows } = yield* statement<DepartureRow>(`update departures set deadline_checked_at = ?, at_risk_at = ?
        where ${keyWhere} and deadline_checked_at is null returning *`, [at, atRisk ? at : null, ...keyParams(key)])
      return rows[0]
    },

    /**
     * A tour's departures from `fromAt` whose capacity differs from `capacity` and cannot follow
     * it: set by the operator, or holding more seats than it.
     */
    *capacityKeptFrom(instanceId: string, tourId: string, fromAt: string, capacity: number): Plan<Array<Pick<DepartureRow, 'start_at' | 'capacity' | 'seats_taken' | 'capacity_source'>>> {
      const { rows } = yield* statement<Pick<DepartureRow, 'start_at' | 'capacity' | 'seats_taken' | 'capacity_source'>>(
        `select start_at, capacity, seats_taken, capacity_source from departures
         where instance_id = ? and tour_id = ? and start_at >= ? and capacity <> ? and (capacity_source <> 'tour' or seats_taken > ?)
         order by start_at`,
        [instanceId, tourId, fromAt, capacity, capacity])
      return rows
    },

    /** A tour's departures from `fromAt` whose capacity follows the tour take `capacity`, where their seats fit. */
    *followTourCapacity(instanceId: string, tourId: string, fromAt: string, capacity: number): Plan<void> {
      yield* statement(
        `update departures set capacity = ?, version = version + 1
         where instance_id = ? and tour_id = ? and start_at >= ? and capacity_source = 'tour' and seats_taken <= ? and capacity <> ?`,
        [capacity, instanceId, tourId, fromAt, capacity, capacity])
    },

    /** A tour's departures from `fromAt` that hold seats, neither added by hand nor cancelled. */
    *bookedFrom(instanceId: string, tourId: string, fromAt: string): Plan<Array<Pick<DepartureRow, 'start_at' | 'seats_taken'>>> {
      const { rows } = yield* statement<Pick<DepartureRow, 'start_at' | 'seats_taken'>>(
        `select start_at, seats_taken from departures
         where instance_id = ? and tour_id = ? and start_at >= ? and seats_taken > 0 and extra = 0 and cancelled = 0 order by start_at`,
        [instanceId, tourId, fromAt])
      return rows
    },

    /** Stored rows starting in [fromAt, beforeAt), of one tour or all. */
    *inSpan(instanceId: string, tourId: string | null, fromAt: string, beforeAt: string): Plan<DepartureRow[]> {
      const tour = tourId === null ? '' : ' and tour_id = ?'
      const { rows } = yield* statement<DepartureRow>(`select * from departures where instance_id = ? and start_at >= ? and start_at < ?${tour}`,
        [instanceId, fromAt, beforeAt, ...tourId === null ? [] : [tourId]])
      return rows
    },

    /** The departure's bookings a manifest or its seat counts need: every counted status, quarantined ones left out. */
    *bookingsOn(key: DepartureKey): Plan<BookingRecord[]> {
      const { rows } = yield* statement<BookingRecord>(`select * from bookings where instance_id = ? and start_at = ? and tour_id = ? and ${COUNTED}`,
        [key.instance_id, key.start_at, key.tour_id])
      return rows
    },

    /** Bookings a cancellation of the departure acts on, whose sessions it locks first. */
    *liveBookingsOn(key: DepartureKey): Plan<Array<Pick<BookingRecord, 'id' | 'session_id'>>> {
      const { rows } = yield* statement<Pick<BookingRecord, 'id' | 'session_id'>>(
        `select id, session_id from bookings where instance_id = ? and start_at = ? and tour_id = ? and status in ${statusList(LIVE)}`,
        [key.instance_id, key.start_at, key.tour_id])
      return rows
    },

    /**
     * Seats and flags per departure of one tour in [fromAt, toAt), with lapsed holds already
     * left out, read through the departure and booking indexes of that window only; and when
     * the next unlapsed hold in the window lapses, after which the seats differ without a write.
     * With `countPeople` (a tour with a minimum to run), each departure's live people too.
     */
    async seatsInWindow(instanceId: string, tourId: string, fromAt: string, toAt: string, now: string, countPeople: boolean): Promise<WindowSeats> {
      const inWindow = db.selectFrom('bookings')
        .where('instance_id', '=', instanceId)
        .where('tour_id', '=', tourId)
        .where('start_at', '>=', fromAt)
        .where('start_at', '<', toAt)
        .where('quarantined', '=', 0)
      const [departures, holds, people] = await Promise.all([
        db.selectFrom('departures')
          .select(['start_at', 'capacity', 'seats_taken', 'closed', 'cancelled', 'extra'])
          .where('instance_id', '=', instanceId)
          .where('tour_id', '=', tourId)
          .where('start_at', '>=', fromAt)
          .where('start_at', '<', toAt)
          .execute(),
        inWindow
          .select([
            'start_at',
            sql<number | string>`sum(case when hold_expires_at <= ${now} then seats else 0 end)`.as('lapsed_seats'),
            sql<string | null>`min(case when hold_expires_at > ${now} then hold_expires_at end)`.as('next_lapse_at'),
          ])
          .where('status', '=', 'held')
          .groupBy('start_at')
          .execute(),
        countPeople
          ? inWindow.select(['start_at', sql<number | string>`sum(party)`.as('people')]).where('status', 'in', ON_MANIFEST).groupBy('start_at').execute()
          : [],
      ])
      const byStart = new Map(departures.map((d) => [d.start_at, { ...d, people: 0 }]))
      let nextLapseAt: string | null = null
      for (const { start_at, lapsed_seats, next_lapse_at } of holds) {
        const departure = byStart.get(start_at)
        if (departure) departure.seats_taken -= Number(lapsed_seats)
        if (next_lapse_at !== null && (nextLapseAt === null || next_lapse_at < nextLapseAt)) nextLapseAt = next_lapse_at
      }
      for (const { start_at, people: count } of people) {
        const departure = byStart.get(start_at)
        if (departure) departure.people = Number(count)
      }
      return { byStart, nextLapseAt }
    },

    /** The stored row outside any transaction (a guest's hold on a departure the schedule does not give). */
    async stored(key: DepartureKey): Promise<DepartureRow | undefined> {
      return db.selectFrom('departures').selectAll()
        .where('instance_id', '=', key.instance_id).where('tour_id', '=', key.tour_id).where('start_at', '=', key.start_at)
        .executeTakeFirst()
    },
  }
}
export type DepartureRepository = ReturnType<typeof departureRepository>
