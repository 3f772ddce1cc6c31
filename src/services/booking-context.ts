import type { Temporal } from 'temporal-polyfill'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'

/** What a guest's booking request brings to the booking service (src/services/bookings.ts) besides its body. */
export interface BookingContext {
  catalog: InstanceCatalog
  sessionId: string
  /** The booking a lookup made the session's booking, as the session was read for this request. */
  lookedUpBookingId: string | null
  now: Temporal.Instant
  /** The language the request is answered in (src/http/language.ts): a new hold is guided in it when its tour offers it. */
  language: string | null
}

/**
 * How a guest finds a booking (POST /booking/lookup): its code and contact email, or the
 * booking a manage token names (null for a token that names none: forged, or run out).
 */
export type BookingKey = { code: string, email: string } | { bookingId: string | null }

export interface CheckoutDetails {
  name: string
  email: string
  phone: string | null
}
