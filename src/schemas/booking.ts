import { Type, type Static } from 'typebox'
import { Instant, Nullable, SessionId } from './common.ts'
import { MarketingFields } from './decoy-fields.ts'
import { named } from './named.ts'

export const BookingStatus = named('BookingStatus', Type.Enum(
  ['held', 'released', 'expired', 'requested', 'confirmed', 'declined', 'cancelled', 'completed', 'no_show'],
))

export const BookingRequest = named('BookingRequest', Type.Object({
  tour_id: Type.String({ minLength: 1, maxLength: 64, pattern: '\\S' }),
  start: Type.String({ format: 'date-time', maxLength: 64, description: 'A scheduled start, as an instant in any offset' }),
  party: Type.Integer({ minimum: 1, maximum: 100000 }),
  session: Type.Optional(SessionId),
  addons: Type.Optional(Type.Record(
    Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,63}$' }),
    Type.Integer({ minimum: 0, maximum: 1000 }),
    { maxProperties: 50, description: 'Add-on id to quantity' },
  )),
  ...MarketingFields,
}, { additionalProperties: false }))
export type BookingRequest = Static<typeof BookingRequest>

export const CheckoutRequest = named('CheckoutRequest', Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  email: Type.String({ minLength: 3, maxLength: 254, format: 'email', pattern: '^[^\\r\\n]+$' }),
  phone: Type.Optional(Type.String({ maxLength: 40, description: 'Any common notation; stored as E.164' })),
  session: Type.Optional(SessionId),
  ...MarketingFields,
}, { additionalProperties: false }))
export type CheckoutRequest = Static<typeof CheckoutRequest>

export const BookingPrice = named('BookingPrice', Type.Object({
  currency: Type.String(),
  subtotal: Type.Integer({ description: 'Per-person price times party' }),
  addons: Type.Integer(),
  discount: Type.Integer(),
  total: Type.Integer(),
  due_now: Type.Integer({ description: 'Always 0: payment is taken on arrival' }),
  due_on_arrival: Type.Integer(),
}))

export const Booking = named('Booking', Type.Object({
  id: Type.String(),
  code: Nullable(Type.String({ description: 'Short human reference, issued at checkout' })),
  status: BookingStatus,
  tour: Type.Object({ id: Type.String(), title: Type.String() }),
  start: Instant,
  end: Instant,
  timezone: Type.String(),
  party: Type.Integer(),
  addons: Type.Array(Type.Object({
    id: Type.String(),
    name: Type.String(),
    quantity: Type.Integer(),
    amount: Type.Integer(),
  })),
  promo_code: Nullable(Type.String()),
  referral_code: Nullable(Type.String()),
  price: BookingPrice,
  hold_expires_at: Nullable(Instant),
  contact: Nullable(Type.Object({
    name: Type.String(),
    email: Type.String(),
    phone: Nullable(Type.String()),
  })),
  cancellable_until: Instant,
  cancellation: Nullable(Type.Object({
    cancelled_at: Instant,
    fee_percent: Type.Integer(),
    fee: Type.Integer({ description: 'Owed under the policy; information only, nothing is charged' }),
  })),
  created_at: Instant,
  updated_at: Instant,
}))
export type Booking = Static<typeof Booking>
