import type { BookingStatus } from '../schemas/booking-status.ts'
import type { BookingEventType } from '../schemas/event-type.ts'

/**
 * The event a status change reports (docs/events-and-webhooks.md, "Events"), null for the ones nobody hears
 * of: holds coming and going. `from` is null for a booking made in that status (staff bookings).
 * Undoing a check-in or a no-show puts a booking back to confirmed: a change, not a new confirmation.
 */
export function bookingEventOf(from: BookingStatus | null, to: BookingStatus): BookingEventType | null {
  switch (to) {
    case 'requested': return 'booking.requested'
    case 'confirmed': return from === 'completed' || from === 'no_show' ? 'booking.changed' : 'booking.confirmed'
    case 'declined': return 'booking.declined'
    case 'cancelled': return 'booking.cancelled'
    case 'completed': return 'booking.checked_in'
    case 'no_show': return 'booking.no_show'
    default: return null
  }
}
