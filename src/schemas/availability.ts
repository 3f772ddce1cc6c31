import { Type, type Static } from 'typebox'
import { Instant, LocalDate } from './common.ts'
import { named } from './named.ts'

export const SlotStatus = Type.Enum(['available', 'limited', 'sold_out', 'closed'])
export const UnbookableReason = Type.Enum(['sold_out', 'cutoff_passed', 'insufficient_capacity'])

export const Slot = named('Slot', Type.Object({
  start: Instant,
  end: Instant,
  date: LocalDate,
  time: Type.String({ pattern: '^[0-9]{2}:[0-9]{2}$', description: 'Local start time HH:MM' }),
  capacity: Type.Integer(),
  remaining: Type.Integer(),
  status: SlotStatus,
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
}))
export type Availability = Static<typeof Availability>

export const AvailabilityQuery = Type.Object({
  tour: Type.String({ minLength: 1, maxLength: 64, description: 'Tour identifier' }),
  date: Type.Optional(Type.String({ format: 'date', description: "First day (operator's zone); default today" })),
  party: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, description: 'Party size' })),
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: 14, default: 7, description: 'Number of days, 1 to 14' })),
})
