import { Temporal } from 'temporal-polyfill'
import { checkedOutStatus } from '../domain/booking-status.ts'
import { bookingPolicyOf, cancellableUntil, cancellationFee, cancellationFeePercent } from '../domain/cancellation.ts'
import { policyOf, type BookingRecord } from '../domain/booking.ts'
import { toStoredInstant } from '../domain/instant-format.ts'
import { priceBooking } from '../domain/pricing.ts'
import { unitMix } from '../domain/units.ts'
import { ApiError } from '../errors/api-error.ts'
import type { BookingStatus } from '../schemas/booking-status.ts'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { newRowId } from '../store/row-id.ts'
import type { Store } from '../store/store.ts'
import type { Plan } from '../store/write-plan.ts'
import { requirePartyInRange, requireOfferedTour } from './availability.ts'
import { newBookingCode } from './booking-code.ts'
import { requireDeparture } from './bookings.ts'
import { guidedLanguage } from '../domain/booking-language.ts'
import { departureOf, seatsFreedBy, takeSeatsOrRefuse } from './booking-seats.ts'
import type { DepartureMinimum } from './departure-minimum.ts'
import { resellerBookingChanges, type ResellerChange } from './reseller-booking-changes.ts'

/** The reseller key a request came with: its terms, read once per key and shared by its requests (src/services/reseller-keys.ts). */
export interface Reseller {
  readonly keyId: string
  readonly name: string
  /** Tour ids it may sell; null: every tour. */
  readonly products: readonly string[] | null
  readonly commissionBasisPoints: number
}

export interface ResellerContext {
  catalog: InstanceCatalog
  reseller: Reseller
  now: Temporal.Instant
}

export interface Reservation {
  uuid: string
  tourId: string
  start: string
  units: Record<string, number>
  expirationMinutes: number | null
  resellerReference: string | null
  notes: string | null
}

/** What a confirmation gives: the contact, and what it changes (null: as reserved). */
export interface Confirmation {
  contact: ResellerContact
  resellerReference: string | null
  notes: string | null
  units: Readonly<Record<string, number>> | null
}

export interface ResellerContact {
  name: string
  email: string
  phone: string | null
}

/** The longest hold a reseller may ask for (docs/resellers.md). */
export const MAX_EXPIRATION_MINUTES = 60

/** What a reseller's cancellation did: OCTo's refund, from the booking's own policy. */
export type Refund = 'FULL' | 'PARTIAL' | 'NONE'
export const refundOf = (row: Pick<BookingRecord, 'cancellation_fee' | 'total'>): Refund =>
  !row.cancellation_fee ? 'FULL' : row.cancellation_fee >= row.total ? 'NONE' : 'PARTIAL'

const isLapsed = (row: BookingRecord, now: string) => row.status === 'held' && row.hold_expires_at! <= now

/**
 * Bookings through the OCTo API: the same seat rule (takeSeatsOrRefuse), state machine
 * (bookings.transition) and events as guest holds and staff bookings. Each booking has a
 * session of its own (`octo:<key>:<uuid>`) that no guest can name, locked like a guest's
 * before its booking is read to change it.
 */
export function resellerBookingService(store: Store, minimum: DepartureMinimum) {
  const { bookings, resellerBookings } = store
  const changes = resellerBookingChanges(store, minimum)
  const sessionOf = (reseller: Reseller, uuid: string) => `octo:${reseller.keyId}:${uuid}`

  /** The key's booking, read under its session's lock and its own; an expired hold is written expired first. */
  function* lockedBooking(ctx: ResellerContext, uuid: string): Plan<BookingRecord | undefined> {
    const instanceId = ctx.catalog.instance.ref
    yield* bookings.lockSession(instanceId, sessionOf(ctx.reseller, uuid))
    const row = yield* resellerBookings.byUuid(instanceId, ctx.reseller.keyId, uuid, true)
    const now = toStoredInstant(ctx.now)
    if (row && isLapsed(row, now)) {
      const [expired] = yield* bookings.transition(instanceId, { read: row }, 'held', 'expired', now)
      if (expired) yield* bookings.changeSeats(seatsFreedBy([expired]))
      return expired ?? (yield* resellerBookings.byUuid(instanceId, ctx.reseller.keyId, uuid, true))
    }
    return row
  }

  const noSuchBooking = (uuid: string) => new ApiError('not_found', `No booking of yours has the uuid ${uuid}`)

  /**
   * Runs a plan on the key's booking, locked (lockedBooking); a booking it does not have is
   * not_found, and a plan's refusal (a text) is an error of `refusal`'s code, nothing changed.
   */
  async function onBooking(ctx: ResellerContext, uuid: string, refusal: 'invalid_transition' | 'cancellation_not_allowed',
    plan: (row: BookingRecord, now: string) => Plan<BookingRecord | string>): Promise<BookingRecord> {
    const now = toStoredInstant(ctx.now)
    const outcome = await store.write(function* (): Plan<BookingRecord | string> {
      const row = yield* lockedBooking(ctx, uuid)
      if (!row) throw noSuchBooking(uuid)
      return yield* plan(row, now)
    })
    if (typeof outcome === 'string') throw new ApiError(refusal, outcome)
    return outcome
  }

  return {
    /** Reserve: holds the seats at once, for `expirationMinutes` (default the instance's hold). The same uuid again answers the same booking. */
    async reserve(ctx: ResellerContext, input: Reservation): Promise<BookingRecord> {
      const { catalog, reseller } = ctx
      const instance = catalog.instance
      const existing = await resellerBookings.find(instance.ref, reseller.keyId, input.uuid)
      if (existing) return existing
      const { catalog: tour } = requireOfferedTour(catalog, input.tourId)
      const departure = await requireDeparture(ctx, tour, input.start, store.departures)
      const units = unitMix(tour, { units: input.units })
      requirePartyInRange(tour.party, units.party)
      const price = priceBooking({ units, addons: [], promo: null })
      const now = toStoredInstant(ctx.now)
      const holdSeconds = input.expirationMinutes === null ? Math.min(instance.holdSeconds, MAX_EXPIRATION_MINUTES * 60) : input.expirationMinutes * 60
      const sessionId = sessionOf(reseller, input.uuid)
      const row: BookingRecord = {
        id: newRowId(), instance_id: instance.ref, session_id: sessionId, tour_id: tour.id,
        start_at: toStoredInstant(departure.start), end_at: toStoredInstant(departure.end),
        party: units.party, seats: units.seats, units: JSON.stringify(units.lines), status: 'held', quarantined: 0,
        addons: JSON.stringify(price.lines), promo_code: null, referral_code: null, currency: instance.currency,
        subtotal: price.subtotal, addons_total: price.addons, discount: price.discount, total: price.total,
        hold_expires_at: toStoredInstant(ctx.now.add({ seconds: holdSeconds })),
        code: null, contact_name: null, contact_email: null, contact_phone: null,
        cancellable_until: toStoredInstant(cancellableUntil(instance.cancellation_policy, departure.start)),
        cancellation_fee_percent: null, cancellation_fee: null, cancelled_at: null, created_at: now, updated_at: now, version: 1,
        channel: 'octo', policy: JSON.stringify(bookingPolicyOf(instance.cancellation_policy)), checked_in_at: null, internal_note: null,
        decline_reason: null, cancelled_by: null, cancellation_reason: null, fee_waived: null,
        reseller_key_id: reseller.keyId, reseller_uuid: input.uuid, reseller_reference: input.resellerReference,
        reseller_commission_basis_points: reseller.commissionBasisPoints, reseller_notes: input.notes,
        // OCTo names no guiding language: a reseller's booking is guided in the tour's first.
        language: guidedLanguage(tour),
      }
      try {
        return await store.write(function* () {
          yield* bookings.lockSession(instance.ref, sessionId)
          const again = yield* resellerBookings.byUuid(instance.ref, reseller.keyId, input.uuid)
          if (again) return again
          yield* takeSeatsOrRefuse(bookings, instance.ref, [{ key: departureOf(row), seats: row.seats, capacity: tour.capacity }], now)
          yield* bookings.insert(row)
          yield* changes.recordCreation(ctx, row)
          return row
        })
      } catch (err) {
        // Two reserves of one uuid at once (PostgreSQL has no session row to lock): the
        // unique index lets one in, and the other answers the booking it made.
        const made = err instanceof ApiError ? undefined : await resellerBookings.find(instance.ref, reseller.keyId, input.uuid)
        if (made) return made
        throw err
      }
    },

    /** The key's booking with this uuid (a lapsed hold is answered expired). */
    async get(ctx: ResellerContext, uuid: string): Promise<BookingRecord> {
      const row = await resellerBookings.find(ctx.catalog.instance.ref, ctx.reseller.keyId, uuid)
      if (!row) throw noSuchBooking(uuid)
      if (!isLapsed(row, toStoredInstant(ctx.now))) return row
      return (await store.write(() => lockedBooking(ctx, uuid)))!
    },

    /** Renews a live hold for `minutes` from now. */
    extend(ctx: ResellerContext, uuid: string, minutes: number | null): Promise<BookingRecord> {
      const seconds = minutes === null ? Math.min(ctx.catalog.instance.holdSeconds, MAX_EXPIRATION_MINUTES * 60) : minutes * 60
      return onBooking(ctx, uuid, 'invalid_transition', function* (row, now) {
        if (row.status !== 'held') return `This booking is ${row.status}: only a reservation on hold can be extended`
        return (yield* resellerBookings.extendHold(ctx.catalog.instance.ref, row.id, toStoredInstant(ctx.now.add({ seconds })), now))!
      })
    },

    /**
     * Confirms a reservation with its contact: CONFIRMED, or PENDING on an on-request tour.
     * Unit items other than the reservation's resize it first, under the capacity rule, in the
     * same plan: a refused mix confirms nothing. Confirming again answers the booking, resized
     * first when its unit items differ (a retry after a lost answer sends the same ones).
     */
    confirm(ctx: ResellerContext, uuid: string, { contact, resellerReference, notes, units }: Confirmation): Promise<BookingRecord> {
      const { catalog } = ctx
      return onBooking(ctx, uuid, 'invalid_transition', function* (found, now) {
        if (found.status === 'requested' || found.status === 'confirmed') return units === null ? found : yield* changes.changed(ctx, found, { move: { units } })
        if (found.status !== 'held') return `This booking is ${found.status}: reserve again`
        const row = units === null ? found : yield* changes.changed(ctx, found, { move: { units } })
        const tour = catalog.tourById.get(row.tour_id)!.catalog
        let code = newBookingCode()
        while (yield* bookings.codeExists(catalog.instance.ref, code)) code = newBookingCode()
        const [confirmed] = yield* bookings.transition(catalog.instance.ref, { read: row }, 'held', checkedOutStatus(tour.confirmation), now, {
          code, contact_name: contact.name, contact_email: contact.email, contact_phone: contact.phone, hold_expires_at: null,
          ...resellerReference !== null ? { reseller_reference: resellerReference } : {},
          ...notes !== null ? { reseller_notes: notes } : {},
        })
        if (!confirmed) return 'The reservation expired before it was confirmed: reserve again'
        yield* minimum.reportIfReached(catalog, departureOf(confirmed), confirmed.party, now, false)
        yield* changes.recordStep(ctx, row, confirmed, 'booking.confirmed')
        return confirmed
      })
    },

    /**
     * Cancels under the booking's own policy, in the reseller's name: a hold is released; a
     * request or confirmed booking is cancelled with the fee of the tier its notice falls in
     * (none for a request), until its departure starts. Cancelling again answers the cancelled booking.
     */
    cancel(ctx: ResellerContext, uuid: string, reason: string | null): Promise<BookingRecord> {
      const { catalog } = ctx
      const instanceId = catalog.instance.ref
      return onBooking(ctx, uuid, 'cancellation_not_allowed', function* (row, now) {
        if (row.status === 'cancelled' || row.status === 'released') return row
        if (row.status === 'held') {
          const [released] = yield* bookings.transition(instanceId, { read: row }, 'held', 'released', now,
            { cancelled_at: now, cancelled_by: 'reseller', cancellation_reason: reason })
          if (!released) return 'The reservation changed meanwhile; read it again'
          yield* bookings.changeSeats(seatsFreedBy([released]))
          yield* changes.recordStep(ctx, row, released, 'booking.released')
          return released
        }
        if (row.status !== 'requested' && row.status !== 'confirmed') return `This booking is ${row.status} and cannot be cancelled`
        const start = Temporal.Instant.from(row.start_at)
        if (Temporal.Instant.compare(start, ctx.now) <= 0) return 'This booking cannot be cancelled: its departure has started'
        const feePercent = row.status === 'requested' ? 0 : cancellationFeePercent(policyOf(row, catalog.instance.cancellation_policy), start, ctx.now)
        const [cancelled] = yield* bookings.transition(instanceId, { read: row }, row.status as BookingStatus, 'cancelled', now, {
          cancelled_at: now, cancellation_fee_percent: feePercent, cancellation_fee: cancellationFee(row.total, feePercent),
          cancelled_by: 'reseller', cancellation_reason: reason, fee_waived: 0,
        })
        if (!cancelled) return 'The booking changed meanwhile; read it again'
        yield* bookings.changeSeats(seatsFreedBy([cancelled]))
        yield* changes.recordStep(ctx, row, cancelled, 'booking.cancelled')
        return cancelled
      })
    },

    /**
     * Changes the reseller's fields, the contact, or moves or resizes the booking
     * (src/services/reseller-booking-changes.ts); with `expirationMinutes`, also renews its hold,
     * in the same plan: refused whole on a booking no longer on hold.
     */
    update(ctx: ResellerContext, uuid: string, change: ResellerChange): Promise<BookingRecord> {
      const minutes = change.expirationMinutes
      return onBooking(ctx, uuid, 'invalid_transition', function* (row, now) {
        if (minutes !== undefined && row.status !== 'held') return `This booking is ${row.status}: only a reservation on hold has an expiration to change`
        const changed = yield* changes.changed(ctx, row, change)
        if (minutes === undefined) return changed
        return (yield* resellerBookings.extendHold(ctx.catalog.instance.ref, changed.id, toStoredInstant(ctx.now.add({ minutes })), now))!
      })
    },
  }
}
export type ResellerBookingService = ReturnType<typeof resellerBookingService>
