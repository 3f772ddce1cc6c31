import { Type } from 'typebox'
import { Instant, Nullable } from '../common.ts'
import { named } from '../named.ts'
import { PageQuery } from './page.ts'

export const EMAIL_KINDS = [
  'request_received', 'booking_confirmed', 'confirmation_resent', 'booking_declined', 'booking_cancelled', 'booking_changed', 'departure_cancelled', 'reminder', 'newsletter_confirmation',
  'new_request', 'new_booking', 'guest_cancelled', 'contact_message', 'departure_at_risk', 'webhook_failing', 'webhook_disabled',
] as const

export const EmailQuery = Type.Object({
  to: Type.Optional(Type.String({ minLength: 3, maxLength: 254, description: 'Only messages to this address (case-insensitive)' })),
  booking: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only messages about this booking (its code or id)' })),
  ...PageQuery,
}, { additionalProperties: false })

export const Email = named('Email', Type.Object({
  id: Type.String({ description: 'eml_…; also the Message-ID of what was sent' }),
  kind: Type.Enum(EMAIL_KINDS, { description: 'confirmation_resent: a copy of booking_confirmed that staff sent again (POST /bookings/{code}/resend-confirmation)' }),
  to: Type.String(),
  booking_id: Nullable(Type.String()),
  subject: Type.String(),
  text: Type.String({ description: 'The plain-text body; the HTML body says the same' }),
  has_calendar: Type.Boolean({ description: 'An .ics calendar event is attached (UID stable per booking, SEQUENCE its version)' }),
  state: Type.Union([Type.Literal('queued'), Type.Literal('sent'), Type.Literal('failed'), Type.Literal('not_sent')]),
  state_reason: Nullable(Type.String({ description: 'not_sent: no_smtp (SMTP_URL is unset) or recipient_cap (emails_per_recipient_per_hour reached); failed or queued after a failure: the mail server\'s answer' })),
  attempts: Type.Integer(),
  created_at: Instant,
  sent_at: Nullable(Instant),
}))

export const EmailList = named('EmailList', Type.Object({
  emails: Type.Array(Email),
  next_cursor: Nullable(Type.String({ description: 'Pass as cursor for the next (older) page; null on the last' })),
}))
