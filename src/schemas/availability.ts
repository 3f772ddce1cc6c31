import { Type, type Static } from 'typebox'
import { Instant, LocalDate } from './common.ts'
import { named } from './named.ts'

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
  bookable: Type.Optional(Type.Boolean({ description: 'Present when party is given' })),
  reason: Type.Optional(UnbookableReason),
}))
export type Slot = Static<typeof Slot>

export const Availability = named('Availability', Type.Object({
  tour_id: Type.String(),
  timezone: Type.String(),
  date: LocalDate,
  days: Type.Integer(),
  party: Type.Union([Type.Integer(), Type.Null()]),
  slots: Type.Array(Slot),
}, {
  examples: [{
    tour_id: 'alfama-walk', timezone: 'Europe/Lisbon', date: '2026-06-02', days: 1, party: 2,
    slots: [
      { start: '2026-06-02T09:30:00+01:00', end: '2026-06-02T12:00:00+01:00', date: '2026-06-02', time: '09:30', capacity: 16, remaining: 14, status: 'available', guaranteed: true, bookable: true },
      { start: '2026-06-02T14:00:00+01:00', end: '2026-06-02T16:30:00+01:00', date: '2026-06-02', time: '14:00', capacity: 16, remaining: 1, status: 'limited', guaranteed: false, bookable: false, reason: 'insufficient_capacity' },
    ],
  }],
}))
export type Availability = Static<typeof Availability>

export const AvailabilityQuery = Type.Object({
  tour: Type.String({ minLength: 1, maxLength: 64, description: 'Tour identifier', examples: ['alfama-walk'] }),
  date: Type.Optional(Type.String({ format: 'date', maxLength: 10, description: "First day (operator's zone); default today", examples: ['2026-06-02'] })),
  party: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, description: 'Party size', examples: [2] })),
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: 14, default: 7, description: 'Number of days, 1 to 14', examples: [7] })),
})
