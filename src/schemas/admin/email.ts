import { Type } from 'typebox'
import { Instant, Nullable } from '../common.ts'
import { named } from '../named.ts'
import { PageQuery } from './page.ts'

export const EMAIL_KINDS = [
  'request_received', 'booking_confirmed', 'confirmation_resent', 'booking_declined', 'booking_cancelled', 'booking_changed', 'departure_cancelled', 'reminder', 'newsletter_confirmation',
  'new_request', 'new_booking', 'guest_cancelled', 'contact_message', 'departure_at_risk', 'webhook_failing', 'webhook_disabled', 'password_reset',
] as const
export type EmailKind = typeof EMAIL_KINDS[number]

/**
 * Which messages count together towards emails_per_recipient_per_hour. Alerts to the operator
 * (null) are never held back: a guest must not be able to silence the links that answer a
 * request. What a guest's form makes (a contact message, a newsletter confirmation) is capped
 * on its own, so it never uses up the cap of the messages about bookings, nor they its. A
 * password reset link is not capped here either: a contact form could otherwise use up a
 * manager's allowance; the sign-in lockout's count limits it instead (src/notify/password-reset.ts).
 */
export const EMAIL_CAP_GROUP: Record<EmailKind, 'bookings' | 'forms' | null> = {
  request_received: 'bookings', booking_confirmed: 'bookings', confirmation_resent: 'bookings', booking_declined: 'bookings', booking_cancelled: 'bookings',
  booking_changed: 'bookings', departure_cancelled: 'bookings', reminder: 'bookings',
  newsletter_confirmation: 'forms', contact_message: 'forms',
  new_request: null, new_booking: null, guest_cancelled: null, departure_at_risk: null, webhook_failing: null, webhook_disabled: null, password_reset: null,
}

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
  state_reason: Nullable(Type.String({ description: 'not_sent: no_smtp (SMTP_URL is unset) or recipient_cap (emails_per_recipient_per_hour reached: counted apart for messages about bookings and for those a guest\'s form makes; alerts to the operator are never capped); failed or queued after a failure: why, named for what happened (the mail server\'s answer, a TLS failure, no connection, no answer in time)' })),
  attempts: Type.Integer(),
  created_at: Instant,
  sent_at: Nullable(Instant),
}))

export const EmailStatus = named('EmailStatus', Type.Object({
  enabled: Type.Boolean({ description: 'Whether SMTP_URL is set: without it every message is kept as not_sent' }),
  last_attempt: Nullable(Type.Object({
    email_id: Type.String(),
    kind: Type.Enum(EMAIL_KINDS),
    to: Type.String(),
    created_at: Instant,
    worked: Type.Boolean({ description: 'true when the mail server took it (state sent)' }),
    state: Type.Union([Type.Literal('queued'), Type.Literal('sent'), Type.Literal('failed')]),
    reason: Nullable(Type.String({ description: "The mail server's answer or the network error, when it did not work" })),
  }, { description: 'The newest message the service tried to send; null when none was tried' })),
}))

export const EmailList = named('EmailList', Type.Object({
  emails: Type.Array(Email),
  next_cursor: Nullable(Type.String({ description: 'Pass as cursor for the next (older) page; null on the last' })),
}))
