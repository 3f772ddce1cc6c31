import type { Database } from './database.ts'
import { statement, UNUSED, type Plan } from './write-plan.ts'

export interface LiveSessionRow {
  id: string
  expires_at: string
  looked_up_booking_id: string | null
}

export function sessionRepository({ db, read, dialect }: Database) {
  return {
    async create(row: { instance_id: string, id: string, created_at: string, expires_at: string }): Promise<void> {
      await db.insertInto('sessions').values(row).execute()
    },

    /** Read on nearly every request. */
    async findLive(instanceId: string, id: string, now: string): Promise<LiveSessionRow | undefined> {
      return read(function* () {
        const { rows } = yield* statement<LiveSessionRow>(
          'select id, expires_at, looked_up_booking_id from sessions where instance_id = ? and id = ? and expires_at > ?', [instanceId, id, now])
        return rows[0]
      })
    },

    /**
     * A step of a write plan: the session lasts until `expiresAt`, never less than it already
     * did (a clock set back must not shorten it). With `lookedUp`, its booking also becomes that
     * one (POST /booking/lookup), or with null its own latest again (a hold). On PostgreSQL the
     * plan has already locked the row, so this adds no wait.
     */
    *keepUntil(instanceId: string, id: string, expiresAt: string, lookedUp?: string | null): Plan<void> {
      if (lookedUp === undefined) {
        yield* statement('update sessions set expires_at = ? where instance_id = ? and id = ? and expires_at < ?', [expiresAt, instanceId, id, expiresAt], UNUSED)
        return
      }
      yield* statement('update sessions set expires_at = case when expires_at < ? then ? else expires_at end, looked_up_booking_id = ? where instance_id = ? and id = ?',
        [expiresAt, expiresAt, lookedUp, instanceId, id], UNUSED)
    },

    /**
     * A step of a write plan: the same lock as `bookings.lockSession` (queues the session's
     * writes on PostgreSQL), answering the booking a lookup made the session's, if any, as it
     * stands under the lock. `expected`, the booking the session named when the request read
     * it, is foreseen (write-plan.ts), so the plan reads on without waiting for the lock's answer.
     */
    *lockForBooking(instanceId: string, id: string, expected?: string | null): Plan<string | null> {
      if (dialect !== 'postgres') {
        const { rows } = yield* statement<{ looked_up_booking_id: string | null }>('select looked_up_booking_id from sessions where instance_id = ? and id = ?', [instanceId, id])
        return rows[0]?.looked_up_booking_id ?? null
      }
      const lock = 'select looked_up_booking_id from sessions where instance_id = ? and id = ? for update'
      const { rows } = yield* statement<{ looked_up_booking_id: string | null }>(lock, [instanceId, id], expected === undefined ? undefined : {
        outcome: { rows: [{ looked_up_booking_id: expected }], changes: 1 },
        sql: `select tourdesk_expect(count(*) = 1 and bool_and(looked_up_booking_id is not distinct from ?)) from (${lock}) locked`,
        params: [expected, instanceId, id],
      })
      return rows[0]?.looked_up_booking_id ?? null
    },

    /** Sessions past their expiry, including those that never held a booking and so lasted a day (the index on expires_at serves it). */
    async deleteExpired(now: string): Promise<number> {
      const result = await db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}
export type SessionRepository = ReturnType<typeof sessionRepository>
