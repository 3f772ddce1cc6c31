import type { Generated } from 'kysely'

/** Row shapes of every table. Instants are stored as fixed-width UTC text (see toStoredInstant). */
export interface Tables {
  server_secrets: { name: string, value: string }
  sessions: {
    instance_id: string
    id: string
    created_at: string
    expires_at: string
  }
  departures: {
    instance_id: string
    tour_id: string
    start_at: string
    capacity: number
    seats_taken: number
    closed: Generated<number>
  }
  bookings: {
    id: string
    instance_id: string
    session_id: string
    tour_id: string
    start_at: string
    end_at: string
    party: number
    status: string
    quarantined: number
    addons: string
    promo_code: string | null
    referral_code: string | null
    currency: string
    subtotal: number
    addons_total: number
    discount: number
    total: number
    hold_expires_at: string | null
    code: string | null
    contact_name: string | null
    contact_email: string | null
    contact_phone: string | null
    cancellable_until: string
    cancellation_fee_percent: number | null
    cancellation_fee: number | null
    cancelled_at: string | null
    created_at: string
    updated_at: string
  }
  booking_events: {
    id: string
    instance_id: string
    booking_id: string
    from_status: string | null
    to_status: string
    at: string
  }
  promo_redemptions: {
    instance_id: string
    code: string
    uses: number
  }
  idempotency_keys: {
    instance_id: string
    session_id: string
    key: string
    fingerprint: string
    status_code: number
    body: string
    created_at: string
    expires_at: string
  }
  contact_messages: {
    id: string
    instance_id: string
    session_id: string | null
    name: string | null
    email: string | null
    message: string
    promo_code: string | null
    referral_code: string | null
    spam: number
    received_at: string
  }
  /** Every sign-up as it arrived, spam included: the consent record. */
  newsletter_signups: {
    id: string
    instance_id: string
    email: string
    name: string | null
    session_id: string | null
    promo_code: string | null
    referral_code: string | null
    source: string
    spam: number
    consented_at: string
  }
  /** Addresses that are subscribed: real sign-ups only, one row per address. */
  newsletter_subscribers: {
    instance_id: string
    email: string
    name: string | null
    consented_at: string
    source: string
  }
}
