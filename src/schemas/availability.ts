import { Type, type Static } from 'typebox'
import { Instant, LocalDate, Money } from './common.ts'
import { named } from './named.ts'
import { MAX_UNIT_QUANTITY, MAX_UNITS } from './unit-type.ts'

export const SlotStatus = Type.Enum(['available', 'limited', 'sold_out', 'closed'])
export type SlotStatus = Static<typeof SlotStatus>
export const UnbookableReason = Type.Enum(['sold_out', 'cutoff_passed', 'insufficient_capacity'])
export type UnbookableReason = Static<typeof UnbookableReason>

export const Slot = named('Slot', Type.Object({
  start: Instant,
  end: Instant,
  date: LocalDate,
  time: Type.String({ pattern: '^[0-9]{2}:[0-9]{2}$', description: 'Local start time HH:MM' }),
  capacity: Type.Integer(),
  remaining: Type.Integer(),
  status: SlotStatus,
  guaranteed: Type.Boolean({
    description: "The departure will run: its booked guests (requests and confirmed bookings, not holds) have reached the tour's minimum to run. "
      + 'false for a tour without a minimum, and while the minimum is not reached',
  }),
  bookable: Type.Optional(Type.Boolean({ description: 'Present when party or units is given: whether the seats of that mix fit what remains (an infant on a lap takes none)' })),
  reason: Type.Optional(UnbookableReason),
  price: { ...Money, description: 'The subtotal of the asked mix at this departure: Σ quantity × unit price for units; '
    + "without units, party times the tour's first unit's price, or that price once (the per-person \"from\" price) when no party is given. "
    + 'Add-ons and promo codes are chosen at the hold and not included' },
}))
export type Slot = Static<typeof Slot>

export const Availability = named('Availability', Type.Object({
  tour_id: Type.String(),
  timezone: Type.String(),
  date: LocalDate,
  days: Type.Integer(),
  party: Type.Union([Type.Integer(), Type.Null()], { description: 'The party asked for, or the people the units count; null when neither is given' }),
  slots: Type.Array(Slot),
}, {
  examples: [{
    tour_id: 'alfama-walk', timezone: 'Europe/Lisbon', date: '2026-06-02', days: 1, party: 2,
    slots: [
      { start: '2026-06-02T09:30:00+01:00', end: '2026-06-02T12:00:00+01:00', date: '2026-06-02', time: '09:30', capacity: 16, remaining: 14, status: 'available', guaranteed: true, bookable: true, price: { amount: 3800, currency: 'EUR' } },
      { start: '2026-06-02T14:00:00+01:00', end: '2026-06-02T16:30:00+01:00', date: '2026-06-02', time: '14:00', capacity: 16, remaining: 1, status: 'limited', guaranteed: false, bookable: false, reason: 'insufficient_capacity', price: { amount: 3800, currency: 'EUR' } },
    ],
  }],
}))
export type Availability = Static<typeof Availability>

export const AvailabilityQuery = Type.Object({
  tour: Type.String({ minLength: 1, maxLength: 64, description: 'Tour identifier', examples: ['alfama-walk'] }),
  date: Type.Optional(Type.String({ format: 'date', maxLength: 10, description: "First day (operator's zone); default today", examples: ['2026-06-02'] })),
  party: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, description: 'Party size, in people; with units, it must be the people they count', examples: [2] })),
  units: Type.Optional(Type.String({
    pattern: `^[a-z0-9-]{1,40}:[0-9]{1,3}(,[a-z0-9-]{1,40}:[0-9]{1,3}){0,${MAX_UNITS - 1}}$`,
    maxLength: MAX_UNITS * 45,
    description: `The mix to judge and price, unit id:quantity separated by commas (each id once, quantity 0 to ${MAX_UNIT_QUANTITY}), as POST /booking's units. `
      + 'It implies party (the people it counts). An id the tour has not is 422 invalid_unit, a quantity outside its bounds or a unit without '
      + 'one of its accompanied_by 422 unit_not_allowed (naming units.<id>), a party given too that differs 422 party_mismatch',
    examples: ['adult:2,child:1'],
  })),
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: 14, default: 7, description: 'Number of days, 1 to 14', examples: [7] })),
})
