import { Type, type Static } from 'typebox'
import { BookingFields } from '../booking.ts'
import { ON_MANIFEST } from '../booking-status.ts'
import { Instant, LocalDate, NonBlankString, Nullable, OneOf } from '../common.ts'
import { named } from '../named.ts'
import { UnitType } from '../unit-type.ts'
import { PageQuery } from './page.ts'
import { BookingChannel, BookingReseller } from './booking.ts'

const TourId = Type.String({ minLength: 1, maxLength: 64, description: 'Tour id' })
const Capacity = Type.Integer({ minimum: 1, maximum: 100000, description: 'Seats on this departure' })
const Guests = (description: string) => Type.Integer({ minimum: 0, description })

export const DepartureSeats = named('DepartureSeats', Type.Object({
  held: Guests('Guests on holds that have not lapsed'),
  requested: Guests('Guests on requests awaiting a decision'),
  confirmed: Guests('Guests on confirmed bookings'),
  completed: Guests('Guests checked in'),
  no_show: Guests('Guests marked no-show'),
  free: Guests('Capacity minus every seat above, never below 0'),
}, { description: 'Guests (the sum of parties) per booking status; quarantined bookings take no seat and are not counted' }))

export const Departure = named('Departure', Type.Object({
  tour_id: Type.String(),
  start: Instant,
  end: Instant,
  date: LocalDate,
  time: Type.String({ pattern: '^[0-9]{2}:[0-9]{2}$', description: 'Local start time HH:MM' }),
  capacity: Type.Integer(),
  capacity_source: Type.Union([Type.Literal('tour'), Type.Literal('operator')], {
    description: "tour: the tour's default; operator: set with PATCH or POST /departures, and kept whatever the tour's default becomes",
  }),
  seats: DepartureSeats,
  closed: Type.Boolean({ description: 'Closed by an operator: takes no new holds (guests see it closed); its bookings stand. Not set by the cutoff' }),
  cancelled: Type.Boolean(),
  note: Nullable(Type.String({ description: 'For staff and guides; guests never see it' })),
  extra: Type.Boolean({ description: 'Added by hand, not from the schedule' }),
  orphaned: Type.Boolean({ description: 'No longer in the schedule and not added by hand, but holding bookings' }),
  min_participants: Nullable(Type.Integer({ description: "The tour's minimum to run (its min_participants); null when it sets none" })),
  guaranteed: Type.Boolean({
    description: 'Its people (Σ party of its requested, confirmed, completed and no-show bookings, not holds; not seats: an infant on a lap counts) number at least min_participants; '
      + 'false when the tour sets no minimum. It follows the bookings: a cancellation can take it back below',
  }),
  version: Type.Integer({ minimum: 1, description: 'Grows with every operator change; send as If-Match' }),
}))
export type Departure = Static<typeof Departure>

export const DepartureList = named('DepartureList', Type.Object({
  departures: Type.Array(Departure),
  next_cursor: Nullable(Type.String()),
}))

export const DepartureListQuery = Type.Object({
  from: Type.Optional(Type.String({ format: 'date', maxLength: 10, description: "First local date (the instance's zone); default today" })),
  to: Type.Optional(Type.String({ format: 'date', maxLength: 10, description: 'Last local date, included; default from + 13 days; at most 61 days after from' })),
  tour: Type.Optional(TourId),
  ...PageQuery,
})

export const DepartureParams = Type.Object({
  instance: Type.String(),
  tour_id: TourId,
  start: Type.String({ format: 'date-time', maxLength: 64, description: 'The start as an RFC 3339 instant in any offset, URL-encoded (+ as %2B)' }),
})

const Addon = Type.Object({ id: Type.String(), name: Type.String(), quantity: Type.Integer(), amount: Type.Integer({ description: 'Minor units' }) })
const ManifestStatus = OneOf(ON_MANIFEST)

export const ManifestEntry = named('ManifestEntry', Type.Object({
  id: Type.String(),
  code: Nullable(Type.String()),
  status: ManifestStatus,
  name: Nullable(Type.String()),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  party: Type.Integer({ description: 'People' }),
  seats: BookingFields.properties.seats,
  units: BookingFields.properties.units,
  addons: Type.Array(Addon),
  due_on_arrival: Type.Integer({ description: "Minor units: the total of a requested, confirmed or completed booking; 0 for a no-show, whose fee is information only, and for a reseller's booking, paid via the reseller" }),
  checked_in_at: Nullable(Instant),
  note: Nullable(Type.String({ description: "The booking's internal note" })),
  channel: BookingChannel,
  reseller: Nullable({ ...BookingReseller, description: 'A booking a reseller sold (channel octo): its guest paid the reseller, so there is nothing to collect ("paid via <name>")' }),
  language: BookingFields.properties.language,
}))
export type ManifestEntry = Static<typeof ManifestEntry>

const StatusTotal = Type.Object({ bookings: Type.Integer(), guests: Type.Integer() })

export const DepartureManifest = named('DepartureManifest', Type.Object({
  departure: Departure,
  manifest: Type.Array(ManifestEntry, { description: 'Sorted by name, then code' }),
  totals: Type.Object({
    currency: Type.String(),
    statuses: Type.Object({ requested: StatusTotal, confirmed: StatusTotal, completed: StatusTotal, no_show: StatusTotal }),
    guests: Type.Integer({ description: 'Guests (people, Σ party) expected or present: requested, confirmed and completed' }),
    seats: Type.Integer({ description: 'Seats those bookings take of the capacity (an infant on a lap takes none)' }),
    units: Type.Array(Type.Object({
      id: Type.String(),
      type: UnitType,
      name: Type.String({ description: "The name the tour gives it now (else the one its bookings kept)" }),
      quantity: Type.Integer(),
      amount: Type.Integer({ description: 'Minor units, as the bookings were priced' }),
    }), { description: "Per unit, over the requested, confirmed and completed bookings, in the tour's order: what a guide counts heads by (\"5 Adult, 2 Child\")" }),
    addons: Type.Array(Addon, { description: 'Per add-on, over the requested, confirmed and completed bookings' }),
    languages: Type.Array(Type.Object({
      language: BookingFields.properties.language,
      bookings: Type.Integer(),
      guests: Type.Integer({ description: 'People, Σ party' }),
    }), { description: "Per language the bookings are guided in, over the requested, confirmed and completed bookings, in the tour's order of "
      + 'languages (others after): how a guide splits the group ("5 en, 3 pt")' }),
    due_on_arrival: Type.Integer({ description: 'Minor units, over the requested, confirmed and completed bookings' }),
  }),
}))
export type DepartureManifest = Static<typeof DepartureManifest>

export const DepartureChange = named('DepartureChange', Type.Object({
  capacity: Type.Optional(Capacity),
  closed: Type.Optional(Type.Boolean({ description: 'true closes it to new holds, false reopens it' })),
  note: Type.Optional(Nullable(Type.String({ maxLength: 2000, description: 'null or blank removes it' }))),
}, { additionalProperties: false, minProperties: 1 }))

export const DepartureCancelRequest = named('DepartureCancelRequest', Type.Object({
  reason: NonBlankString(500, 'Kept on every cancelled booking and in the audit log'),
  notify_guests: Type.Optional(Type.Boolean({ description: 'Email each guest that the departure is cancelled (default true)' })),
}, { additionalProperties: false }))

export const DepartureCancelled = named('DepartureCancelled', Type.Object({
  departure: Departure,
  cancelled_bookings: Type.Integer({ description: 'Requested and confirmed bookings cancelled by this request' }),
  released_holds: Type.Integer({ description: 'Holds released by this request' }),
}))

export const NewDeparture = named('NewDeparture', Type.Object({
  tour_id: TourId,
  start: Type.String({ format: 'date-time', maxLength: 64, description: 'An instant in the future, on a whole minute, that the schedule does not give' }),
  capacity: Type.Optional(Capacity),
}, { additionalProperties: false }))
