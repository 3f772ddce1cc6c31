import { Type, type Static } from 'typebox'
import { BOOKING_STATUSES } from './booking-status.ts'
import { Instant, Nullable, PartySize, SessionId } from './common.ts'
import { decoyFields, MarketingFields } from './decoy-fields.ts'
import { GuidedLanguageParameter, LanguageTag } from './language.ts'
import { named } from './named.ts'
import { MeetingPoint } from './tour.ts'
import { MAX_UNIT_QUANTITY, MAX_UNITS, UnitType } from './unit-type.ts'

export const BookingStatus = named('BookingStatus', Type.Enum(BOOKING_STATUSES))

export const BookingRequest = named('BookingRequest', Type.Object({
  tour_id: Type.String({ minLength: 1, maxLength: 64, pattern: '\\S' }),
  start: Type.String({ format: 'date-time', maxLength: 64, description: 'A scheduled start, as an instant in any offset' }),
  party: { ...PartySize, description: 'People in the party; with units, the people they count (Σ quantity × pax)' },
  units: Type.Optional(Type.Record(
    Type.String({ minLength: 1, maxLength: 64 }),
    Type.Integer({ minimum: 0, maximum: MAX_UNIT_QUANTITY }),
    {
      maxProperties: MAX_UNITS,
      description: "Unit id to quantity, e.g. {\"adult\": 2, \"child\": 1}; 0 books none. Without it the party is that many of the tour's first unit. "
        + 'An id the tour has not is 422 invalid_unit; a quantity outside the unit\'s bounds, or a unit booked without one of its accompanied_by, 422 unit_not_allowed; '
        + 'a party that is not the people the units count, 422 party_mismatch',
    },
  )),
  language: Type.Optional(GuidedLanguageParameter("The language the party is to be guided in: one of the tour's languages (422 language_not_offered "
    + "naming language). Without it, the language this request is answered in (lang, Accept-Language) when the tour is guided in it, else the tour's first")),
  session: Type.Optional(SessionId),
  addons: Type.Optional(Type.Record(
    Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,63}$' }),
    Type.Integer({ minimum: 0, maximum: 1000 }),
    {
      maxProperties: 50,
      description: "Add-on id to quantity. A per-person add-on's quantity is how many of the party take it (at most the party "
        + "size); a per-booking one's is how many items. Each costs its price times its quantity; 0 orders none.",
    },
  )),
  ...MarketingFields,
  ...decoyFields("the hold takes no seat (it still replaces the session's current hold) and its checkout quarantines the booking"),
}, {
  additionalProperties: false,
  examples: [{ tour_id: 'alfama-walk', start: '2026-06-02T09:30:00+01:00', party: 2, language: 'pt', addons: { 'ginjinha-tasting': 2, 'illustrated-map': 1 }, promo_code: 'WELCOME10' }],
}))
export type BookingRequest = Static<typeof BookingRequest>

export const CheckoutRequest = named('CheckoutRequest', Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  email: Type.String({ minLength: 3, maxLength: 254, format: 'email', pattern: '^[^\\r\\n]+$' }),
  phone: Type.Optional(Type.String({ maxLength: 40, description: 'Any common notation; stored as E.164' })),
  session: Type.Optional(SessionId),
  ...MarketingFields,
  ...decoyFields('the booking is quarantined: its seats are given back and nobody is notified, unless the operator releases it'),
}, { additionalProperties: false, examples: [{ name: 'Ana Silva', email: 'ana@example.pt', phone: '912 345 678' }] }))
export type CheckoutRequest = Static<typeof CheckoutRequest>

export const BookingPrice = named('BookingPrice', Type.Object({
  currency: Type.String(),
  subtotal: Type.Integer({ description: 'The units\' amounts: Σ quantity × unit price (per-person price times party for a tour without units)' }),
  addons: Type.Integer(),
  discount: Type.Integer(),
  total: Type.Integer({ description: 'What the booking was priced at; what is owed is due_on_arrival (or a cancellation fee)' }),
  due_now: Type.Integer({ description: 'Always 0: payment is taken on arrival' }),
  due_on_arrival: Type.Integer({
    description: 'The total while the booking stands (held, requested, confirmed, checked in); 0 once it is declined, cancelled, expired or released, '
      + 'or marked no-show: what those owe, if anything, is their cancellation fee (cancellation.fee) or no-show fee',
  }),
}))

/** The fields every record of a booking carries: the guest's (Booking) and the operator's (OperatorBooking). */
export const BookingFields = Type.Object({
  id: Type.String(),
  code: Nullable(Type.String({ description: 'Short human reference, issued at checkout' })),
  status: BookingStatus,
  tour: Type.Object({ id: Type.String(), title: Type.String() }),
  start: Instant,
  end: Instant,
  timezone: Type.String(),
  party: Type.Integer({ description: 'People: what the tour\'s party bounds, per-person add-ons and the minimum to run count' }),
  seats: Type.Integer({ description: "Seats it takes of the departure's capacity: Σ quantity × seats of its units (an infant on a lap takes none)" }),
  units: Type.Array(Type.Object({
    id: Type.String(),
    type: UnitType,
    name: Type.String(),
    quantity: Type.Integer({ minimum: 1 }),
    amount: Type.Integer({ description: 'Unit price times quantity, as priced when the booking was made or last changed' }),
  }), { description: 'The units booked, in the tour\'s order; a booking made without units is its party of the tour\'s first unit' }),
  addons: Type.Array(Type.Object({
    id: Type.String(),
    name: Type.String(),
    quantity: Type.Integer({ description: 'For a per-person add-on, how many of the party take it; for a per-booking one, how many items' }),
    amount: Type.Integer({ description: 'Price times quantity, as priced when the booking was made' }),
  })),
  language: LanguageTag("The language the booking is guided in, one of its tour's languages; guest emails are written in it when the instance reads in it"),
  promo_code: Nullable(Type.String()),
  referral_code: Nullable(Type.String()),
  price: BookingPrice,
  hold_expires_at: Nullable(Instant),
  contact: Nullable(Type.Object({
    name: Type.String(),
    email: Nullable(Type.String({ description: 'null only for a booking staff took without an address (a walk-in with a phone): nobody is emailed about it' })),
    phone: Nullable(Type.String()),
  }, { description: 'From checkout on; null while held' })),
  cancellable_until: Instant,
  cancellation: Nullable(Type.Object({
    cancelled_at: Instant,
    fee_percent: Type.Integer(),
    fee: Type.Integer({ description: 'Owed under the policy; information only, nothing is charged' }),
  })),
  created_at: Instant,
  updated_at: Instant,
})
export type BookingFields = Static<typeof BookingFields>

export const CancellationNow = named('CancellationNow', Type.Object({
  allowed: Type.Boolean({ description: 'Whether DELETE /booking would release or cancel this booking now (false: 409 cancellation_not_allowed, or nothing to cancel)' }),
  fee_percent: Nullable(Type.Integer({ minimum: 0, maximum: 100, description: "The policy tier's fee, in percent of the total (0 for a request); null when not allowed" })),
  fee: Nullable(Type.Integer({ minimum: 0, description: 'The fee in minor units of price.currency (0 for a request); information only, nothing is charged; null when not allowed' })),
}, {
  description: 'What DELETE /booking would do to this booking at the moment of the answer, by the same rule: a hold is released free '
    + 'of charge; a requested or confirmed booking is cancelled while cancellable_until is ahead: a request free of charge, since nobody '
    + "has accepted it yet, and a confirmed booking with the fee of the booking's own policy tier that the notice falls in. The fee can "
    + 'grow as the start comes closer; read the booking again just before cancelling.',
}))

export const Booking = named('Booking', Type.Object({
  ...BookingFields.properties,
  meeting_point: Type.Union([MeetingPoint, Type.Null()], { description: "The tour's meeting point; null only for a tour no longer in the catalog" }),
  cancellation_now: CancellationNow,
  manage_url: Nullable(Type.String({
    format: 'uri',
    maxLength: 2048,
    description: 'The manage link, <origin>/book/<prefix>/manage#<token>, from checkout until the departure ends (null before and after). '
      + 'It opens the booking page on any device, which looks the booking up with the token (POST /booking/lookup); show it to the '
      + 'guest or send it on. Whoever has it can cancel the booking: treat it like the code and email together.',
  })),
}, {
  examples: [{
    id: '01a20a21-7169-7723-838b-b120c6a3a171',
    code: 'Z9HFEA',
    status: 'confirmed',
    tour: { id: 'alfama-walk', title: 'Alfama & Mouraria Walking Tour' },
    start: '2026-06-02T09:30:00+01:00',
    end: '2026-06-02T12:00:00+01:00',
    timezone: 'Europe/Lisbon',
    party: 2,
    seats: 2,
    units: [{ id: 'person', type: 'adult', name: 'Person', quantity: 2, amount: 3800 }],
    addons: [
      { id: 'ginjinha-tasting', name: 'Ginjinha tasting', quantity: 2, amount: 700 },
      { id: 'illustrated-map', name: 'Illustrated Alfama map', quantity: 1, amount: 600 },
    ],
    language: 'pt',
    promo_code: 'WELCOME10',
    referral_code: null,
    price: { currency: 'EUR', subtotal: 3800, addons: 1300, discount: 510, total: 4590, due_now: 0, due_on_arrival: 4590 },
    hold_expires_at: null,
    contact: { name: 'Ana Silva', email: 'ana@example.pt', phone: '+351912345678' },
    cancellable_until: '2026-06-02T09:30:00+01:00',
    cancellation: null,
    created_at: '2026-06-01T09:00:00+01:00',
    updated_at: '2026-06-01T09:02:10+01:00',
    meeting_point: { name: 'Miradouro de Santa Luzia', address: 'Largo Santa Luzia, 1100-487 Lisboa, Portugal', lat: 38.71178, lng: -9.13029 },
    cancellation_now: { allowed: true, fee_percent: 50, fee: 2295 },
    manage_url: 'https://book.alfama-tejo.example/book/lisbon/manage#MDFhMjBhMjEtNzE2OS03NzIzLTgzOGItYjEyMGM2YTNhMTcxLjE3ODAzOTgwMDBGAono169H785Ak7UhoeWZjAwYktFxZJXCHIwHvmi80g',
  }],
}))
export type Booking = Static<typeof Booking>

const BookingCodeLookup = named('BookingCodeLookup', Type.Object({
  code: Type.String({ minLength: 1, maxLength: 64, pattern: '\\S', description: 'The booking code from the confirmation, in any case' }),
  email: CheckoutRequest.properties.email,
}, {
  additionalProperties: false,
  description: 'The code and the email address given at checkout (compared without regard to case)',
  examples: [{ code: 'Z9HFEA', email: 'ana@example.pt' }],
}))

const BookingTokenLookup = named('BookingTokenLookup', Type.Object({
  token: Type.String({ minLength: 1, maxLength: 512, pattern: '^[A-Za-z0-9_-]+$', description: 'What follows # in the manage link (manage_url)' }),
}, {
  additionalProperties: false,
  description: 'The token of a manage link',
  examples: [{ token: 'MDFhMjBhMjEtNzE2OS03NzIzLTgzOGItYjEyMGM2YTNhMTcxLjE3ODAzOTgwMDBGAono169H785Ak7UhoeWZjAwYktFxZJXCHIwHvmi80g' }],
}))

export const BookingLookup = named('BookingLookup', Type.Union([BookingCodeLookup, BookingTokenLookup], {
  description: 'Either the booking code with the contact email, or the token of a manage link; nothing else',
  examples: [{ code: 'Z9HFEA', email: 'ana@example.pt' }],
}))
export type BookingLookup = Static<typeof BookingLookup>
