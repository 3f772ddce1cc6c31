import { Temporal } from 'temporal-polyfill'
import { bookingPolicyOf, cancellableUntil } from '../domain/cancellation.ts'
import { guidedLanguage, languageOfBooking } from '../domain/booking-language.ts'
import { NOT_RESOLD, type BookingRecord } from '../domain/booking.ts'
import { toStoredInstant } from '../domain/instant-format.ts'
import { priceBooking, requireAddons } from '../domain/pricing.ts'
import { unitMix } from '../domain/units.ts'
import { ApiError, type FieldError } from '../errors/api-error.ts'
import type { BookingChange, StaffBookingRequest } from '../schemas/admin/booking.ts'
import { CHECKED_OUT, isOneOf, LIVE_CHECKED_OUT } from '../schemas/booking-status.ts'
import type { BookingFieldChanges } from '../store/operator-bookings.ts'
import { newRowId } from '../store/row-id.ts'
import type { Store } from '../store/store.ts'
import { requirePartyInRange, requireTour } from './availability.ts'
import { bookingMoves, isMixChange } from './booking-move.ts'
import { newBookingCode } from './booking-code.ts'
import { departureOf, takeSeatsOrRefuse } from './booking-seats.ts'
import type { DepartureMinimum } from './departure-minimum.ts'
import { invalidTransition, trimmedOrNull, type OperatorBookingPlans, type OperatorContext, type RecordRow } from './operator-booking-plan.ts'
import { normalisePhone } from './phone-number.ts'
import { requireUsablePromo } from './promo-codes.ts'

/** A booking staff take needs a way to reach the guest: an email, a phone, or both (a walk-in may have no email). */
function requireReachable(contact: { email: string | null, phone: string | null }): void {
  if (contact.email === null && contact.phone === null) {
    throw new ApiError('validation_failed', 'contact needs an email or a phone', { errors: [{ field: 'contact', message: 'needs an email or a phone' }] })
  }
}

/** normalisePhone, its refusal naming the field where the operator API takes the phone. */
function contactPhone(raw: string | undefined, region: string | undefined): string | null {
  try {
    return normalisePhone(raw, region)
  } catch (err) {
    if (err instanceof ApiError) throw new ApiError('validation_failed', `contact.${err.message}`, { errors: [{ field: 'contact.phone', message: (err.extra.errors as FieldError[] | undefined)?.[0]?.message ?? 'is not a valid phone number' }] })
    throw err
  }
}

/** The operator's bookings made or changed by hand: staff bookings, moves and resizes, contact and note, releases from quarantine. */
export function operatorBookingChanges(store: Store, plans: OperatorBookingPlans, minimum: DepartureMinimum) {
  const { bookings, promoRedemptions, audit } = store
  const { reads } = plans
  const moves = bookingMoves(store, minimum)
  const STAFF_LIMITS = { by: 'staff' } as const

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
        const moved = isMixChange(input)
        if (moved) {
          if (!isOneOf(LIVE_CHECKED_OUT, row.status)) throw invalidTransition(row, 'moved or resized')
          yield* moves.repriced(row, input, catalog, now, STAFF_LIMITS, set)
        }
        if (input.contact) {
          if (input.contact.name !== undefined) set('contact_name', input.contact.name.trim())
          if (input.contact.email !== undefined) set('contact_email', input.contact.email === null ? null : input.contact.email.trim())
          if (input.contact.phone !== undefined) set('contact_phone', input.contact.phone === null ? null : contactPhone(input.contact.phone, catalog.instance.phone_region))
          const after = { ...row, ...changes }
          requireReachable({ email: after.contact_email, phone: after.contact_phone })
        }
        if (input.internal_note !== undefined) set('internal_note', trimmedOrNull(input.internal_note))
        const tourId = input.tour_id ?? row.tour_id
        if (input.language !== undefined || tourId !== row.tour_id) {
          const current = languageOfBooking(row, catalog.tourById.get(row.tour_id)?.catalog, catalog.instance)
          const language = guidedLanguage(requireTour(catalog, tourId).catalog, input.language ?? current)
          // A booking that kept no language reads as its tour's first: after a move it must say its own.
          if (language !== current || (row.language === null && tourId !== row.tour_id)) set('language', language)
        }
        if (Object.keys(changes).length === 0) return row

        const at = toStoredInstant(now)
        if (moved && row.quarantined === 0) yield* moves.moveSeats(row, changes, catalog, at)
        const changed = (yield* reads.update(instanceId, row.id, changes, at))!
        if (moved && row.quarantined === 0) yield* moves.reportMoved(catalog, row, changed, at)
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
      const language = guidedLanguage(tour, input.language)
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
        const departure = yield* moves.requireDepartureUnder(catalog, tour, start, now, STAFF_LIMITS)
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
          language,
        }
        if (promo && !(yield* promoRedemptions.redeem(instance.ref, promo.code, promo.max_uses ?? null))) {
          throw new ApiError('invalid_promo_code', 'This promo code has been used up', { errors: [{ field: 'promo_code', message: 'has no uses left' }] })
        }
        yield* takeSeatsOrRefuse(bookings, instance.ref, [{ key: departureOf(row), seats: row.seats, capacity: tour.capacity }], at)
        yield* bookings.insert(row, { notifyGuest: input.notify_guest ?? false })
        yield* minimum.reportIfReached(catalog, departureOf(row), row.party, at, true)
        yield* audit.record({
          instanceId: instance.ref, at, actor: ctx.actor, action: 'booking.created', target: { type: 'booking', id, ref: code }, requestId: ctx.requestId,
          after: { status: row.status, code, channel: 'staff', tour_id: tour.id, start_at: row.start_at, party: row.party, seats: row.seats, units: row.units, language, total: row.total, notify_guest: input.notify_guest ?? false },
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
