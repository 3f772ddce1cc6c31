import type { Database } from './database.ts'
import { statement } from './write-plan.ts'

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

    async deleteExpired(now: string): Promise<number> {
      const result = await db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}
export type SessionRepository = ReturnType<typeof sessionRepository>
