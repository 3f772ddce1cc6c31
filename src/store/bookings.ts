import { randomUUID } from 'node:crypto'
import { sql, type Selectable } from 'kysely'
import type { BookingStatus } from '../domain/booking-status.ts'
import type { Database, Db } from './database.ts'
import type { Tables } from './tables.ts'

export type BookingRow = Selectable<Tables['bookings']>

export interface DepartureKey {
  instance_id: string
  tour_id: string
  start_at: string
}

export interface DepartureSeats {
  start_at: string
  capacity: number
  seats_taken: number
  closed: number
}

export interface WindowSeats {
  byStart: Map<string, DepartureSeats>
  /** Stored instant at which the next hold still counted here lapses; null when none is held. */
  nextLapseAt: string | null
}

/**
 * Bookings and the per-departure seat counter. `departures.seats_taken` is the sum of the
 * parties of the departure's bookings in held, requested or confirmed (quarantined ones
 * excluded); it only changes in the same transaction as the booking that moves it.
 */
export function bookingRepository({ db, supportsSkipLocked }: Database) {
  async function recordEvent(trx: Db, booking: { id: string, instance_id: string }, from: string | null, to: string, at: string) {
    await trx.insertInto('booking_events')
      .values({ id: randomUUID(), instance_id: booking.instance_id, booking_id: booking.id, from_status: from, to_status: to, at })
      .execute()
  }

  return {
    /**
     * Takes `party` seats if they fit, in one conditional update, so capacity is enforced by
     * the database whatever the concurrency. Returns the seats left after the attempt.
     */
    async takeSeats(trx: Db, key: DepartureKey, capacity: number, party: number): Promise<{ taken: boolean, remaining: number }> {
      await trx.insertInto('departures')
        .values({ ...key, capacity, seats_taken: 0 })
        .onConflict((oc) => oc.columns(['instance_id', 'tour_id', 'start_at']).doUpdateSet({ capacity }).where('departures.seats_taken', '<=', capacity))
        .execute()
      const updated = await trx.updateTable('departures')
        .set({ seats_taken: sql`seats_taken + ${party}` })
        .where('instance_id', '=', key.instance_id)
        .where('tour_id', '=', key.tour_id)
        .where('start_at', '=', key.start_at)
        .where('closed', '=', 0)
        .where(sql<boolean>`seats_taken + ${party} <= capacity`)
        .executeTakeFirst()
      const row = await trx.selectFrom('departures')
        .select(['capacity', 'seats_taken'])
        .where('instance_id', '=', key.instance_id)
        .where('tour_id', '=', key.tour_id)
        .where('start_at', '=', key.start_at)
        .executeTakeFirstOrThrow()
      return { taken: Number(updated.numUpdatedRows) === 1, remaining: Math.max(0, row.capacity - row.seats_taken) }
    },

    async freeSeats(trx: Db, key: DepartureKey, party: number): Promise<void> {
      await trx.updateTable('departures')
        .set({ seats_taken: sql`seats_taken - ${party}` })
        .where('instance_id', '=', key.instance_id)
        .where('tour_id', '=', key.tour_id)
        .where('start_at', '=', key.start_at)
        .execute()
    },

    async insert(trx: Db, row: BookingRow): Promise<void> {
      await trx.insertInto('bookings').values(row).execute()
      await recordEvent(trx, row, null, row.status, row.created_at)
    },

    /**
     * Moves a booking from one status to another and records the transition. Returns false
     * (and changes nothing) when the booking is no longer in `from`, so a transition raced by
     * another request or node happens once.
     */
    async transition(trx: Db, booking: BookingRow, from: BookingStatus, to: BookingStatus, at: string,
      changes: Partial<Omit<BookingRow, 'id' | 'instance_id' | 'status'>> = {}): Promise<boolean> {
      const result = await trx.updateTable('bookings')
        .set({ ...changes, status: to, updated_at: at })
        .where('id', '=', booking.id)
        .where('instance_id', '=', booking.instance_id)
        .where('status', '=', from)
        .executeTakeFirst()
      if (Number(result.numUpdatedRows) !== 1) return false
      await recordEvent(trx, booking, from, to, at)
      return true
    },

    async findById(trx: Db, instanceId: string, id: string): Promise<BookingRow | undefined> {
      return trx.selectFrom('bookings').selectAll().where('instance_id', '=', instanceId).where('id', '=', id).executeTakeFirst()
    },

    /** The session's most recent booking in one of `statuses`. */
    async latestForSession(instanceId: string, sessionId: string, statuses: readonly string[], trx: Db = db): Promise<BookingRow | undefined> {
      return trx.selectFrom('bookings')
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

    async codeExists(trx: Db, instanceId: string, code: string): Promise<boolean> {
      const row = await trx.selectFrom('bookings').select('id').where('instance_id', '=', instanceId).where('code', '=', code).executeTakeFirst()
      return row !== undefined
    },

    /** Holds on one departure whose time ran out but which no one has marked expired yet. */
    async lapsedHoldsOnDeparture(trx: Db, key: DepartureKey, now: string): Promise<BookingRow[]> {
      return trx.selectFrom('bookings')
        .selectAll()
        .where('instance_id', '=', key.instance_id)
        .where('tour_id', '=', key.tour_id)
        .where('start_at', '=', key.start_at)
        .where('status', '=', 'held')
        .where('hold_expires_at', '<=', now)
        .execute()
    },

    /** Lapsed holds to sweep; on PostgreSQL rows another node is sweeping are skipped, not waited for. */
    async lapsedHolds(trx: Db, now: string, limit: number): Promise<BookingRow[]> {
      const query = trx.selectFrom('bookings')
        .selectAll()
        .where('status', '=', 'held')
        .where('hold_expires_at', '<=', now)
        .orderBy('hold_expires_at')
        .limit(limit)
      return (supportsSkipLocked ? query.forUpdate().skipLocked() : query).execute()
    },

    /**
     * Seats per departure of one tour in [fromAt, toAt), with lapsed holds already left
     * out, read through the departure and booking indexes of that window only; and when the
     * next unlapsed hold in the window lapses, after which the seats differ without a write.
     */
    async seatsInWindow(instanceId: string, tourId: string, fromAt: string, toAt: string, now: string): Promise<WindowSeats> {
      const [departures, holds] = await Promise.all([
        db.selectFrom('departures')
          .select(['start_at', 'capacity', 'seats_taken', 'closed'])
          .where('instance_id', '=', instanceId)
          .where('tour_id', '=', tourId)
          .where('start_at', '>=', fromAt)
          .where('start_at', '<', toAt)
          .execute(),
        db.selectFrom('bookings')
          .select([
            'start_at',
            sql<number | string>`sum(case when hold_expires_at <= ${now} then party else 0 end)`.as('lapsed_seats'),
            sql<string | null>`min(case when hold_expires_at > ${now} then hold_expires_at end)`.as('next_lapse_at'),
          ])
          .where('instance_id', '=', instanceId)
          .where('tour_id', '=', tourId)
          .where('start_at', '>=', fromAt)
          .where('start_at', '<', toAt)
          .where('status', '=', 'held')
          .where('quarantined', '=', 0)
          .groupBy('start_at')
          .execute(),
      ])
      const byStart = new Map(departures.map((d) => [d.start_at, { ...d }]))
      let nextLapseAt: string | null = null
      for (const { start_at, lapsed_seats, next_lapse_at } of holds) {
        const departure = byStart.get(start_at)
        if (departure) departure.seats_taken -= Number(lapsed_seats)
        if (next_lapse_at !== null && (nextLapseAt === null || next_lapse_at < nextLapseAt)) nextLapseAt = next_lapse_at
      }
      return { byStart, nextLapseAt }
    },
  }
}
export type BookingRepository = ReturnType<typeof bookingRepository>
