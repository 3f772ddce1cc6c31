import type { Database } from './database.ts'
import { statement, type Plan } from './write-plan.ts'

export function sessionRepository({ db, read }: Database) {
  return {
    async create(row: { instance_id: string, id: string, created_at: string, expires_at: string }): Promise<void> {
      await db.insertInto('sessions').values(row).execute()
    },

    /** Read on nearly every request. */
    async findLive(instanceId: string, id: string, now: string): Promise<{ id: string, expires_at: string } | undefined> {
      return read(function* () {
        const { rows } = yield* statement<{ id: string, expires_at: string }>(
          'select id, expires_at from sessions where instance_id = ? and id = ? and expires_at > ?', [instanceId, id, now])
        return rows[0]
      })
    },

    /**
     * A step of a write plan: the session lasts until `expiresAt`, never less than it already
     * did (a clock set back must not shorten it). On PostgreSQL the hold plan has already
     * locked the row, so this adds no wait.
     */
    *keepUntil(instanceId: string, id: string, expiresAt: string): Plan<void> {
      yield* statement('update sessions set expires_at = ? where instance_id = ? and id = ? and expires_at < ?', [expiresAt, instanceId, id, expiresAt])
    },

    /** Sessions past their expiry, including those that never held a booking and so lasted a day (the index on expires_at serves it). */
    async deleteExpired(now: string): Promise<number> {
      const result = await db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}
export type SessionRepository = ReturnType<typeof sessionRepository>
