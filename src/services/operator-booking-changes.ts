import { Temporal } from 'temporal-polyfill'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { bookingPolicyOf, cancellableUntil } from '../domain/cancellation.ts'
import { guidedLanguage } from '../domain/booking-language.ts'
import { addonLinesOf, bookableDeparture, NOT_RESOLD, policyOf, type BookingRecord } from '../domain/booking.ts'
import { toStoredInstant } from '../domain/instant-format.ts'
import { priceBooking, requireAddons } from '../domain/pricing.ts'
import { changedMix } from '../domain/unit-change.ts'
import { unitMix } from '../domain/units.ts'
import type { Departure } from '../domain/schedule.ts'
import { ApiError, type FieldError } from '../errors/api-error.ts'
import type { BookingChange, StaffBookingRequest } from '../schemas/admin/booking.ts'
import { CHECKED_OUT, isOneOf, LIVE_CHECKED_OUT } from '../schemas/booking-status.ts'
import type { CatalogTour } from '../schemas/catalog.ts'
import type { DepartureKey } from '../store/bookings.ts'
import type { BookingFieldChanges } from '../store/operator-bookings.ts'
import { newRowId } from '../store/row-id.ts'
import type { Store } from '../store/store.ts'
import type { Plan } from '../store/write-plan.ts'
import { requirePartyInRange, requireTour } from './availability.ts'
import { newBookingCode } from './booking-code.ts'
import { departureOf, takeSeatsOrRefuse } from './booking-seats.ts'
import type { DepartureMinimum } from './departure-minimum.ts'
import { invalidTransition, trimmedOrNull, type OperatorBookingPlans, type OperatorContext, type RecordRow } from './operator-booking-plan.ts'
import { normalisePhone } from './phone-number.ts'
import { requireUsablePromo } from './promo-codes.ts'

const sameDeparture = (a: DepartureKey, b: DepartureKey) => a.tour_id === b.tour_id && a.start_at === b.start_at

/** normalisePhone, its refusal naming the field where the operator API takes the phone. */
/** A booking staff take needs a way to reach the guest: an email, a phone, or both (a walk-in may have no email). */
function requireReachable(contact: { email: string | null, phone: string | null }): void {
  if (contact.email === null && contact.phone === null) {
    throw new ApiError('validation_failed', 'contact needs an email or a phone', { errors: [{ field: 'contact', message: 'needs an email or a phone' }] })
  }
}

function contactPhone(raw: string | undefined, region: string | undefined): string | null {
  try {
    return normalisePhone(raw, region)
  } catch (err) {
    if (err instanceof ApiError) throw new ApiError('validation_failed', `contact.${err.message}`, { errors: [{ field: 'contact.phone', message: (err.extra.errors as FieldError[] | undefined)?.[0]?.message ?? 'is not a valid phone number' }] })
    throw err
  }
}

/** The add-on quantities a booking has now, by id. */
const addonQuantitiesOf = (row: BookingRecord): Record<string, number> =>
  Object.fromEntries(addonLinesOf(row).map((line) => [line.id, line.quantity]))

/** The operator's bookings made or changed by hand: staff bookings, moves and resizes, contact and note, releases from quarantine. */
export function operatorBookingChanges(store: Store, plans: OperatorBookingPlans, minimum: DepartureMinimum) {
  const { bookings, promoRedemptions, audit } = store
  const { reads } = plans

  /**
   * The departure starting at `start`, under staff's limits (src/domain/booking.ts): cutoff and
   * horizon are the guests' limits, not the operator's; a departure that has ended takes no one.
   */
  function* requireOpenDeparture(catalog: InstanceCatalog, tour: CatalogTour, start: Temporal.Instant, now: Temporal.Instant): Plan<Departure> {
    const asked = { tour, timeZone: catalog.instance.timezone, start, now, limits: { by: 'staff' } } as const
    let bookable = bookableDeparture({ ...asked, added: false })
    if (bookable === 'slot_not_found') {
      const row = yield* store.departures.find({ instance_id: catalog.instance.ref, tour_id: tour.id, start_at: toStoredInstant(start) })
      if (row?.extra === 1) bookable = bookableDeparture({ ...asked, added: true })
    }
    if (bookable === 'slot_not_found') {
      throw new ApiError('slot_not_found', `${tour.title} has no departure starting at ${start}`, {
        errors: [{ field: 'start', message: 'is not a departure of this tour' }],
      })
    }
    // Under staff's limits the only other refusal: cutoff and horizon are not theirs.
    if (typeof bookable === 'string') throw new ApiError('departure_ended', 'This departure has already ended')
    return bookable
  }

  /**
   * The new departure, party, add-ons and price of a move or resize. The promo code stays
   * while the current catalog has it for the tour (its use was counted at checkout); else it
   * is dropped, with its discount.
   */
  function* repriced(row: BookingRecord, input: BookingChange, catalog: InstanceCatalog, now: Temporal.Instant,
    set: <K extends keyof BookingFieldChanges>(field: K, value: BookingFieldChanges[K]) => void): Plan<void> {
    const { catalog: tour } = requireTour(catalog, input.tour_id ?? row.tour_id)
    const startText = input.start ?? row.start_at
    const start = Temporal.Instant.from(startText)
    const moved = tour.id !== row.tour_id || !start.equals(Temporal.Instant.from(row.start_at))
    if (moved) {
      const departure = yield* requireOpenDeparture(catalog, tour, start, now)
      set('tour_id', tour.id)
      set('start_at', toStoredInstant(departure.start))
      set('end_at', toStoredInstant(departure.end))
      set('cancellable_until', toStoredInstant(cancellableUntil(policyOf(row, catalog.instance.cancellation_policy), departure.start)))
    }
    const units = changedMix(row, catalog.tourById.get(row.tour_id)?.catalog, tour, input)
    const party = units.party
    requirePartyInRange(tour.party, party)
    const addons = requireAddons(tour, input.addons ?? addonQuantitiesOf(row))
    const promo = row.promo_code === null ? undefined : catalog.instance.promo_codes.find((p) => p.code === row.promo_code)
    const promoApplies = promo !== undefined && (!promo.tour_ids || promo.tour_ids.includes(tour.id))
    const price = priceBooking({ units, addons, promo: promoApplies ? promo : null })
    set('party', party)
    set('seats', units.seats)
    set('units', JSON.stringify(units.lines))
    set('addons', JSON.stringify(price.lines))
    set('promo_code', promoApplies ? row.promo_code : null)
    set('subtotal', price.subtotal)
    set('addons_total', price.addons)
    set('discount', price.discount)
    set('total', price.total)
  }

  return {
    /**
     * Moves or resizes a live booking, or changes its contact or note, in one plan: the seats
     * on the new departure are taken under the capacity rule before the old are freed, and
     * the price is recomputed from the current catalog. Nothing to change: answered unchanged.
     */
    change(ctx: OperatorContext, codeOrId: string, input: BookingChange): Promise<BookingRecord> {
      const { catalog, now } = ctx
      const instanceId = catalog.instance.ref
      return plans.onBooking(ctx, codeOrId, function* (row) {
        if (!isOneOf(CHECKED_OUT, row.status)) throw invalidTransition(row, 'changed before checkout')
        const changes: BookingFieldChanges = {}
        const set = <K extends keyof BookingFieldChanges>(field: K, value: BookingFieldChanges[K]) => {
          if (value !== row[field]) changes[field] = value
        }
        const moves = input.start !== undefined || input.tour_id !== undefined || input.party !== undefined || input.units !== undefined || input.addons !== undefined
        if (moves) {
          if (!isOneOf(LIVE_CHECKED_OUT, row.status)) throw invalidTransition(row, 'moved or resized')
          yield* repriced(row, input, catalog, now, set)
        }
        if (input.contact) {
          if (input.contact.name !== undefined) set('contact_name', input.contact.name.trim())
          if (input.contact.email !== undefined) set('contact_email', input.contact.email === null ? null : input.contact.email.trim())
          if (input.contact.phone !== undefined) set('contact_phone', input.contact.phone === null ? null : contactPhone(input.contact.phone, catalog.instance.phone_region))
          const after = { ...row, ...changes }
          requireReachable({ email: after.contact_email, phone: after.contact_phone })
        }
        if (input.internal_note !== undefined) set('internal_note', trimmedOrNull(input.internal_note))
        if (Object.keys(changes).length === 0) return row

        if (moves && row.quarantined === 0) {
          const from = departureOf(row)
          const to = departureOf({ ...row, ...changes })
          const seats = changes.seats ?? row.seats
          const capacity = catalog.tourById.get(to.tour_id)?.catalog.capacity ?? 0
          yield* takeSeatsOrRefuse(bookings, instanceId, sameDeparture(from, to)
            ? [{ key: to, seats: seats - row.seats, capacity }]
            : [{ key: to, seats, capacity }, { key: from, seats: -row.seats, capacity: 0 }], toStoredInstant(now))
          if (row.promo_code && changes.promo_code === null) yield* promoRedemptions.release(instanceId, row.promo_code)
        }
        const at = toStoredInstant(now)
        const changed = (yield* reads.update(instanceId, row.id, changes, at))!
        if (moves && row.quarantined === 0) {
          const onSameDeparture = sameDeparture(departureOf(row), departureOf(changed))
          yield* minimum.reportIfReached(catalog, departureOf(changed), onSameDeparture ? changed.party - row.party : changed.party, at, true)
        }
        const before = Object.fromEntries(Object.keys(changes).map((k) => [k, row[k as keyof BookingFieldChanges]]))
        yield* audit.record({
          instanceId, at, actor: ctx.actor, action: 'booking.changed', target: { type: 'booking', id: row.id, ref: row.code }, requestId: ctx.requestId,
          before: { ...before, version: row.version }, after: { ...changes, version: changed.version },
        })
        return changed
      })
    },

    /** A booking taken by staff (phone, walk-in): channel staff, no cutoff or horizon, capacity and closed departures as for guests. */
    async create(ctx: OperatorContext, input: StaffBookingRequest, record?: RecordRow): Promise<BookingRecord> {
      const { catalog, now } = ctx
      const instance = catalog.instance
      const { catalog: tour } = requireTour(catalog, input.tour_id)
      const start = Temporal.Instant.from(input.start)
      const units = unitMix(tour, { party: input.party, units: input.units })
      requirePartyInRange(tour.party, units.party)
      const addons = requireAddons(tour, input.addons ?? {})
      const promoCode = input.promo_code?.trim() ? input.promo_code.trim().toUpperCase() : null
      const promo = promoCode === null ? null
        : requireUsablePromo(catalog, promoCode, tour.id, now, await promoRedemptions.uses(instance.ref, promoCode))
      const price = priceBooking({ units, addons, promo })
      const contact = { name: input.contact.name.trim(), email: input.contact.email?.trim() ?? null, phone: contactPhone(input.contact.phone, instance.phone_region) }
      requireReachable(contact)
      if (input.notify_guest === true && contact.email === null) {
        throw new ApiError('validation_failed', 'notify_guest needs contact.email: the guest can only be emailed at an address', { errors: [{ field: 'notify_guest', message: 'needs contact.email' }] })
      }
      const at = toStoredInstant(now)
      const id = newRowId()

      return store.write(function* () {
        const departure = yield* requireOpenDeparture(catalog, tour, start, now)
        let code = newBookingCode()
        while (yield* bookings.codeExists(instance.ref, code)) code = newBookingCode()
        const row: BookingRecord = {
          id,
          instance_id: instance.ref,
          // session_id is required; a staff booking has no guest session, so it gets one of its own
          // that no guest can ever name (guest session ids are 12 letters and digits).
          session_id: `staff:${id}`,
          tour_id: tour.id,
          start_at: toStoredInstant(departure.start),
          end_at: toStoredInstant(departure.end),
          party: units.party,
          seats: units.seats,
          units: JSON.stringify(units.lines),
          status: input.status ?? 'confirmed',
          quarantined: 0,
          addons: JSON.stringify(price.lines),
          promo_code: promoCode,
          referral_code: null,
          currency: instance.currency,
          subtotal: price.subtotal,
          addons_total: price.addons,
          discount: price.discount,
          total: price.total,
          hold_expires_at: null,
          code,
          contact_name: contact.name,
          contact_email: contact.email,
          contact_phone: contact.phone,
          cancellable_until: toStoredInstant(cancellableUntil(instance.cancellation_policy, departure.start)),
          cancellation_fee_percent: null,
          cancellation_fee: null,
          cancelled_at: null,
          created_at: at,
          updated_at: at,
          version: 1,
          channel: 'staff',
          policy: JSON.stringify(bookingPolicyOf(instance.cancellation_policy)),
          checked_in_at: null,
          internal_note: trimmedOrNull(input.internal_note),
          decline_reason: null,
          cancelled_by: null,
          cancellation_reason: null,
          fee_waived: null,
          ...NOT_RESOLD,
          language: guidedLanguage(tour),
        }
        if (promo && !(yield* promoRedemptions.redeem(instance.ref, promo.code, promo.max_uses ?? null))) {
          throw new ApiError('invalid_promo_code', 'This promo code has been used up', { errors: [{ field: 'promo_code', message: 'has no uses left' }] })
        }
        yield* takeSeatsOrRefuse(bookings, instance.ref, [{ key: departureOf(row), seats: row.seats, capacity: tour.capacity }], at)
        yield* bookings.insert(row, { notifyGuest: input.notify_guest ?? false })
        yield* minimum.reportIfReached(catalog, departureOf(row), row.party, at, true)
        yield* audit.record({
          instanceId: instance.ref, at, actor: ctx.actor, action: 'booking.created', target: { type: 'booking', id, ref: code }, requestId: ctx.requestId,
          after: { status: row.status, code, channel: 'staff', tour_id: tour.id, start_at: row.start_at, party: row.party, seats: row.seats, units: row.units, total: row.total, notify_guest: input.notify_guest ?? false },
        })
        if (record) yield* record(row)
        return row
      })
    },

    /**
     * A booking quarantined by a decoy becomes an ordinary one, in the status its checkout
     * gave it: its seats are taken under the capacity rule and its promo code's use counted.
     */
    releaseQuarantine(ctx: OperatorContext, codeOrId: string, record?: RecordRow): Promise<BookingRecord> {
      const instanceId = ctx.catalog.instance.ref
      return plans.onBooking(ctx, codeOrId, function* (row) {
        if (row.quarantined === 0) {
          if (record) yield* record(row)
          return row
        }
        if (!isOneOf(LIVE_CHECKED_OUT, row.status)) throw invalidTransition(row, 'released from quarantine')
        const at = toStoredInstant(ctx.now)
        if (row.promo_code) {
          const promo = ctx.catalog.instance.promo_codes.find((p) => p.code === row.promo_code)
          if (promo && !(yield* promoRedemptions.redeem(instanceId, row.promo_code, promo.max_uses ?? null))) {
            throw new ApiError('invalid_promo_code', 'The promo code of this booking has been used up since', { errors: [{ field: 'promo_code', message: 'has no uses left' }] })
          }
        }
        const capacity = ctx.catalog.tourById.get(row.tour_id)?.catalog.capacity ?? 0
        yield* takeSeatsOrRefuse(bookings, instanceId, [{ key: departureOf(row), seats: row.seats, capacity }], at)
        const released = (yield* reads.update(instanceId, row.id, { quarantined: 0 }, at))!
        yield* minimum.reportIfReached(ctx.catalog, departureOf(released), released.party, at, true)
        yield* audit.record({
          instanceId, at, actor: ctx.actor, action: 'booking.quarantine_released', target: { type: 'booking', id: row.id, ref: row.code }, requestId: ctx.requestId,
          before: { quarantined: true, version: row.version }, after: { quarantined: false, version: released.version },
        })
        if (record) yield* record(released)
        return released
      })
    },
  }
}
