import { Temporal } from 'temporal-polyfill'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { cancellableUntil } from '../domain/cancellation.ts'
import { addonLinesOf, bookableDeparture, policyOf, type BookingLimits, type BookingRecord } from '../domain/booking.ts'
import { toStoredInstant } from '../domain/instant-format.ts'
import { priceBooking, requireAddons } from '../domain/pricing.ts'
import type { Departure } from '../domain/schedule.ts'
import { changedMix } from '../domain/unit-change.ts'
import { ApiError } from '../errors/api-error.ts'
import type { CatalogTour } from '../schemas/catalog.ts'
import type { DepartureKey } from '../store/bookings.ts'
import type { BookingFieldChanges } from '../store/operator-bookings.ts'
import type { Store } from '../store/store.ts'
import type { Plan } from '../store/write-plan.ts'
import { requirePartyInRange, requireTour } from './availability.ts'
import { departureOf, takeSeatsOrRefuse } from './booking-seats.ts'
import type { DepartureMinimum } from './departure-minimum.ts'

/** What a move or resize asks for; a field left out keeps the booking's own. */
export interface MixChange {
  tour_id?: string
  start?: string
  party?: number
  units?: Readonly<Record<string, number>>
  addons?: Readonly<Record<string, number>>
}

export const sameDeparture = (a: DepartureKey, b: DepartureKey) => a.tour_id === b.tour_id && a.start_at === b.start_at

/** Whether the change asks for another tour, departure, party, mix or add-ons at all. */
export const isMixChange = (input: MixChange) =>
  input.start !== undefined || input.tour_id !== undefined || input.party !== undefined || input.units !== undefined || input.addons !== undefined

/** The add-on quantities a booking has now, by id. */
const addonQuantitiesOf = (row: BookingRecord): Record<string, number> =>
  Object.fromEntries(addonLinesOf(row).map((line) => [line.id, line.quantity]))

/**
 * Moves and resizes of a booking, whoever asks: the operator's PATCH (src/services/operator-booking-changes.ts,
 * under staff's limits) and a reseller's (src/services/reseller-booking-changes.ts, under the guests' cutoff and
 * horizon). One departure rule, one pricing, one capacity rule.
 */
export function bookingMoves(store: Store, minimum: DepartureMinimum) {
  const { bookings, promoRedemptions } = store

  /** The departure of `tour` starting at `start` that a booking may move to under `limits`; else the refusal, as the API's error. */
  function* requireDepartureUnder(catalog: InstanceCatalog, tour: CatalogTour, start: Temporal.Instant, now: Temporal.Instant, limits: BookingLimits): Plan<Departure> {
    const asked = { tour, timeZone: catalog.instance.timezone, start, now, limits }
    let bookable = bookableDeparture({ ...asked, added: false })
    if (bookable === 'slot_not_found') {
      const row = yield* store.departures.find({ instance_id: catalog.instance.ref, tour_id: tour.id, start_at: toStoredInstant(start) })
      if (row?.extra === 1) bookable = bookableDeparture({ ...asked, added: true })
    }
    switch (bookable) {
      case 'slot_not_found':
        throw new ApiError('slot_not_found', `${tour.title} has no departure starting at ${start}`, {
          errors: [{ field: 'start', message: 'is not a departure of this tour' }],
        })
      case 'departure_ended': throw new ApiError('departure_ended', 'This departure has already ended')
      case 'cutoff_passed': throw new ApiError('cutoff_passed', `Booking for this departure closed ${tour.cutoff_minutes} minutes before its start`)
      case 'date_out_of_range': {
        const lastDate = limits.by === 'guest' ? limits.lastDate : ''
        throw new ApiError('date_out_of_range', `Departures can be booked up to ${lastDate}`, { errors: [{ field: 'start', message: `must be on or before ${lastDate}` }] })
      }
    }
    return bookable
  }

  return {
    requireDepartureUnder,

    /**
     * The new departure, party, add-ons and price of a move or resize, as field changes. The
     * promo code stays while the current catalog has it for the tour (its use was counted at
     * checkout); else it is dropped, with its discount.
     */
    *repriced(row: BookingRecord, input: MixChange, catalog: InstanceCatalog, now: Temporal.Instant, limits: BookingLimits,
      set: <K extends keyof BookingFieldChanges>(field: K, value: BookingFieldChanges[K]) => void): Plan<void> {
      const { catalog: tour } = requireTour(catalog, input.tour_id ?? row.tour_id)
      const start = Temporal.Instant.from(input.start ?? row.start_at)
      const moved = tour.id !== row.tour_id || !start.equals(Temporal.Instant.from(row.start_at))
      if (moved) {
        const departure = yield* requireDepartureUnder(catalog, tour, start, now, limits)
        set('tour_id', tour.id)
        set('start_at', toStoredInstant(departure.start))
        set('end_at', toStoredInstant(departure.end))
        set('cancellable_until', toStoredInstant(cancellableUntil(policyOf(row, catalog.instance.cancellation_policy), departure.start)))
      }
      const units = changedMix(row, catalog.tourById.get(row.tour_id)?.catalog, tour, input)
      requirePartyInRange(tour.party, units.party)
      const addons = requireAddons(tour, input.addons ?? addonQuantitiesOf(row))
      const promo = row.promo_code === null ? undefined : catalog.instance.promo_codes.find((p) => p.code === row.promo_code)
      const promoApplies = promo !== undefined && (!promo.tour_ids || promo.tour_ids.includes(tour.id))
      const price = priceBooking({ units, addons, promo: promoApplies ? promo : null })
      set('party', units.party)
      set('seats', units.seats)
      set('units', JSON.stringify(units.lines))
      set('addons', JSON.stringify(price.lines))
      set('promo_code', promoApplies ? row.promo_code : null)
      set('subtotal', price.subtotal)
      set('addons_total', price.addons)
      set('discount', price.discount)
      set('total', price.total)
    },

    /**
     * The seats of a move or resize, under the capacity rule: those on the new departure are
     * taken before the old are freed; a promo code the move dropped gives its use back.
     */
    *moveSeats(row: BookingRecord, changes: BookingFieldChanges, catalog: InstanceCatalog, at: string): Plan<void> {
      const instanceId = catalog.instance.ref
      const from = departureOf(row)
      const to = departureOf({ ...row, ...changes })
      const seats = changes.seats ?? row.seats
      const capacity = catalog.tourById.get(to.tour_id)?.catalog.capacity ?? 0
      yield* takeSeatsOrRefuse(bookings, instanceId, sameDeparture(from, to)
        ? [{ key: to, seats: seats - row.seats, capacity }]
        : [{ key: to, seats, capacity }, { key: from, seats: -row.seats, capacity: 0 }], at)
      if (row.promo_code && changes.promo_code === null) yield* promoRedemptions.release(instanceId, row.promo_code)
    },

    /** Tells the departure's minimum watch (src/services/departure-minimum.ts) the people a move or resize brought. */
    *reportMoved(catalog: InstanceCatalog, before: BookingRecord, after: BookingRecord, at: string): Plan<void> {
      const onSameDeparture = sameDeparture(departureOf(before), departureOf(after))
      yield* minimum.reportIfReached(catalog, departureOf(after), onSameDeparture ? after.party - before.party : after.party, at, true)
    },
  }
}
export type BookingMoves = ReturnType<typeof bookingMoves>
