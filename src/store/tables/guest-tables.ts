import type { Generated } from 'kysely'
import type { BookingRecord } from '../../domain/booking.ts'

/** The guest side: sessions, departures, bookings and their history, promo uses, kept answers, forms. */
export interface GuestTables {
  server_secrets: { name: string, value: string }
  sessions: {
    instance_id: string
    id: string
    created_at: string
    expires_at: string
    /** The booking POST /booking/lookup made the session's booking; null while that is its own latest one. */
    looked_up_booking_id: string | null
  }
  departures: {
    instance_id: string
    tour_id: string
    start_at: string
    capacity: number
    seats_taken: number
    closed: Generated<number>
    /** Counts the operator's changes (capacity, closed, note, cancelled); not the seats. */
    version: Generated<number>
    note: Generated<string | null>
    cancelled: Generated<number>
    /** 1 for a departure added by hand, not from the schedule. */
    extra: Generated<number>
    /** 'tour' while the capacity follows the tour's default; 'operator' once an operator set it. */
    capacity_source: Generated<string>
    /** When the departure was checked at its minimum-to-run deadline (migration 018); null until then. */
    deadline_checked_at: Generated<string | null>
    /** When that check found it below the minimum (departure.at_risk); null otherwise. */
    at_risk_at: Generated<string | null>
  }
  /** A booking's fields are its domain record's (src/domain/booking.ts): a row read is a BookingRecord as it is. */
  bookings: BookingRecord
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
    /** Who sent the key: a guest session's id, staff:<id> or key:<id>. */
    caller: string
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
