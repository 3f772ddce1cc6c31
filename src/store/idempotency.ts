import type { Db } from './database.ts'
import { changingExactly, statement, type Plan } from './write-plan.ts'

export interface StoredResponse {
  fingerprint: string
  status_code: number
  body: string
}

export interface IdempotencyScope {
  instance_id: string
  /** A guest session's id, staff:<id> or key:<id>. */
  caller: string
  key: string
}

/** Thrown inside a transaction when another request already recorded the same key. */
export class IdempotencyKeyTaken extends Error {}

const RECORD_ANSWER = `insert into idempotency_keys (instance_id, caller, key, fingerprint, status_code, body, created_at, expires_at)
  values (?, ?, ?, ?, ?, ?, ?, ?)
  on conflict (instance_id, caller, key) do update set fingerprint = excluded.fingerprint, status_code = excluded.status_code,
    body = excluded.body, created_at = excluded.created_at, expires_at = excluded.expires_at
  where idempotency_keys.expires_at <= excluded.created_at`
const RECORD_ANSWER_CHECKED = changingExactly(`${RECORD_ANSWER} returning 1`, 1)

export function idempotencyRepository(db: Db) {
  return {
    async find(scope: IdempotencyScope, now: string): Promise<StoredResponse | undefined> {
      return db.selectFrom('idempotency_keys')
        .select(['fingerprint', 'status_code', 'body'])
        .where('instance_id', '=', scope.instance_id)
        .where('caller', '=', scope.caller)
        .where('key', '=', scope.key)
        .where('expires_at', '>', now)
        .executeTakeFirst()
    },

    /**
     * Records the response, replacing a record of the same key only once it has expired;
     * throws IdempotencyKeyTaken when a live record already exists (which rolls back the
     * plan it is part of: the change and its answer commit together or not at all).
     */
    *record(scope: IdempotencyScope, response: StoredResponse, createdAt: string, expiresAt: string): Plan<void> {
      const { changes } = yield* statement(RECORD_ANSWER,
        [scope.instance_id, scope.caller, scope.key, response.fingerprint, response.status_code, response.body, createdAt, expiresAt],
        // Foreseen kept (PostgreSQL): a live record of the key is the rare case, found when the plan runs again.
        { outcome: { rows: [], changes: 1 }, sql: RECORD_ANSWER_CHECKED })
      if (changes === 0) throw new IdempotencyKeyTaken()
    },

    async deleteExpired(now: string): Promise<number> {
      const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}
export type IdempotencyRepository = ReturnType<typeof idempotencyRepository>
