import { formatStoredInZone } from '../domain/instant-format.ts'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import type { EventRow } from '../store/events.ts'
import { operatorBookingView } from './booking-view.ts'
import type { BookingRecord } from '../domain/booking.ts'

/** An event as the feed and webhooks give it: a booking's stored row is shown as the operator's record of it. */
export function eventView(row: EventRow, catalog: InstanceCatalog) {
  const stored = JSON.parse(row.data) as Record<string, unknown>
  const { prefix, ref, timezone } = catalog.instance
  return {
    id: row.id,
    type: row.type,
    occurred_at: formatStoredInZone(row.occurred_at, timezone),
    instance: { prefix, ref },
    data: row.subject_type === 'booking' ? { ...operatorBookingView(stored as unknown as BookingRecord, catalog) } : stored,
  }
}
