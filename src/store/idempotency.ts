import type { Db } from './database.ts'

export interface StoredResponse {
  fingerprint: string
  status_code: number
  body: string
}

export interface IdempotencyScope {
  instance_id: string
  session_id: string
  key: string
}

/** Thrown inside a transaction when another request already recorded the same key. */
export class IdempotencyKeyTaken extends Error {}

export function idempotencyRepository(db: Db) {
  return {
    async find(scope: IdempotencyScope, now: string, trx: Db = db): Promise<StoredResponse | undefined> {
      return trx.selectFrom('idempotency_keys')
        .select(['fingerprint', 'status_code', 'body'])
        .where('instance_id', '=', scope.instance_id)
        .where('session_id', '=', scope.session_id)
        .where('key', '=', scope.key)
        .where('expires_at', '>', now)
        .executeTakeFirst()
    },

    /** Records the response; throws IdempotencyKeyTaken when a live record already exists. */
    async record(scope: IdempotencyScope, response: StoredResponse, createdAt: string, expiresAt: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('idempotency_keys')
        .where('instance_id', '=', scope.instance_id)
        .where('session_id', '=', scope.session_id)
        .where('key', '=', scope.key)
        .where('expires_at', '<=', createdAt)
        .execute()
      const result = await trx.insertInto('idempotency_keys')
        .values({ ...scope, ...response, created_at: createdAt, expires_at: expiresAt })
        .onConflict((oc) => oc.columns(['instance_id', 'session_id', 'key']).doNothing())
        .executeTakeFirst()
      if (Number(result.numInsertedOrUpdatedRows ?? 0n) === 0) throw new IdempotencyKeyTaken()
    },

    async deleteExpired(now: string): Promise<number> {
      const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}
export type IdempotencyRepository = ReturnType<typeof idempotencyRepository>
