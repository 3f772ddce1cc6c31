import type { AuditFilter, AuditRow } from '../store/audit.ts'
import type { Store } from '../store/store.ts'

/** What the audit log is asked for: the store's filter, with a booking named by its code or id instead of a target. */
export type AuditLogQuery = Omit<AuditFilter, 'target'> & { booking?: string }

/** The operator's audit log, as GET /audit reads it (src/admin/routes/audit.ts). */
export function auditLog(store: Store) {
  return {
    /** Entries matching `query`, newest first; a booking no entry can be about (an unknown code or id) lists none. */
    async list(instanceRef: string, { booking, ...filter }: AuditLogQuery): Promise<AuditRow[]> {
      // An unknown booking lists nothing, as an id no entry has.
      const bookingId = booking === undefined ? undefined : (await store.operatorBookings.find(instanceRef, booking.trim()))?.id ?? ''
      return store.audit.list(instanceRef, { ...filter, target: bookingId === undefined ? undefined : { type: 'booking', id: bookingId } })
    },
  }
}
export type AuditLog = ReturnType<typeof auditLog>
