import { formatStoredInZone } from '../domain/instant-format.ts'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import type { EventRow } from '../store/events.ts'
import { operatorBookingView } from './booking-view.ts'
import { NO_RESELLER_NAMES } from './reseller-view.ts'
import type { BookingRecord } from '../domain/booking.ts'
import { IMPLICIT_UNIT_ID } from '../domain/units.ts'

/**
 * A booking row as its event kept it. Events written before migration 025
 * (src/store/migrations/price-categories.ts) kept rows without seats and units; they read as
 * the migration made their bookings: the party, on as many seats, of the implicit person unit.
 */
function storedBooking(stored: Record<string, unknown>): BookingRecord {
  const row = stored as unknown as BookingRecord
  if (typeof row.units === 'string') return row
  const person = { id: IMPLICIT_UNIT_ID, type: 'adult', name: 'Person', quantity: row.party, amount: row.subtotal }
  return { ...row, seats: row.party, units: JSON.stringify([person]) }
}

/** An event as the feed and webhooks give it: a booking's stored row is shown as the operator's record of it. */
export function eventView(row: EventRow, catalog: InstanceCatalog) {
  const stored = JSON.parse(row.data) as Record<string, unknown>
  const { prefix, ref, timezone } = catalog.instance
  return {
    id: row.id,
    type: row.type,
    occurred_at: formatStoredInZone(row.occurred_at, timezone),
    instance: { prefix, ref },
    data: row.subject_type === 'booking' ? { ...operatorBookingView(storedBooking(stored), catalog, NO_RESELLER_NAMES) } : stored,
  }
}
