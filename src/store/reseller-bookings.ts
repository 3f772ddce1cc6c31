import type { BookingRecord } from '../domain/booking.ts'
import type { Database } from './database.ts'
import { statement, type Plan } from './write-plan.ts'

/** What a reseller may look its bookings up by (GET /octo/…/bookings); each given filter must hold. */
export interface ResellerBookingFilter {
  resellerReference?: string
  supplierReference?: string
  /** Local departure dates as stored instants: start_at in [from, until). */
  startFrom?: string
  startUntil?: string
  tourId?: string
}

/** The bookings a reseller key made through the OCTo API (docs/resellers.md). */
export function resellerBookingRepository({ read, dialect }: Database) {
  return {
    /**
     * The key's booking with this uuid, read inside a plan; with `lock`, on PostgreSQL, locked
     * until the plan commits, as an operator's change locks it (operatorBookings.lock): the
     * session lock queues the reseller's own requests, not staff changing the same booking.
     */
    *byUuid(instanceId: string, keyId: string, uuid: string, lock = false): Plan<BookingRecord | undefined> {
      const forUpdate = lock && dialect === 'postgres' ? ' for update' : ''
      const { rows } = yield* statement<BookingRecord>(`select * from bookings where instance_id = ? and reseller_key_id = ? and reseller_uuid = ?${forUpdate}`,
        [instanceId, keyId, uuid])
      return rows[0]
    },

    async find(instanceId: string, keyId: string, uuid: string): Promise<BookingRecord | undefined> {
      const self = this
      return read(function* () { return yield* self.byUuid(instanceId, keyId, uuid) })
    },

    /** The key's bookings matching every filter, oldest first, at most `limit`. */
    async list(instanceId: string, keyId: string, filter: ResellerBookingFilter, limit: number): Promise<BookingRecord[]> {
      const where = ['instance_id = ?', 'reseller_key_id = ?']
      const params: unknown[] = [instanceId, keyId]
      if (filter.resellerReference !== undefined) { where.push('reseller_reference = ?'); params.push(filter.resellerReference) }
      if (filter.supplierReference !== undefined) { where.push('code = ?'); params.push(filter.supplierReference) }
      if (filter.startFrom !== undefined) { where.push('start_at >= ?'); params.push(filter.startFrom) }
      if (filter.startUntil !== undefined) { where.push('start_at < ?'); params.push(filter.startUntil) }
      if (filter.tourId !== undefined) { where.push('tour_id = ?'); params.push(filter.tourId) }
      return read(function* () {
        const { rows } = yield* statement<BookingRecord>(`select * from bookings where ${where.join(' and ')} order by created_at, id limit ?`, [...params, limit])
        return rows
      })
    },

    /** Renews a live hold: the new expiry, while it is still held and unexpired at `at`. */
    *extendHold(instanceId: string, id: string, expiresAt: string, at: string): Plan<BookingRecord | undefined> {
      const { rows } = yield* statement<BookingRecord>(`update bookings set hold_expires_at = ?, updated_at = ?, version = version + 1
        where instance_id = ? and id = ? and status = 'held' and hold_expires_at > ? returning *`, [expiresAt, at, instanceId, id, at])
      return rows[0]
    },
  }
}
