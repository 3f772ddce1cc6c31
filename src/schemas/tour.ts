import { Type, type Static } from 'typebox'
import { Money, Nullable } from './common.ts'
import { named } from './named.ts'

export const TourAddon = named('TourAddon', Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  price: Money,
  per: Type.Union([Type.Literal('booking'), Type.Literal('person')]),
  max_quantity: Type.Integer(),
}))

export const MeetingPoint = named('MeetingPoint', Type.Object({
  name: Type.String(),
  address: Type.String(),
  lat: Type.Number(),
  lng: Type.Number(),
}))

export const Tour = named('Tour', Type.Object({
  id: Type.String(),
  title: Type.String(),
  summary: Type.String(),
  description: Type.String(),
  duration_minutes: Type.Integer(),
  meeting_point: MeetingPoint,
  languages: Type.Array(Type.String()),
  tags: Type.Array(Type.String()),
  price: Money,
  party: Type.Object({ min: Type.Integer(), max: Type.Integer() }),
  capacity: Type.Integer({ description: 'Seats per departure' }),
  cutoff_minutes: Type.Integer({ description: 'Booking closes this many minutes before start' }),
  confirmation: Type.Union([Type.Literal('instant'), Type.Literal('on_request')]),
  addons: Type.Array(TourAddon),
  policy_id: Type.String(),
}))
export type Tour = Static<typeof Tour>

export const TourList = named('TourList', Type.Object({
  tours: Type.Array(Tour),
  total: Type.Integer(),
  q: Nullable(Type.String()),
}))
export type TourList = Static<typeof TourList>

export const TourListQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Search words; case- and accent-insensitive' })),
})

export const TourParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
})
