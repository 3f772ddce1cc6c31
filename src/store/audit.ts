import type { Selectable } from 'kysely'
import type { Actor } from '../schemas/admin/booking.ts'
import type { Database } from './database.ts'
import { newRowId } from './row-id.ts'
import type { Tables } from './tables.ts'
import { statement, type Plan } from './write-plan.ts'

export type AuditRow = Selectable<Tables['audit_log']>

/** Who made a change, as the operator API's records name them. */
export type { Actor }

export interface AuditEntry {
  instanceId: string
  at: string
  actor: Actor
  action: string
  /** `ref` names the target as people know it (a booking's code, a departure's tour and time, a staff email, a key's name). */
  target: { type: string, id: string, ref?: string | null }
  before?: Record<string, unknown> | null
  after?: Record<string, unknown> | null
  requestId?: string | null
}

export interface AuditFilter {
  from?: string
  to?: string
  actor?: string
  action?: string
  /** Entries about this one target (a booking's, given by its code or id). */
  target?: { type: string, id: string }
  /** Entries older than this (at, id) pair: the cursor of the page before. */
  before?: { at: string, id: string }
  limit: number
}

/** The operator's audit trail: every change made through the operator API or the CLI, written in the change's own transaction. */
export function auditRepository({ db }: Database) {
  return {
    *record(entry: AuditEntry): Plan<void> {
      yield* statement(
        `insert into audit_log (instance_id, id, at, actor_type, actor_id, actor_name, action, target_type, target_id, target_ref, before, after, request_id)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [entry.instanceId, newRowId(), entry.at, entry.actor.type, entry.actor.id, entry.actor.name, entry.action, entry.target.type, entry.target.id, entry.target.ref ?? null,
          entry.before ? JSON.stringify(entry.before) : null, entry.after ? JSON.stringify(entry.after) : null, entry.requestId ?? null],
      )
    },

    /** Newest first. */
    async list(instanceId: string, filter: AuditFilter): Promise<AuditRow[]> {
      let query = db.selectFrom('audit_log').selectAll().where('instance_id', '=', instanceId)
      if (filter.from) query = query.where('at', '>=', filter.from)
      if (filter.to) query = query.where('at', '<', filter.to)
      if (filter.actor) query = query.where((eb) => eb.or([eb('actor_id', '=', filter.actor!), eb('actor_type', '=', filter.actor!)]))
      if (filter.action) query = query.where('action', '=', filter.action)
      if (filter.target) query = query.where('target_type', '=', filter.target.type).where('target_id', '=', filter.target.id)
      if (filter.before) {
        const { at, id } = filter.before
        query = query.where((eb) => eb.or([eb('at', '<', at), eb.and([eb('at', '=', at), eb('id', '<', id)])]))
      }
      return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute()
    },
  }
}
export type AuditRepository = ReturnType<typeof auditRepository>
