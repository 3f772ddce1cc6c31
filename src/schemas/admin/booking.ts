import { Type, type Static } from 'typebox'
import { BOOKING_STATUSES, CHECKED_OUT, type BookingStatus as Status } from '../booking-status.ts'
import { BookingFields, BookingRequest, BookingStatus, CheckoutRequest } from '../booking.ts'
import { Instant, Nullable, OneOf } from '../common.ts'
import { GuidedLanguageParameter } from '../language.ts'
import { named } from '../named.ts'

export const ACTOR_TYPES = ['staff', 'key', 'system', 'guest'] as const

export const Actor = named('Actor', Type.Object({
  type: OneOf(ACTOR_TYPES),
  id: Nullable(Type.String()),
  name: Nullable(Type.String()),
}, { description: 'Who made a change: a staff member, an API key, the system (deadlines, expiry) or the guest' }))

export type Actor = Static<typeof Actor>

export const BOOKING_CHANNELS = ['web', 'staff', 'octo'] as const

export const BookingChannel = OneOf(BOOKING_CHANNELS, {
  description: 'web: the booking API or page; staff: taken by the operator (POST /bookings); octo: a reseller',
})
export type BookingChannel = Static<typeof BookingChannel>

/** Who cancelled a booking: the guest (DELETE /booking), the operator, or the reseller that sold it (OCTo cancel). */
export const CANCELLED_BY = ['guest', 'operator', 'reseller'] as const
export type CancelledBy = typeof CANCELLED_BY[number]

const { cancellation: _guestCancellation, ...guestFields } = BookingFields.properties

export const BookingReseller = named('BookingReseller', Type.Object({
  key_id: Type.String({ description: 'The reseller key it was sold through (GET /api-keys)' }),
  name: Nullable(Type.String({
    description: "The key's name. null in the event feed and webhooks, which carry the booking as it was stored: GET /bookings/{code} names it",
  })),
  reference: Nullable(Type.String({ description: "The reseller's own reference for it (OCTo resellerReference)" })),
  notes: Nullable(Type.String({ description: "The reseller's notes for the operator (OCTo notes), as it last gave them" })),
  commission_percent: Type.Number({ description: "The reseller's commission it was sold under, in percent" }),
  net: Type.Integer({
    description: 'Minor units: the total less the commission, rounded half up; what the reseller owes the operator for it. '
      + 'The guest paid the reseller, so price.due_on_arrival is 0',
  }),
}, { description: 'A booking a reseller made through the OCTo API (channel octo); docs/resellers.md' }))
export type BookingReseller = Static<typeof BookingReseller>

/** The operator's view of a booking: every field of the guest record, and what only the operator sees. */
export const OperatorBooking = named('OperatorBooking', Type.Object({
  ...guestFields,
  channel: BookingChannel,
  reseller: Nullable(BookingReseller),
  quarantined: Type.Boolean({ description: 'Made through a spam decoy: it takes no seats and nobody is told until released (POST /bookings/{code}/release-quarantine)' }),
  checked_in_at: Nullable(Instant),
  internal_note: Nullable(Type.String()),
  policy: Nullable(Type.Object({ id: Type.String(), version: Type.Integer() }, {
    description: 'The cancellation policy in force when the booking was made; its terms apply, whatever the policy says now. null only for bookings older than the record of it',
  })),
  cancellation: Nullable(Type.Object({
    at: Instant,
    by: OneOf(CANCELLED_BY),
    reason: Nullable(Type.String()),
    fee_percent: Type.Integer(),
    fee: Type.Integer({ description: 'Owed under the policy (0 when waived); information only, nothing is charged' }),
    fee_waived: Type.Boolean(),
  })),
  decline_reason: Nullable(Type.String()),
  no_show: Nullable(Type.Object({
    fee_percent: Type.Integer(),
    fee: Type.Integer({ description: "The no-show fee under the booking's policy; information only, nothing is charged" }),
  }, { description: 'While the booking is marked no-show' })),
  version: Type.Integer({ description: 'Grows with every change; send it back as If-Match: "<version>"' }),
}))
export type OperatorBooking = Static<typeof OperatorBooking>

export const BookingHistoryChange = named('BookingHistoryChange', Type.Object({
  field: Type.String({ description: 'As the booking record names it: start, tour_id, party, seats, units, addons, total, promo_code, contact.name, contact.email, contact.phone, internal_note, checked_in_at, decline_reason…' }),
  from: Nullable(Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
  to: Nullable(Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
}, { description: "One field before and after; instants in the instance's zone, money in minor units, units as `2 Adult, 1 Child`, add-ons as `2 × id`; a contact erased since reads \"erased\"" }))
export type BookingHistoryChange = Static<typeof BookingHistoryChange>

export const BookingHistoryEntry = named('BookingHistoryEntry', Type.Object({
  at: Instant,
  from: Nullable(BookingStatus),
  to: BookingStatus,
  action: Nullable(Type.String({ description: 'What was done, as the audit log names it (booking.confirmed, booking.changed, booking.checked_in, booking.confirmation_resent…); null for a guest\'s own step or the expiry of a hold' })),
  changes: Type.Array(BookingHistoryChange, { description: 'What else the entry changed, field by field (a move, a resize, a contact or note change, a check-in time); empty for a bare transition' }),
  actor: Actor,
}, { description: 'A transition (from → to), or a change that kept the status (from equals to: changes says what)' }))
export type BookingHistoryEntry = Static<typeof BookingHistoryEntry>

export const OperatorBookingDetail = named('OperatorBookingDetail', Type.Object({
  ...OperatorBooking.properties,
  history: Type.Array(BookingHistoryEntry, { description: 'Every change, oldest first: each transition, and each change staff made that kept the status, with who made it' }),
}))
export type OperatorBookingDetail = Static<typeof OperatorBookingDetail>

export const BookingList = named('BookingList', Type.Object({
  bookings: Type.Array(OperatorBooking),
  next_cursor: Nullable(Type.String({ description: 'Pass as cursor for the next page; null on the last page' })),
}))

const STATUS_NAMES = `(${BOOKING_STATUSES.join('|')})`

/** The filters of the list and the CSV export. */
export const BookingFilterQuery = Type.Object({
  from: Type.Optional(Type.String({ format: 'date', maxLength: 10, description: "First departure date, in the instance's zone (inclusive)" })),
  to: Type.Optional(Type.String({ format: 'date', maxLength: 10, description: "Last departure date, in the instance's zone (inclusive)" })),
  tour: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'A tour id' })),
  status: Type.Optional(Type.String({
    maxLength: 200,
    pattern: `^${STATUS_NAMES}(,${STATUS_NAMES})*$`,
    description: `Comma-separated statuses; default every checked-out one (${CHECKED_OUT.join(', ')})`,
  })),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the code, name, email or phone; case and accents ignored' })),
  language: Type.Optional(GuidedLanguageParameter('Only bookings guided in this language (case ignored); a booking made before bookings kept '
    + "their language counts as guided in its tour's first")),
  channel: Type.Optional(BookingChannel),
  reseller: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'A reseller key id: only the bookings sold through it' })),
  quarantined: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'true: only quarantined bookings; false: none of them' })),
})
export type BookingFilterQuery = Static<typeof BookingFilterQuery>

export const ResellerSummaryQuery = Type.Object({
  from: Type.String({ format: 'date', maxLength: 10, description: "First departure date, in the instance's zone (inclusive)" }),
  to: Type.String({ format: 'date', maxLength: 10, description: "Last departure date, in the instance's zone (inclusive)" }),
}, { additionalProperties: false })
export type ResellerSummaryQuery = Static<typeof ResellerSummaryQuery>

export const BookingListQuery = Type.Object({
  ...BookingFilterQuery.properties,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'Bookings per page, 1 to 200' })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 400, description: 'next_cursor of the page before' })),
})

export const BookingParams = Type.Object({
  instance: Type.String(),
  code: Type.String({ minLength: 1, maxLength: 64, description: "The booking's code or id" }),
})

const Reason = Type.String({ maxLength: 1000 })

export const DeclineRequest = named('DeclineRequest', Type.Object({
  reason: Type.Optional(Reason),
}, { additionalProperties: false }))

export const CancelRequest = named('CancelRequest', Type.Object({
  reason: Type.Optional(Reason),
  fee: Type.Optional(Type.Union([Type.Literal('waived'), Type.Literal('policy')], {
    description: "waived (the default): no fee; policy: the fee the booking's own cancellation policy gives at this moment, none for a request not yet confirmed",
  })),
}, { additionalProperties: false }))

const InternalNote = Type.String({ maxLength: 2000, description: 'Seen by staff only' })

export const ContactChange = Type.Object({
  name: Type.Optional(CheckoutRequest.properties.name),
  email: Type.Optional(Nullable(Type.String({ ...CheckoutRequest.properties.email, description: 'null removes it; a booking keeps an email or a phone (400 validation_failed on contact)' }))),
  phone: Type.Optional(Nullable(Type.String({ maxLength: 40, description: 'Any common notation; stored as E.164; null removes it' }))),
}, { additionalProperties: false, minProperties: 1 })

export const BookingChange = named('BookingChange', Type.Object({
  start: Type.Optional(BookingRequest.properties.start),
  tour_id: Type.Optional(BookingRequest.properties.tour_id),
  party: Type.Optional({ ...BookingRequest.properties.party, description: 'People in the party. Alone (without units), a resize to that many of the tour\'s first unit: '
    + "allowed only while the booking is just its party of the first unit; on a booking with other units it is 422 units_required naming units (give units instead), unless it is the booking's party already" }),
  units: Type.Optional({
    ...BookingRequest.properties.units,
    description: 'The new mix, unit id to quantity (as POST /booking takes it; units left out are not booked): the booking is re-priced from the current catalog and '
      + 'its seats (Σ quantity × seats) change under the capacity rule (409 insufficient_capacity). With party, party must be the people the units count (422 party_mismatch). '
      + "Without units, a move, a resize by party or an add-on change keeps the booking's units, re-priced from the current catalog; "
      + 'a move to a tour without those units is 422 invalid_unit naming units.<id>',
  }),
  addons: BookingRequest.properties.addons,
  language: Type.Optional(GuidedLanguageParameter("The language the booking is to be guided in: one of the tour's languages after the change (422 "
    + "language_not_offered naming language). Without it, a move to another tour keeps the booking's language, which that tour must be guided in (else 422 "
    + 'language_not_offered: give language too)')),
  contact: Type.Optional(ContactChange),
  internal_note: Type.Optional(Nullable(InternalNote)),
}, { additionalProperties: false, minProperties: 1 }))
export type BookingChange = Static<typeof BookingChange>

export const StaffBookingRequest = named('StaffBookingRequest', Type.Object({
  tour_id: BookingRequest.properties.tour_id,
  start: BookingRequest.properties.start,
  party: BookingRequest.properties.party,
  units: BookingRequest.properties.units,
  addons: BookingRequest.properties.addons,
  language: Type.Optional(GuidedLanguageParameter("The language the party is to be guided in: one of the tour's languages (422 language_not_offered "
    + "naming language); default the tour's first")),
  contact: Type.Object({
    name: CheckoutRequest.properties.name,
    email: Type.Optional(CheckoutRequest.properties.email),
    phone: CheckoutRequest.properties.phone,
  }, {
    additionalProperties: false,
    description: 'A name, and an email or a phone or both (400 validation_failed on contact when neither): a walk-in may give only a phone. Without an email, the guest is never emailed',
  }),
  promo_code: Type.Optional(Type.String({ maxLength: 64 })),
  internal_note: Type.Optional(InternalNote),
  status: Type.Optional(OneOf(['confirmed', 'requested'] satisfies Status[], { description: 'confirmed (the default) or requested' })),
  notify_guest: Type.Optional(Type.Boolean({ description: 'Email the guest (default false: a walk-in or a phone booking may not want one); true needs contact.email (400 validation_failed on notify_guest)' })),
}, { additionalProperties: false }))
export type StaffBookingRequest = Static<typeof StaffBookingRequest>
