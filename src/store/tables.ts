import type { Generated } from 'kysely'

/** Row shapes of every table. Instants are stored as fixed-width UTC text (see toStoredInstant). */
export interface Tables {
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
    /** Grows with every change. */
    version: number
    channel: string
    /** JSON of the cancellation policy the booking was made under ({id, version, tiers, no_show_fee_percent}); null before migration 008. */
    policy: string | null
    checked_in_at: string | null
    internal_note: string | null
    decline_reason: string | null
    cancelled_by: string | null
    cancellation_reason: string | null
    fee_waived: number | null
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
  staff: {
    instance_id: string
    id: string
    email: string
    name: string
    role: string
    password_hash: string | null
    disabled: number
    created_at: string
    updated_at: string
  }
  staff_sessions: {
    instance_id: string
    id: string
    staff_id: string
    created_at: string
    last_seen_at: string
    expires_at: string
  }
  staff_setup_tokens: {
    instance_id: string
    token_hash: string
    staff_id: string
    expires_at: string
    used_at: string | null
  }
  sign_in_counts: {
    instance_id: string
    email: string
    /** Attempts counted since window_started_at, the right one not yet known among them. */
    failures: number
    /** The first counted attempt of the window; once `failures` reaches the limit, the moment it did (the lock's start). */
    window_started_at: string
  }
  api_keys: {
    instance_id: string
    id: string
    name: string
    role: string
    prefix: string
    secret_hash: string
    created_at: string
    last_used_at: string | null
    revoked_at: string | null
  }
  audit_log: {
    instance_id: string
    id: string
    at: string
    actor_type: string
    actor_id: string | null
    actor_name: string | null
    action: string
    target_type: string
    target_id: string
    /** The target as people know it (migration 022); null in entries written before. */
    target_ref: string | null
    /** JSON of the changed fields before and after. */
    before: string | null
    after: string | null
    request_id: string | null
  }
  catalog_instances: {
    instance_id: string
    prefix: string
    name: string
    timezone: string
    currency: string
    /** JSON: the file's other instance fields. */
    settings: string
    policy_id: string
    policy_version: number
    catalog_version: number
    updated_at: string
    /** The catalog version of the last edit that deleted a tour (0: none since migration 020). */
    tours_removed_version: Generated<number>
  }
  catalog_tours: {
    instance_id: string
    id: string
    position: number
    title: string
    summary: string
    description: string
    duration_minutes: number
    meeting_point: string
    languages: string
    tags: string
    price: number
    party_min: number
    party_max: number
    capacity: number
    cutoff_minutes: number
    confirmation: string
    blackouts: string
    archived: number
    /** The catalog version that last wrote the tour: a node reloads only the tours written after its version. */
    updated_version: Generated<number>
    min_participants: number | null
    min_participants_deadline_hours: number | null
  }
  catalog_schedule_rules: {
    instance_id: string
    tour_id: string
    position: number
    valid_from: string
    valid_until: string
    weekdays: string
    times: string
  }
  catalog_addons: {
    instance_id: string
    tour_id: string
    id: string
    position: number
    name: string
    description: string
    price: number
    per: string
    max_quantity: number
  }
  catalog_promo_codes: {
    instance_id: string
    code: string
    position: number
    kind: string
    value: number
    valid_from: string
    valid_until: string
    tour_ids: string | null
    max_uses: number | null
  }
  catalog_policies: {
    instance_id: string
    id: string
    version: number
    summary: string
    tiers: string
    no_show_fee_percent: number
    created_at: string
  }
  event_sequences: {
    instance_id: string
    last_seq: number
  }
  events: {
    instance_id: string
    seq: number
    id: string
    type: string
    occurred_at: string
    subject_type: string
    subject_id: string
    /** JSON: the booking row as the change left it, or the subject's record. */
    data: string
    /** JSON: what the change means for the emails it makes (src/notify/email-projection.ts); never shown. */
    notice: string | null
  }
  job_leases: {
    instance_id: string
    name: string
    holder: string
    expires_at: string
  }
  webhook_endpoints: {
    instance_id: string
    id: string
    url: string
    description: string | null
    /** whsec_…; the one that signs. */
    secret: string
    /** The secret before the last rotation, which also signs until previous_secret_until. */
    previous_secret: string | null
    previous_secret_until: string | null
    /** Set when the receiver answered 410 or failed for 5 days; nothing is sent while set. */
    disabled_at: string | null
    disabled_reason: string | null
    /** The first failure since the last success; null while deliveries succeed. */
    failing_since: string | null
    created_at: string
    updated_at: string
    version: number
  }
  webhook_subscriptions: {
    instance_id: string
    endpoint_id: string
    event_type: string
  }
  webhook_deliveries: {
    instance_id: string
    id: string
    endpoint_id: string
    event_id: string
    event_seq: number
    /** pending, delivered or failed. */
    status: string
    attempts: number
    next_attempt_at: string
    /** While set and in the future, a node is making the attempt; another node takes it once it lapses. */
    lease_until: string | null
    /** The receiver's HTTP status at the last attempt; null when there was no answer. */
    last_status: number | null
    last_error: string | null
    created_at: string
    delivered_at: string | null
  }
  emails: {
    instance_id: string
    id: string
    /** What the message is (src/notify/email-messages.ts). */
    kind: string
    recipient: string
    booking_id: string | null
    dedupe_key: string | null
    subject: string
    text_body: string
    html_body: string
    /** The .ics attached, when the message carries the booking's calendar event. */
    calendar: string | null
    /** queued, sent, failed or not_sent. */
    state: string
    /** Why a message is not_sent or failed: no_smtp, recipient_cap or the server's answer. */
    state_reason: string | null
    attempts: number
    next_attempt_at: string
    lease_until: string | null
    created_at: string
    sent_at: string | null
  }
  email_cursors: {
    instance_id: string
    /** The last event made into messages. */
    last_seq: number
  }
  email_action_links: {
    instance_id: string
    /** SHA-256 of the token in the link: the database never holds a usable link. */
    token_hash: string
    booking_id: string
    /** confirm or decline. */
    action: string
    recipient: string
    expires_at: string
    used_at: string | null
  }
}
