import { formatStoredInZone } from '../domain/instant-format.ts'
import type { Actor, AuditRow } from '../store/audit.ts'

const fields = (json: string | null) => json === null ? null : JSON.parse(json) as Record<string, unknown>

/** An audit log row as the operator API shows it. */
export function auditEntryView(row: AuditRow, timeZone: string) {
  return {
    id: row.id,
    at: formatStoredInZone(row.at, timeZone),
    actor: { type: row.actor_type as Actor['type'], id: row.actor_id, name: row.actor_name },
    action: row.action,
    target: { type: row.target_type, id: row.target_id, ref: row.target_ref },
    before: fields(row.before),
    after: fields(row.after),
    request_id: row.request_id,
  }
}
