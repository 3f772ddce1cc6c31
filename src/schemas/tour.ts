import { Type, type Static } from 'typebox'
import { Money, Nullable } from './common.ts'
import { LangParameter } from './language.ts'
import { named } from './named.ts'
import { UnitType } from './unit-type.ts'

const TOUR_EXAMPLE = {
  id: 'alfama-walk',
  title: 'Alfama & Mouraria Walking Tour',
  summary: "Two and a half hours through Lisbon's oldest quarters: tiled façades, hidden miradouros, the Sé cathedral and the alleys where fado was born.",
  description: 'We start at the Miradouro de Santa Luzia with the whole of Alfama and the river below us.',
  duration_minutes: 150,
  meeting_point: { name: 'Miradouro de Santa Luzia', address: 'Largo Santa Luzia, 1100-487 Lisboa, Portugal', lat: 38.71178, lng: -9.13029 },
  languages: ['en', 'pt', 'es'],
  tags: ['walking', 'history', 'viewpoints'],
  price: { amount: 1900, currency: 'EUR' },
  units: [
    { id: 'adult', type: 'adult', name: 'Adult', description: '', price: { amount: 1900, currency: 'EUR' }, seats: 1, pax: 1, min_age: 13, max_age: null, min_quantity: 1, max_quantity: null, accompanied_by: [] },
    { id: 'child', type: 'child', name: 'Child', description: '', price: { amount: 900, currency: 'EUR' }, seats: 1, pax: 1, min_age: 4, max_age: 12, min_quantity: 1, max_quantity: null, accompanied_by: ['adult'] },
    { id: 'infant', type: 'infant', name: 'Infant', description: 'On a lap, no seat', price: { amount: 0, currency: 'EUR' }, seats: 0, pax: 1, min_age: 0, max_age: 3, min_quantity: 1, max_quantity: 2, accompanied_by: ['adult'] },
  ],
  party: { min: 1, max: 10 },
  capacity: 16,
  cutoff_minutes: 0,
  confirmation: 'instant',
  addons: [
    { id: 'ginjinha-tasting', name: 'Ginjinha tasting', description: "A shot of Lisbon's sour-cherry liqueur in a chocolate cup.", price: { amount: 350, currency: 'EUR' }, per: 'person', max_quantity: 10 },
    { id: 'illustrated-map', name: 'Illustrated Alfama map', description: 'A hand-drawn, folded map of Alfama and Mouraria.', price: { amount: 600, currency: 'EUR' }, per: 'booking', max_quantity: 3 },
  ],
  policy_id: 'flexible-48',
}

export const TourAddon = named('TourAddon', Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  price: Money,
  per: Type.Union([Type.Literal('booking'), Type.Literal('person')], {
    description: "What a quantity counts: booking, items for the whole booking; person, the people of the party who take it "
      + '(at most the party size). Either way the add-on costs price times quantity',
  }),
  max_quantity: Type.Integer({ description: 'The most one booking may order (a per-person add-on also at most the party size)' }),
}))

export const TourUnit = named('TourUnit', Type.Object({
  id: Type.String({ description: 'What POST /booking\'s units map names' }),
  type: UnitType,
  name: Type.String(),
  description: Type.String(),
  price: Money,
  seats: Type.Integer({ description: "What one takes of a departure's capacity (0: on a lap)" }),
  pax: Type.Integer({ description: 'How many people one counts (a family ticket counts several)' }),
  min_age: Nullable(Type.Integer()),
  max_age: Nullable(Type.Integer()),
  min_quantity: Type.Integer({ description: 'The fewest one booking takes when it takes any' }),
  max_quantity: Nullable(Type.Integer({ description: 'The most one booking takes; null: no bound but the party\'s' })),
  accompanied_by: Type.Array(Type.String(), { description: 'Units of which at least one must be booked with this one' }),
}, { description: 'A price category. The first is the default: a booking that gives only party is that many of it' }))

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
  units: Type.Array(TourUnit, { description: 'Its price categories in the order guests see them; a tour the operator gave none has one, "person", at price' }),
  party: Type.Object({ min: Type.Integer(), max: Type.Integer() }),
  capacity: Type.Integer({ description: 'Seats per departure' }),
  cutoff_minutes: Type.Integer({ description: 'Booking closes this many minutes before start' }),
  confirmation: Type.Union([Type.Literal('instant'), Type.Literal('on_request')]),
  addons: Type.Array(TourAddon),
  policy_id: Type.String(),
}, { examples: [TOUR_EXAMPLE] }))
export type Tour = Static<typeof Tour>

/** Tours per page when a cursor is given without a limit, and the most a page may hold. */
export const TOUR_PAGE_DEFAULT = 50
export const TOUR_PAGE_MAX = 200

export const TourList = named('TourList', Type.Object({
  tours: Type.Array(Tour),
  total: Type.Integer({ description: 'Tours in the whole list (every match of q), on every page' }),
  q: Nullable(Type.String()),
  next_cursor: Type.Optional(Nullable(Type.String({
    description: 'Only when limit or cursor was given: pass it as cursor for the next page; null on the last page',
  }))),
}, { examples: [{ tours: [TOUR_EXAMPLE], total: 1, q: 'alfama' }] }))
export type TourList = Static<typeof TourList>

export const TourListQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Search words; case- and accent-insensitive', examples: ['alfama'] })),
  limit: Type.Optional(Type.Integer({
    minimum: 1, maximum: TOUR_PAGE_MAX,
    description: `Answer one page of at most this many tours, 1 to ${TOUR_PAGE_MAX} (${TOUR_PAGE_DEFAULT} when only cursor is given)`,
    examples: [50],
  })),
  cursor: Type.Optional(Type.String({
    minLength: 1, maxLength: 400, description: "The previous page's next_cursor, with the same q; omit for the first page", examples: ['WyIiLCJhbGZhbWEtd2FsayIsMF0'],
  })),
  lang: Type.Optional(LangParameter),
})

export const TourParams = Type.Object({
  id: Type.String({ maxLength: 64, description: 'Tour identifier', examples: ['alfama-walk'] }),
})
