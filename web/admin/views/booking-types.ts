/** The operator API's booking records as the Bookings view reads them (src/schemas/admin/booking.ts, booking-email.ts). */
import type { Addon } from '../types.ts'

export type BookingStatus = 'held' | 'released' | 'expired' | 'requested' | 'confirmed' | 'declined' | 'cancelled' | 'completed' | 'no_show'

export interface Actor { type: 'staff' | 'key' | 'system' | 'guest', id: string | null, name: string | null }

export interface BookingRecord {
  id: string
  code: string | null
  status: BookingStatus
  tour: { id: string, title: string }
  start: string
  end: string
  party: number
  addons: Addon[]
  promo_code: string | null
  price: { currency: string, subtotal: number, addons: number, discount: number, total: number, due_on_arrival: number }
  contact: { name: string, email: string, phone: string | null } | null
  cancellable_until: string
  created_at: string
  channel: 'web' | 'staff' | 'octo'
  quarantined: boolean
  checked_in_at: string | null
  internal_note: string | null
  policy: { id: string, version: number } | null
  cancellation: { at: string, by: 'guest' | 'operator', reason: string | null, fee_percent: number, fee: number, fee_waived: boolean } | null
  decline_reason: string | null
  no_show: { fee_percent: number, fee: number } | null
  version: number
  /** What cancelling under the policy would cost now, when the record carries it. */
  cancellation_now?: { allowed: boolean, fee_percent: number | null, fee: number | null }
}

export interface BookingDetail extends BookingRecord {
  history: Array<{ at: string, from: BookingStatus | null, to: BookingStatus, actor: Actor }>
}

export interface BookingEmail {
  id: string
  kind: string
  to: string
  subject: string
  has_calendar: boolean
  state: 'queued' | 'sent' | 'failed' | 'not_sent'
  state_reason: string | null
  created_at: string
  sent_at: string | null
}

/** A tour as the guest API lists it: what a staff booking needs to offer (party range, add-ons, price). */
export interface TourInfo {
  id: string
  title: string
  price: { amount: number, currency: string }
  party: { min: number, max: number }
  capacity: number
  confirmation: 'instant' | 'on_request'
  addons: Array<{ id: string, name: string, price: { amount: number }, per: 'booking' | 'person', max_quantity: number }>
}

/** The current cancellation policy (guest GET /policies). */
export interface CancellationPolicy {
  id: string
  version: number
  tiers: Array<{ hours_before_start: number, fee_percent: number }>
}
