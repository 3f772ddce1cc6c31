/** What leaves the system: events, job leases, webhooks, emails. */
export interface OutboxTables {
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
  /** One row per attempt of a delivery (the delivery keeps only the last status). */
  webhook_attempts: {
    instance_id: string
    delivery_id: string
    /** 1 for the first attempt. */
    attempt: number
    endpoint_id: string
    /** When the attempt started. */
    at: string
    duration_ms: number
    /** The receiver's HTTP status; null when there was no answer. */
    status: number | null
    /** Why it is not a success; null for a 2xx. */
    error: string | null
    /** The first 1 KiB of the receiver's answer, as text. */
    answer: string | null
  }
  emails: {
    instance_id: string
    id: string
    /** What the message is (src/notify/email-messages.ts for the guest's, src/notify/operator-messages.ts for staff's). */
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
