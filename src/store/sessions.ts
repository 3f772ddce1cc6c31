import type { Db } from './database.ts'

export function sessionRepository(db: Db) {
  return {
    async create(row: { instance_id: string, id: string, created_at: string, expires_at: string }): Promise<void> {
      await db.insertInto('sessions').values(row).execute()
    },

    async findLive(instanceId: string, id: string, now: string): Promise<{ id: string, expires_at: string } | undefined> {
      return db.selectFrom('sessions')
        .select(['id', 'expires_at'])
        .where('instance_id', '=', instanceId)
        .where('id', '=', id)
        .where('expires_at', '>', now)
        .executeTakeFirst()
    },

    async deleteExpired(now: string): Promise<number> {
      const result = await db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}
export type SessionRepository = ReturnType<typeof sessionRepository>
