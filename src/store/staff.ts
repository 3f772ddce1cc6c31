import type { Selectable } from 'kysely'
import type { Database } from './database.ts'
import type { Tables } from './tables.ts'
import { compiled, statement, type Plan } from './write-plan.ts'

export type StaffRow = Selectable<Tables['staff']>
export type ApiKeyRow = Selectable<Tables['api_keys']>
export type StaffSessionRow = Selectable<Tables['staff_sessions']>

/** Staff accounts, their sessions and setup links, sign-in attempt counts and API keys. */
export function staffRepository({ db, dialect, read }: Database) {
  return {
    async findByEmail(instanceId: string, email: string): Promise<StaffRow | undefined> {
      return db.selectFrom('staff').selectAll().where('instance_id', '=', instanceId).where('email', '=', email.trim().toLowerCase()).executeTakeFirst()
    },

    async findById(instanceId: string, id: string): Promise<StaffRow | undefined> {
      return db.selectFrom('staff').selectAll().where('instance_id', '=', instanceId).where('id', '=', id).executeTakeFirst()
    },

    async list(instanceId: string): Promise<StaffRow[]> {
      return db.selectFrom('staff').selectAll().where('instance_id', '=', instanceId).orderBy('created_at').orderBy('id').execute()
    },

    /** Instances (by ref) that have at least one active manager. */
    async instancesWithManager(): Promise<Set<string>> {
      const rows = await db.selectFrom('staff').select('instance_id').where('role', '=', 'manager').where('disabled', '=', 0)
        .where('password_hash', 'is not', null).distinct().execute()
      return new Set(rows.map((r) => r.instance_id))
    },

    *insert(row: StaffRow): Plan<void> {
      yield* compiled(db.insertInto('staff').values(row))
    },

    *update(instanceId: string, id: string, changes: Partial<Pick<StaffRow, 'role' | 'disabled' | 'password_hash' | 'name' | 'updated_at'>>): Plan<StaffRow | undefined> {
      const { rows } = yield* compiled<StaffRow>(db.updateTable('staff').set(changes).where('instance_id', '=', instanceId).where('id', '=', id).returningAll())
      return rows[0]
    },

    /** Managers other than `exceptId` who can sign in (set up, not disabled), read in the plan that would remove one (so two removals cannot both pass). */
    *otherActiveManagers(instanceId: string, exceptId: string): Plan<number> {
      const { rows } = yield* statement<{ n: number | string }>(
        `select count(*) as n from staff where instance_id = ? and id <> ? and role = 'manager' and disabled = 0 and password_hash is not null`, [instanceId, exceptId])
      return Number(rows[0].n)
    },

    *lockStaffTable(instanceId: string): Plan<void> {
      // PostgreSQL: managers are counted and changed under one lock per instance, so two
      // requests cannot each remove "the other" last manager. SQLite writes one at a time already.
      if (dialect === 'postgres') yield* statement(`select id from staff where instance_id = ? and role = 'manager' order by id for update`, [instanceId])
    },

    *insertSetupToken(row: Selectable<Tables['staff_setup_tokens']>): Plan<void> {
      yield* compiled(db.insertInto('staff_setup_tokens').values(row))
    },

    /** Spends every unused setup token of an account, so that only the link issued next works. */
    *retireSetupTokens(instanceId: string, staffId: string, now: string): Plan<void> {
      yield* statement('update staff_setup_tokens set used_at = ? where instance_id = ? and staff_id = ? and used_at is null', [now, instanceId, staffId])
    },

    /** Marks a live setup token used and answers whose it was; undefined when unknown, used or expired. */
    *useSetupToken(instanceId: string, tokenHash: string, now: string): Plan<string | undefined> {
      const { rows } = yield* compiled<{ staff_id: string }>(db.updateTable('staff_setup_tokens').set({ used_at: now })
        .where('instance_id', '=', instanceId).where('token_hash', '=', tokenHash).where('used_at', 'is', null).where('expires_at', '>', now)
        .returning('staff_id'))
      return rows[0]?.staff_id
    },

    /**
     * Counts a sign-in attempt before its password is checked, in one conditional upsert:
     * a window older than `windowStart` starts again at 1; otherwise the count goes up
     * unless it has reached `limit`, and the attempt that reaches it starts the lock. Under
     * PostgreSQL's READ COMMITTED the upsert's WHERE is evaluated on the row as the last
     * writer left it (the row is locked meanwhile), like the seat counter, so concurrent
     * attempts are counted one by one. Answers the lock's start when the attempt was refused.
     */
    *countSignInAttempt(instanceId: string, email: string, now: string, windowStart: string, limit: number): Plan<{ lockedSince: string | null }> {
      const { rows } = yield* statement<{ failures: number }>(
        `insert into sign_in_counts (instance_id, email, failures, window_started_at) values (?, ?, 1, ?)
         on conflict (instance_id, email) do update set
           failures = case when sign_in_counts.window_started_at <= ? then 1 else sign_in_counts.failures + 1 end,
           window_started_at = case when sign_in_counts.window_started_at <= ? or sign_in_counts.failures + 1 >= ? then ? else sign_in_counts.window_started_at end
         where sign_in_counts.failures < ? or sign_in_counts.window_started_at <= ?
         returning failures`,
        [instanceId, email, now, windowStart, windowStart, limit, now, limit, windowStart])
      if (rows.length > 0) return { lockedSince: null }
      const { rows: [locked] } = yield* statement<{ window_started_at: string }>(
        'select window_started_at from sign_in_counts where instance_id = ? and email = ?', [instanceId, email])
      return { lockedSince: locked.window_started_at }
    },

    /** A right password forgets the attempts counted for its email. */
    *clearSignInAttempts(instanceId: string, email: string): Plan<void> {
      yield* statement('delete from sign_in_counts where instance_id = ? and email = ?', [instanceId, email])
    },

    *insertSession(row: StaffSessionRow): Plan<void> {
      yield* compiled(db.insertInto('staff_sessions').values(row))
    },

    /** The live session and its account, read on every staff request. */
    async findSession(instanceId: string, id: string, now: string): Promise<{ session: StaffSessionRow, staff: StaffRow } | undefined> {
      return read(function* () {
        const { rows } = yield* statement<StaffSessionRow & { s_email: string, s_name: string, s_role: string, s_disabled: number }>(
          `select ss.*, s.email as s_email, s.name as s_name, s.role as s_role, s.disabled as s_disabled
           from staff_sessions ss join staff s on s.instance_id = ss.instance_id and s.id = ss.staff_id
           where ss.instance_id = ? and ss.id = ? and ss.expires_at > ?`, [instanceId, id, now])
        const row = rows[0]
        if (!row) return undefined
        const { s_email, s_name, s_role, s_disabled, ...session } = row
        return {
          session,
          staff: { instance_id: instanceId, id: session.staff_id, email: s_email, name: s_name, role: s_role, disabled: s_disabled, password_hash: null, created_at: '', updated_at: '' },
        }
      })
    },

    *touchSession(instanceId: string, id: string, now: string): Plan<void> {
      yield* statement('update staff_sessions set last_seen_at = ? where instance_id = ? and id = ?', [now, instanceId, id])
    },

    *deleteSession(instanceId: string, id: string): Plan<void> {
      yield* statement('delete from staff_sessions where instance_id = ? and id = ?', [instanceId, id])
    },

    *deleteSessionsOf(instanceId: string, staffId: string): Plan<void> {
      yield* statement('delete from staff_sessions where instance_id = ? and staff_id = ?', [instanceId, staffId])
    },

    async deleteExpired(now: string, idleBefore: string, failuresBefore: string): Promise<number> {
      const sessions = await db.deleteFrom('staff_sessions').where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', idleBefore)])).executeTakeFirst()
      const failures = await db.deleteFrom('sign_in_counts').where('window_started_at', '<=', failuresBefore).executeTakeFirst()
      const tokens = await db.deleteFrom('staff_setup_tokens').where('expires_at', '<=', now).executeTakeFirst()
      return Number(sessions.numDeletedRows) + Number(failures.numDeletedRows) + Number(tokens.numDeletedRows)
    },

    async findKey(instanceId: string, secretHash: string): Promise<ApiKeyRow | undefined> {
      return read(function* () {
        const { rows } = yield* statement<ApiKeyRow>('select * from api_keys where instance_id = ? and secret_hash = ?', [instanceId, secretHash])
        return rows[0]
      })
    },

    async findKeyById(instanceId: string, id: string): Promise<ApiKeyRow | undefined> {
      return db.selectFrom('api_keys').selectAll().where('instance_id', '=', instanceId).where('id', '=', id).executeTakeFirst()
    },

    async listKeys(instanceId: string): Promise<ApiKeyRow[]> {
      return db.selectFrom('api_keys').selectAll().where('instance_id', '=', instanceId).orderBy('created_at').orderBy('id').execute()
    },

    *insertKey(row: ApiKeyRow): Plan<void> {
      yield* compiled(db.insertInto('api_keys').values(row))
    },

    *revokeKey(instanceId: string, id: string, now: string): Plan<ApiKeyRow | undefined> {
      const { rows } = yield* compiled<ApiKeyRow>(db.updateTable('api_keys').set({ revoked_at: now })
        .where('instance_id', '=', instanceId).where('id', '=', id).where('revoked_at', 'is', null).returningAll())
      return rows[0]
    },

    *touchKey(instanceId: string, id: string, now: string): Plan<void> {
      yield* statement('update api_keys set last_used_at = ? where instance_id = ? and id = ?', [now, instanceId, id])
    },
  }
}
export type StaffRepository = ReturnType<typeof staffRepository>
