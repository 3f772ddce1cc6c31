import { Temporal } from 'temporal-polyfill'
import { checkedOutStatus } from '../domain/booking-status.ts'
import { bookingPolicyOf, cancellableUntil, guestCancellation } from '../domain/cancellation.ts'
import { guidedLanguage } from '../domain/booking-language.ts'
import { bookableDeparture, NOT_RESOLD, policyOf, type BookingRecord } from '../domain/booking.ts'
import { fromStoredInstant, toStoredInstant } from '../domain/instant-format.ts'
import { bookingSessionExpiry } from '../domain/session-lifetime.ts'
import { priceBooking, requireAddons } from '../domain/pricing.ts'
import { unitMix } from '../domain/units.ts'
import { ApiError } from '../errors/api-error.ts'
import { LIVE, LIVE_CHECKED_OUT, SHOWN_TO_GUEST, type BookingStatus } from '../schemas/booking-status.ts'
import type { BookingRequest } from '../schemas/booking.ts'
import type { CatalogPolicy, CatalogTour } from '../schemas/catalog.ts'
import type { BookingSelector } from '../store/bookings.ts'
import type { DepartureRepository } from '../store/departures.ts'
import { newRowId } from '../store/row-id.ts'
import type { Store } from '../store/store.ts'
import type { Plan, RecordAnswer as RecordBookingAnswer } from '../store/write-plan.ts'
import { lastBookableDate, requirePartyInRange, requireOfferedTour } from './availability.ts'
import { newBookingCode } from './booking-code.ts'
import type { BookingContext, BookingKey, CheckoutDetails } from './booking-context.ts'
import { departureOf, seatsFreedBy, takeSeatsOrRefuse } from './booking-seats.ts'
import type { DepartureMinimum } from './departure-minimum.ts'
import { requireUsablePromo } from './promo-codes.ts'

type RecordAnswer = RecordBookingAnswer<BookingRecord>

/** A hold whose time has run out by `now`, whether or not it has been swept yet. */
const isLapsed = (row: BookingRecord, now: string) => row.status === 'held' && row.hold_expires_at! <= now

/** The one answer to a lookup that finds nothing: whether the code exists, or the token ever named a booking, is not told. */
export const noBookingFound = (key: BookingKey) => new ApiError('no_booking', 'bookingId' in key
  ? 'This manage link is not valid or its departure has ended; look the booking up by its code and email instead'
  : 'No booking has this code and email address; check both as they are in the confirmation')

/** What DELETE /booking does to this booking at `now`: the rule both the cancellation and the record's cancellation_now follow. */
export const guestCancellationOf = (row: BookingRecord, current: CatalogPolicy, now: Temporal.Instant) => guestCancellation({
  status: row.status,
  total: row.total,
  start: fromStoredInstant(row.start_at),
  cancellableUntil: fromStoredInstant(row.cancellable_until),
}, policyOf(row, current), now)

/**
 * The departure a guest asks for, under the guest's limits (src/domain/booking.ts). A closed or
 * cancelled one is found too: the seat change refuses it.
 */
export async function requireDeparture(ctx: Pick<BookingContext, 'catalog' | 'now'>, tour: CatalogTour, startText: string, departures: DepartureRepository) {
  const start = Temporal.Instant.from(startText)
  const lastDate = lastBookableDate(ctx.catalog, ctx.now)
  const asked = { tour, timeZone: ctx.catalog.instance.timezone, start, now: ctx.now, limits: { by: 'guest', lastDate: lastDate.toString() } } as const
  let bookable = bookableDeparture({ ...asked, added: false })
  if (bookable === 'slot_not_found') {
    const stored = await departures.stored({ instance_id: ctx.catalog.instance.ref, tour_id: tour.id, start_at: toStoredInstant(start) })
    if (stored?.extra === 1) bookable = bookableDeparture({ ...asked, added: true })
  }
  if (bookable === 'slot_not_found') {
    throw new ApiError('slot_not_found', `${tour.title} has no departure starting at ${startText}`, {
      errors: [{ field: 'start', message: 'is not a scheduled start of this tour' }],
    })
  }
  if (bookable === 'date_out_of_range') {
    throw new ApiError('date_out_of_range', `Departures can be booked up to ${lastDate}`, { errors: [{ field: 'start', message: `must be on or before ${lastDate}` }] })
  }
  if (typeof bookable === 'string') throw new ApiError('cutoff_passed', `Booking for this departure closed ${tour.cutoff_minutes} minutes before its start`)
  return bookable
}

export function bookingService(store: Store, minimum: DepartureMinimum) {
  const { bookings, promoRedemptions } = store

  /** Gives back the seats of bookings that left a seat-holding status; a booking no longer there changed nothing. */
  function* freeSeatsOf(rows: readonly BookingRecord[]): Plan<void> {
    const changes = seatsFreedBy(rows)
    if (changes.length > 0) yield* bookings.changeSeats(changes)
  }

  /** Expires the selected lapsed holds and gives their seats back. */
  function* expireLapsed(instanceId: string, selector: BookingSelector, at: string): Plan<BookingRecord[]> {
    const expired = yield* bookings.transition(instanceId, selector, 'held', 'expired', at)
    yield* freeSeatsOf(expired)
    return expired
  }

  /**
   * The session's booking in one of `statuses`, inside a plan that has locked the session
   * (`sessions.lockForBooking`, which answers `lookedUp`): the booking a lookup made the
   * session's, read again once its own session is locked too (the rule for every plan that
   * changes a booking), or else the session's own most recent one.
   */
  function* sessionBookingIn(instanceId: string, sessionId: string, lookedUp: string | null, statuses: readonly BookingStatus[]): Plan<BookingRecord | undefined> {
    if (lookedUp === null) return yield* bookings.latestForSessionIn(instanceId, sessionId, statuses)
    let row = yield* bookings.byId(instanceId, lookedUp)
    if (row && row.session_id !== sessionId) {
      yield* bookings.lockSession(instanceId, row.session_id)
      row = yield* bookings.byId(instanceId, lookedUp)
    }
    return row && statuses.includes(row.status) ? row : undefined
  }

  /** The booking a lookup names, read inside a plan: by code (any case, spaces ignored) and email (any case), or by id. */
  function* bookingByKey(instanceId: string, key: BookingKey): Plan<BookingRecord | undefined> {
    if ('code' in key) return yield* bookings.byCodeAndEmail(instanceId, key.code.replace(/\s+/g, '').toUpperCase(), key.email.trim().toLowerCase())
    return key.bookingId === null ? undefined : yield* bookings.byId(instanceId, key.bookingId)
  }

  return {
    async hold(ctx: BookingContext, request: BookingRequest, quarantined: boolean, record?: RecordAnswer): Promise<BookingRecord> {
      const { catalog } = ctx
      const instance = catalog.instance
      const { catalog: tour } = requireOfferedTour(catalog, request.tour_id)
      const departure = await requireDeparture(ctx, tour, request.start, store.departures)
      const units = unitMix(tour, request)
      requirePartyInRange(tour.party, units.party)
      const addons = requireAddons(tour, request.addons ?? {})
      const promoCode = request.promo_code?.trim() ? request.promo_code.trim().toUpperCase() : null
      const promo = promoCode === null ? null
        : requireUsablePromo(catalog, promoCode, tour.id, ctx.now, await promoRedemptions.uses(instance.ref, promoCode))
      const price = priceBooking({ units, addons, promo })

      const now = toStoredInstant(ctx.now)
      const row: BookingRecord = {
        id: newRowId(),
        instance_id: instance.ref,
        session_id: ctx.sessionId,
        tour_id: tour.id,
        start_at: toStoredInstant(departure.start),
        end_at: toStoredInstant(departure.end),
        party: units.party,
        seats: units.seats,
        units: JSON.stringify(units.lines),
        status: 'held',
        quarantined: quarantined ? 1 : 0,
        addons: JSON.stringify(price.lines),
        promo_code: promoCode,
        referral_code: request.referral_code?.trim() || null,
        currency: instance.currency,
        subtotal: price.subtotal,
        addons_total: price.addons,
        discount: price.discount,
        total: price.total,
        hold_expires_at: toStoredInstant(ctx.now.add({ seconds: instance.holdSeconds })),
        // The code and the contact come at checkout.
        code: null, contact_name: null, contact_email: null, contact_phone: null,
        cancellable_until: toStoredInstant(cancellableUntil(instance.cancellation_policy, departure.start)),
        cancellation_fee_percent: null,
        cancellation_fee: null,
        cancelled_at: null,
        created_at: now,
        updated_at: now,
        version: 1,
        channel: 'web',
        policy: JSON.stringify(bookingPolicyOf(instance.cancellation_policy)),
        checked_in_at: null,
        internal_note: null,
        decline_reason: null,
        cancelled_by: null,
        cancellation_reason: null,
        fee_waived: null,
        ...NOT_RESOLD,
        language: guidedLanguage(tour, request.language, ctx.language),
      }
      return store.write(function* () {
        yield* bookings.lockSession(instance.ref, ctx.sessionId)
        // The new hold is the session's booking, instead of one a lookup made its booking.
        yield* store.sessions.keepUntil(instance.ref, ctx.sessionId, toStoredInstant(bookingSessionExpiry(ctx.now)), null)
        // The session's current hold is replaced: expired if its time had run out, else released.
        const replaced = yield* bookings.transition(instance.ref, { session: ctx.sessionId }, 'held', { lapsedBy: now, lapsed: 'expired', live: 'released' }, now)
        const seats = seatsFreedBy(replaced)
        if (!quarantined) seats.push({ key: departureOf(row), seats: units.seats, capacity: tour.capacity })
        yield* takeSeatsOrRefuse(bookings, instance.ref, seats, now)
        yield* bookings.insert(row)
        if (record) yield* record(row)
        return row
      })
    },

    /** The booking a lookup made the session's booking, or else the session's most recent booking that it has not released. */
    async current(ctx: BookingContext): Promise<BookingRecord> {
      const instanceId = ctx.catalog.instance.ref
      const now = toStoredInstant(ctx.now)
      const lookedUp = ctx.lookedUpBookingId
      if (lookedUp !== null) {
        const found = await store.read(() => bookings.byId(instanceId, lookedUp))
        if (!found) throw new ApiError('no_booking', 'This session has no booking')
        return found
      }
      let row = await bookings.latestForSession(instanceId, ctx.sessionId, SHOWN_TO_GUEST)
      if (row && isLapsed(row, now)) {
        const lapsed = row
        row = await store.write(function* () {
          const [expired] = yield* expireLapsed(instanceId, { id: lapsed.id }, now)
          return expired ?? (yield* bookings.latestForSessionIn(instanceId, ctx.sessionId, SHOWN_TO_GUEST))
        })
      }
      if (!row) throw new ApiError('no_booking', 'This session has no booking')
      return row
    },

    /** DELETE /booking: releases a hold, or cancels a requested or confirmed booking under the policy. */
    async releaseOrCancel(ctx: BookingContext): Promise<BookingRecord> {
      const instance = ctx.catalog.instance
      const now = toStoredInstant(ctx.now)
      // The expiry of a lapsed hold must commit even when the answer is 404, so the plan
      // answers null rather than throwing (a throw would roll it back).
      const changed = await store.write(function* (): Plan<BookingRecord | null> {
        const lookedUp = yield* store.sessions.lockForBooking(instance.ref, ctx.sessionId, ctx.lookedUpBookingId)
        let row = yield* sessionBookingIn(instance.ref, ctx.sessionId, lookedUp, LIVE)
        if (row && isLapsed(row, now)) {
          // A lapsed hold is written as expired (and stays so whatever the answer); an older
          // request or confirmed booking behind it is what DELETE then acts on.
          yield* expireLapsed(instance.ref, { id: row.id }, now)
          row = yield* bookings.latestForSessionIn(instance.ref, ctx.sessionId, LIVE)
        }
        if (!row) return null
        if (row.status === 'held') {
          const [released] = yield* bookings.transition(instance.ref, { read: row }, 'held', 'released', now)
          if (released) yield* freeSeatsOf([released])
          return released ?? null
        }
        const terms = guestCancellationOf(row, instance.cancellation_policy, ctx.now)
        if (!terms.allowed) {
          throw new ApiError('cancellation_not_allowed', 'The cancellation window for this booking has closed; contact the operator')
        }
        const [cancelled] = yield* bookings.transition(instance.ref, { read: row }, row.status as BookingStatus, 'cancelled', now, {
          cancelled_at: now,
          cancellation_fee_percent: terms.feePercent,
          cancellation_fee: terms.fee,
          cancelled_by: 'guest',
          fee_waived: 0,
        })
        if (!cancelled) return null
        yield* freeSeatsOf([cancelled])
        if (cancelled.promo_code && cancelled.quarantined === 0) yield* promoRedemptions.release(instance.ref, cancelled.promo_code)
        return cancelled
      })
      if (!changed) throw new ApiError('no_booking', 'This session has no held, requested or confirmed booking')
      return changed
    },

    /**
     * POST /booking/lookup: the booking with this code and contact email, or the one a manage
     * token named, becomes the session's booking, whichever device the session is on. It
     * replaces the session's hold as a new hold would (released, or expired if lapsed), and the
     * session lasts as long as after a hold. No such booking: 404, with the same answer whether
     * or not the code exists, and nothing changes. A quarantined booking is found like any other.
     */
    async lookUp(ctx: BookingContext, key: BookingKey): Promise<BookingRecord> {
      const instanceId = ctx.catalog.instance.ref
      const now = toStoredInstant(ctx.now)
      return store.write(function* () {
        yield* bookings.lockSession(instanceId, ctx.sessionId)
        const found = yield* bookingByKey(instanceId, key)
        // A manage link lasts until the departure ends, even when the operator moved it earlier.
        if (!found || found.code === null || ('bookingId' in key && found.end_at <= now)) throw noBookingFound(key)
        const replaced = yield* bookings.transition(instanceId, { session: ctx.sessionId }, 'held', { lapsedBy: now, lapsed: 'expired', live: 'released' }, now)
        yield* freeSeatsOf(replaced)
        yield* store.sessions.keepUntil(instanceId, ctx.sessionId, toStoredInstant(bookingSessionExpiry(ctx.now)), found.id)
        return found
      })
    },

    /**
     * Turns the session's live hold into a request (or a confirmed booking for instant
     * tours). A booking already checked out is answered as it is, changing nothing.
     */
    async checkout(ctx: BookingContext, details: CheckoutDetails, quarantined: boolean, record?: RecordAnswer): Promise<BookingRecord> {
      const { catalog } = ctx
      const instance = catalog.instance
      const now = toStoredInstant(ctx.now)
      const outcome = await store.write(function* (): Plan<{ answer: BookingRecord } | { expired: true }> {
        const lookedUp = yield* store.sessions.lockForBooking(instance.ref, ctx.sessionId, ctx.lookedUpBookingId)
        // A session whose booking a lookup chose holds nothing (the lookup released its hold,
        // a new hold ends the choice): its checkout can only repeat that booking's.
        const row = yield* sessionBookingIn(instance.ref, ctx.sessionId, lookedUp, lookedUp === null ? [...LIVE, 'expired'] : LIVE_CHECKED_OUT)
        if (!row) throw new ApiError('no_booking', 'This session has no held booking to check out')
        if (row.status === 'requested' || row.status === 'confirmed') {
          if (record) yield* record(row)
          return { answer: row }
        }
        if (row.status === 'expired' || isLapsed(row, now)) {
          yield* expireLapsed(instance.ref, { id: row.id }, now)
          return { expired: true }
        }
        const tour = catalog.tourById.get(row.tour_id)?.catalog
        if (!tour) throw new ApiError('slot_not_found', 'This tour is no longer offered')
        const isQuarantined = quarantined || row.quarantined === 1
        if (row.promo_code && !isQuarantined) {
          const promo = instance.promo_codes.find((p) => p.code === row.promo_code)
          if (!promo || !(yield* promoRedemptions.redeem(instance.ref, row.promo_code, promo.max_uses ?? null))) {
            throw new ApiError('invalid_promo_code', 'This promo code has been used up; hold the slot again without it', {
              errors: [{ field: 'promo_code', message: 'has no uses left' }],
            })
          }
        }
        let code = newBookingCode()
        while (yield* bookings.codeExists(instance.ref, code)) code = newBookingCode()
        const [checkedOut] = yield* bookings.transition(instance.ref, { read: row }, 'held', checkedOutStatus(tour.confirmation), now, {
          code,
          contact_name: details.name.trim(),
          contact_email: details.email.trim(),
          contact_phone: details.phone,
          hold_expires_at: null,
          quarantined: isQuarantined ? 1 : 0,
        })
        // Only the sweep changes another session's hold unasked, and it only expires lapsed ones.
        if (!checkedOut) throw new ApiError('hold_expired', 'The hold ran out before checkout; hold the slot again')
        if (isQuarantined && row.quarantined === 0) yield* freeSeatsOf([row])
        else if (!isQuarantined) yield* minimum.reportIfReached(catalog, departureOf(checkedOut), checkedOut.party, now, false)
        if (record) yield* record(checkedOut)
        return { answer: checkedOut }
      })
      if ('expired' in outcome) throw new ApiError('hold_expired', 'The hold ran out before checkout; hold the slot again')
      return outcome.answer
    },

    /** Writes `expired` for lapsed holds nobody has read; safe to run on several nodes at once. */
    async sweepLapsedHolds(now: Temporal.Instant, batch = 200): Promise<number> {
      const at = toStoredInstant(now)
      return store.write(function* () {
        const lapsed = yield* bookings.lapsedHolds(at, batch)
        let expired = 0
        for (const instanceId of new Set(lapsed.map((row) => row.instance_id))) {
          const ids = lapsed.filter((row) => row.instance_id === instanceId).map((row) => row.id)
          expired += (yield* expireLapsed(instanceId, { ids }, at)).length
        }
        return expired
      })
    },
  }
}
export type BookingService = ReturnType<typeof bookingService>
