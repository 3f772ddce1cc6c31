import { Type } from 'typebox'
import { BookingFields } from '../booking.ts'
import { Instant, Nullable } from '../common.ts'
import { named } from '../named.ts'
import { Email } from './staff.ts'

export const PrivacyQuery = Type.Object({
  email: Type.String({ ...Email, description: 'The address the request is about, matched without regard to case' }),
}, { additionalProperties: false })

const Text = Nullable(Type.String())

export const PersonalData = named('PersonalData', Type.Object({
  email: Type.String(),
  contact_messages: Type.Array(Type.Object({
    id: Type.String(), received_at: Instant, name: Text, email: Text, message: Type.String(), promo_code: Text, referral_code: Text,
    spam: Type.Boolean({ description: 'Quarantined as spam (a decoy field was filled)' }),
  })),
  newsletter_signups: Type.Array(Type.Object({
    id: Type.String(), consented_at: Instant, email: Type.String(), name: Text, source: Type.String(), promo_code: Text, referral_code: Text, spam: Type.Boolean(),
  }, { description: 'Every sign-up as it arrived: the consent record' })),
  newsletter_subscriptions: Type.Array(Type.Object({ email: Type.String(), name: Text, consented_at: Instant, source: Type.String() })),
  bookings: Type.Array(Type.Object({
    ...BookingFields.properties,
    channel: Type.String(),
    internal_note: Text,
  }, { description: "The guest's booking record with the operator's note about it" })),
  stored_answers: Type.Array(Type.Object({
    key: Type.String(), created_at: Instant, expires_at: Instant, status_code: Type.Integer(),
    body: Type.Unknown({ description: 'The answer kept for an Idempotency-Key retry; it repeats the contact details' }),
  })),
  emails: Type.Array(Type.Object({
    id: Type.String(), kind: Type.String(), booking_id: Text, subject: Type.String(), text: Type.String({ description: 'The plain-text body' }),
    state: Type.String(), created_at: Instant, sent_at: Nullable(Instant),
  }, { description: 'Every email kept in the log to the address (see GET /emails)' })),
}))

export const ErasureAnswer = named('ErasureAnswer', Type.Object({
  contact_messages: Type.Integer({ description: 'Contact messages deleted' }),
  newsletter_signups: Type.Integer({ description: 'Sign-ups (consent records) deleted' }),
  newsletter_subscriptions: Type.Integer({ description: 'Subscriptions ended and deleted' }),
  bookings_anonymised: Type.Integer({ description: 'Bookings that lost their contact (name and email become "erased", the phone null) and their notes (internal_note, reseller notes: null); their seats stay' }),
  stored_answers: Type.Integer({ description: "Kept Idempotency-Key answers deleted: those of the guest's sessions and any other that repeats the address (a booking staff made)" }),
  emails: Type.Integer({ description: 'Emails to the address deleted from the email log (their bodies repeat the contact details)' }),
  operator_emails: Type.Integer({ description: "Emails to others deleted from the email log: the operator's alerts about the person's messages and bookings, copies to a booking's earlier address" }),
  events_scrubbed: Type.Integer({
    description: 'Events of the feed that named the person, erased in place (they keep their number): the feed, a stream resumed from an older '
      + 'Last-Event-ID, webhook retries and POST /webhooks/{id}/replay send them erased from now on. What a receiver already got is beyond reach.',
  }),
  audit_entries_scrubbed: Type.Integer({ description: "Audit entries whose before or after held the person's contact details or address, or a note about one of their bookings, erased in place" }),
}))
