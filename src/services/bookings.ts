import { randomUUID } from 'node:crypto'
import { Temporal } from 'temporal-polyfill'
import { checkedOutStatus, SEAT_HOLDING } from '../domain/booking-status.ts'
import { cancellableUntil, cancellationFee, cancellationFeePercent } from '../domain/cancellation.ts'
import { toStoredInstant } from '../domain/instant-format.ts'
import { priceBooking } from '../domain/pricing.ts'
import { findDeparture } from '../domain/schedule.ts'
import { isPastCutoff } from '../domain/slot-status.ts'
import { ApiError } from '../http/api-error.ts'
import type { Booking, BookingRequest } from '../schemas/booking.ts'
import type { CatalogTour } from '../schemas/catalog.ts'
import type { BookingRow } from '../store/bookings.ts'
import type { Db } from '../store/database.ts'
import type { Store } from '../store/store.ts'
import { lastBookableDate, requirePartyInRange, requireTour } from './availability.ts'
import { newBookingCode } from './booking-code.ts'
import { bookingView } from './booking-view.ts'
import type { InstanceCatalog } from './instance-catalog.ts'
import { requireUsablePromo } from './promo-codes.ts'

export interface BookingContext {
  catalog: InstanceCatalog
  sessionId: string
  now: Temporal.Instant
}

/** Called inside the booking's transaction with the answer, so the answer and the change commit together. */
export type RecordAnswer = (trx: Db, answer: Booking) => Promise<void>

export interface CheckoutDetails {
  name: string
  email: string
  phone: string | null
}

const departureOf = (row: BookingRow) => ({ instance_id: row.instance_id, tour_id: row.tour_id, start_at: row.start_at })
const holdsSeats = (row: BookingRow) => row.quarantined === 0 && SEAT_HOLDING.includes(row.status as never)

function requireDeparture(ctx: BookingContext, tour: CatalogTour, startText: string) {
  const start = Temporal.Instant.from(startText)
  const departure = findDeparture(tour, ctx.catalog.instance.timezone, start)
  if (!departure) {
    throw new ApiError('slot_not_found', `${tour.title} has no departure starting at ${startText}`, {
      errors: [{ field: 'start', message: 'is not a scheduled start of this tour' }],
    })
  }
  if (Temporal.Instant.compare(start, ctx.now) <= 0 || isPastCutoff(start, tour.cutoff_minutes, ctx.now)) {
    throw new ApiError('cutoff_passed', `Booking for this departure closed ${tour.cutoff_minutes} minutes before its start`)
  }
  const lastDate = lastBookableDate(ctx.catalog, ctx.now)
  if (Temporal.PlainDate.compare(Temporal.PlainDate.from(departure.date), lastDate) > 0) {
    throw new ApiError('date_out_of_range', `Departures can be booked up to ${lastDate}`, {
      errors: [{ field: 'start', message: `must be on or before ${lastDate}` }],
    })
  }
  return departure
}

function requireAddons(tour: CatalogTour, requested: Record<string, number>) {
  return Object.entries(requested).map(([id, quantity]) => {
    const addon = tour.addons.find((a) => a.id === id)
    if (!addon) {
      throw new ApiError('invalid_addon', `${tour.title} has no add-on "${id}"`, { errors: [{ field: `addons.${id}`, message: 'is not an add-on of this tour' }] })
    }
    if (quantity > addon.max_quantity) {
      throw new ApiError('invalid_addon', `At most ${addon.max_quantity} of "${addon.name}" can be booked`, {
        errors: [{ field: `addons.${id}`, message: `must be at most ${addon.max_quantity}` }],
      })
    }
    return { addon, quantity }
  })
}

export function bookingService(store: Store) {
  const { bookings, promoRedemptions } = store

  /** Marks a lapsed hold expired and gives its seats back; a no-op if someone else already did. */
  async function expireHold(trx: Db, row: BookingRow, at: string): Promise<void> {
    if (await bookings.transition(trx, row, 'held', 'expired', at) && row.quarantined === 0) {
      await bookings.freeSeats(trx, departureOf(row), row.party)
    }
  }

  /** Expires the session's hold if its time ran out, so the reads that follow see the truth. */
  async function expireSessionHold(trx: Db, ctx: BookingContext): Promise<void> {
    const held = await bookings.latestForSession(ctx.catalog.instance.ref, ctx.sessionId, ['held'], trx)
    const now = toStoredInstant(ctx.now)
    if (held && held.hold_expires_at! <= now) await expireHold(trx, held, now)
  }

  return {
    async hold(ctx: BookingContext, request: BookingRequest, quarantined: boolean, record?: RecordAnswer): Promise<Booking> {
      const { catalog } = ctx
      const instance = catalog.instance
      const { catalog: tour } = requireTour(catalog, request.tour_id)
      const departure = requireDeparture(ctx, tour, request.start)
      requirePartyInRange(tour.party, request.party)
      const addons = requireAddons(tour, request.addons ?? {})
      const promoCode = request.promo_code?.trim() ? request.promo_code.trim().toUpperCase() : null
      const promo = promoCode === null ? null
        : requireUsablePromo(catalog, promoCode, tour.id, ctx.now, await promoRedemptions.uses(instance.ref, promoCode))
      const price = priceBooking({ pricePerPerson: tour.price, party: request.party, addons, promo })

      const now = toStoredInstant(ctx.now)
      const row: BookingRow = {
        id: randomUUID(),
        instance_id: instance.ref,
        session_id: ctx.sessionId,
        tour_id: tour.id,
        start_at: toStoredInstant(departure.start),
        end_at: toStoredInstant(departure.end),
        party: request.party,
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
        code: null,
        contact_name: null,
        contact_email: null,
        contact_phone: null,
        cancellable_until: toStoredInstant(cancellableUntil(instance.cancellation_policy, departure.start)),
        cancellation_fee_percent: null,
        cancellation_fee: null,
        cancelled_at: null,
        created_at: now,
        updated_at: now,
      }
      return store.transaction(async (trx) => {
        for (const lapsed of await bookings.lapsedHoldsOnDeparture(trx, departureOf(row), now)) await expireHold(trx, lapsed, now)
        // The session's current hold is replaced: released if it was live, expired if its time had run out.
        const previous = await bookings.latestForSession(instance.ref, ctx.sessionId, ['held'], trx)
        if (previous && previous.hold_expires_at! <= now) {
          await expireHold(trx, previous, now)
        } else if (previous && await bookings.transition(trx, previous, 'held', 'released', now) && previous.quarantined === 0) {
          await bookings.freeSeats(trx, departureOf(previous), previous.party)
        }
        if (!quarantined) {
          const seats = await bookings.takeSeats(trx, departureOf(row), tour.capacity, request.party)
          if (!seats.taken) {
            throw new ApiError('insufficient_capacity', `Only ${seats.remaining} seats are left on this departure`, { remaining: seats.remaining })
          }
        }
        await bookings.insert(trx, row)
        const answer = bookingView(row, catalog)
        await record?.(trx, answer)
        return answer
      })
    },

    /** The session's most recent booking that it has not released. */
    async current(ctx: BookingContext): Promise<Booking> {
      const visible = ['held', 'expired', 'requested', 'confirmed', 'declined', 'cancelled', 'completed', 'no_show'] as const
      let row = await bookings.latestForSession(ctx.catalog.instance.ref, ctx.sessionId, visible)
      if (row?.status === 'held' && row.hold_expires_at! <= toStoredInstant(ctx.now)) {
        row = await store.transaction(async (trx) => {
          await expireHold(trx, row!, toStoredInstant(ctx.now))
          return bookings.findById(trx, row!.instance_id, row!.id)
        })
      }
      if (!row) throw new ApiError('no_booking', 'This session has no booking')
      return bookingView(row, ctx.catalog)
    },

    /** DELETE /booking: releases a hold, or cancels a requested or confirmed booking under the policy. */
    async releaseOrCancel(ctx: BookingContext): Promise<Booking> {
      const instance = ctx.catalog.instance
      const now = toStoredInstant(ctx.now)
      // The expiry of a lapsed hold must commit even when the answer is 404, so the
      // transaction returns null rather than throwing (a throw would roll it back).
      const answer = await store.transaction(async (trx) => {
        await expireSessionHold(trx, ctx)
        const row = await bookings.latestForSession(instance.ref, ctx.sessionId, SEAT_HOLDING, trx)
        if (!row) return null
        if (row.status === 'held') {
          await bookings.transition(trx, row, 'held', 'released', now)
        } else {
          if (row.cancellable_until <= now) {
            throw new ApiError('cancellation_not_allowed', 'The cancellation window for this booking has closed; contact the operator')
          }
          const feePercent = cancellationFeePercent(instance.cancellation_policy, Temporal.Instant.from(row.start_at), ctx.now)
          await bookings.transition(trx, row, row.status as 'requested' | 'confirmed', 'cancelled', now, {
            cancelled_at: now,
            cancellation_fee_percent: feePercent,
            cancellation_fee: cancellationFee(row.total, feePercent),
          })
          if (row.promo_code && row.quarantined === 0) await promoRedemptions.release(trx, instance.ref, row.promo_code)
        }
        if (holdsSeats(row)) await bookings.freeSeats(trx, departureOf(row), row.party)
        return bookingView((await bookings.findById(trx, instance.ref, row.id))!, ctx.catalog)
      })
      if (!answer) throw new ApiError('no_booking', 'This session has no held, requested or confirmed booking')
      return answer
    },

    /**
     * Turns the session's live hold into a request (or a confirmed booking for instant
     * tours). A booking already checked out is answered as it is, changing nothing.
     */
    async checkout(ctx: BookingContext, details: CheckoutDetails, quarantined: boolean, record?: RecordAnswer): Promise<Booking> {
      const instance = ctx.catalog.instance
      const now = toStoredInstant(ctx.now)
      const outcome = await store.transaction(async (trx) => {
        const row = await bookings.latestForSession(instance.ref, ctx.sessionId, ['held', 'expired', 'requested', 'confirmed'], trx)
        if (!row) throw new ApiError('no_booking', 'This session has no held booking to check out')
        if (row.status === 'requested' || row.status === 'confirmed') {
          const answer = bookingView(row, ctx.catalog)
          await record?.(trx, answer)
          return { answer }
        }
        if (row.status === 'expired' || row.hold_expires_at! <= now) {
          await expireHold(trx, row, now)
          return { expired: true as const }
        }
        const tour = ctx.catalog.tourById.get(row.tour_id)?.catalog
        if (!tour) throw new ApiError('slot_not_found', 'This tour is no longer offered')
        const isQuarantined = quarantined || row.quarantined === 1
        if (row.promo_code && !isQuarantined) {
          const promo = instance.promo_codes.find((p) => p.code === row.promo_code)
          if (!promo || !await promoRedemptions.redeem(trx, instance.ref, row.promo_code, promo.max_uses ?? null)) {
            throw new ApiError('invalid_promo_code', 'This promo code has been used up; hold the slot again without it', {
              errors: [{ field: 'promo_code', message: 'has no uses left' }],
            })
          }
        }
        let code = newBookingCode()
        while (await bookings.codeExists(trx, instance.ref, code)) code = newBookingCode()
        const to = checkedOutStatus(tour.confirmation)
        await bookings.transition(trx, row, 'held', to, now, {
          code,
          contact_name: details.name.trim(),
          contact_email: details.email.trim(),
          contact_phone: details.phone,
          hold_expires_at: null,
          quarantined: isQuarantined ? 1 : 0,
        })
        if (isQuarantined && row.quarantined === 0) await bookings.freeSeats(trx, departureOf(row), row.party)
        const answer = bookingView((await bookings.findById(trx, instance.ref, row.id))!, ctx.catalog)
        await record?.(trx, answer)
        return { answer }
      })
      if ('expired' in outcome) throw new ApiError('hold_expired', 'The hold ran out before checkout; hold the slot again')
      return outcome.answer
    },

    /** Writes `expired` for lapsed holds nobody has read; safe to run on several nodes at once. */
    async sweepLapsedHolds(now: Temporal.Instant, batch = 200): Promise<number> {
      const at = toStoredInstant(now)
      return store.transaction(async (trx) => {
        const lapsed = await bookings.lapsedHolds(trx, at, batch)
        for (const row of lapsed) await expireHold(trx, row, at)
        return lapsed.length
      })
    },
  }
}
export type BookingService = ReturnType<typeof bookingService>
