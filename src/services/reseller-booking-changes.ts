import { Temporal } from 'temporal-polyfill'
import { guidedLanguage, languageOfBooking } from '../domain/booking-language.ts'
import type { BookingRecord } from '../domain/booking.ts'
import { toStoredInstant } from '../domain/instant-format.ts'
import { ApiError } from '../errors/api-error.ts'
import { isOneOf, LIVE_CHECKED_OUT } from '../schemas/booking-status.ts'
import type { BookingFieldChanges } from '../store/operator-bookings.ts'
import type { Store } from '../store/store.ts'
import type { Plan } from '../store/write-plan.ts'
import { lastBookableDate } from './availability.ts'
import { bookingMoves, isMixChange, type MixChange } from './booking-move.ts'
import type { DepartureMinimum } from './departure-minimum.ts'
import type { Reseller, ResellerContact, ResellerContext } from './reseller-bookings.ts'

/** What a reseller's PATCH asks for; a field left out stays as it is. */
export interface ResellerChange {
  resellerReference?: string
  /** The notes for the operator; null removes them. */
  notes?: string | null
  contact?: Partial<ResellerContact>
  /** A move (another product or departure) or a resize (another unit mix). */
  move?: Pick<MixChange, 'tour_id' | 'start' | 'units'>
  /** A reservation's hold, renewed to this many minutes from now (as extend does). */
  expirationMinutes?: number
}

/** The reseller as the operator's history names it: its key. */
const actorOf = (reseller: Reseller) => ({ type: 'key' as const, id: reseller.keyId, name: reseller.name })

/**
 * A reseller's changes to its booking, on a hold or a live booking: its reference, the contact,
 * and moves and resizes through the same plans as the operator's (src/services/booking-move.ts),
 * under the guests' cutoff and horizon. Each is written to the audit log in the key's name, so
 * the operator's history of the booking (src/services/booking-history.ts) says who made it.
 */
export function resellerBookingChanges(store: Store, minimum: DepartureMinimum) {
  const moves = bookingMoves(store, minimum)

  /** The audit entry of one step the reseller made, in the shape the operator's history reads. */
  function* recordStep(ctx: ResellerContext, before: BookingRecord, after: BookingRecord, action: string,
    fields: Record<string, unknown> = { status: after.status }): Plan<void> {
    const previous = Object.fromEntries(Object.keys(fields).map((k) => [k, before[k as keyof BookingRecord]]))
    yield* store.audit.record({
      instanceId: ctx.catalog.instance.ref, at: after.updated_at, actor: actorOf(ctx.reseller), action,
      target: { type: 'booking', id: after.id, ref: after.code }, requestId: null,
      before: { ...previous, version: before.version }, after: { ...fields, version: after.version },
    })
  }

  return {
    recordStep,

    /** The audit entry of a reservation, as staff bookings have theirs (src/services/operator-booking-changes.ts). */
    *recordCreation(ctx: ResellerContext, row: BookingRecord): Plan<void> {
      yield* store.audit.record({
        instanceId: row.instance_id, at: row.created_at, actor: actorOf(ctx.reseller), action: 'booking.created',
        target: { type: 'booking', id: row.id, ref: null }, requestId: null,
        after: { status: row.status, channel: row.channel, tour_id: row.tour_id, start_at: row.start_at, party: row.party, seats: row.seats, units: row.units, total: row.total },
      })
    },

    /**
     * The booking with the change made; nothing to change: as it was. A move or resize takes
     * the seats on the new departure before freeing the old, under the capacity rule; its
     * departure, old or new, must still be bookable by guests (cutoff, horizon).
     */
    *changed(ctx: ResellerContext, row: BookingRecord, change: ResellerChange): Plan<BookingRecord> {
      const { catalog } = ctx
      const instanceId = catalog.instance.ref
      const changes: BookingFieldChanges = {}
      const set = <K extends keyof BookingFieldChanges>(field: K, value: BookingFieldChanges[K]) => {
        if (value !== row[field]) changes[field] = value
      }
      const moved = change.move !== undefined && isMixChange(change.move)
      if (moved) {
        if (row.status !== 'held' && !isOneOf(LIVE_CHECKED_OUT, row.status)) {
          throw new ApiError('invalid_transition', `This booking is ${row.status}: only a reservation on hold or a live booking can be moved or resized`)
        }
        const limits = { by: 'guest', lastDate: lastBookableDate(catalog, ctx.now).toString() } as const
        yield* moves.repriced(row, change.move!, catalog, ctx.now, limits, set)
        if (changes.tour_id !== undefined) {
          // OCTo names no guiding language: the booking keeps its own where the new tour offers it, else takes the tour's first.
          const current = languageOfBooking(row, catalog.tourById.get(row.tour_id)?.catalog, catalog.instance)
          set('language', guidedLanguage(catalog.tourById.get(changes.tour_id)!.catalog, undefined, current))
        }
        if (Object.keys(changes).length > 0 && changes.start_at === undefined && changes.tour_id === undefined) {
          // A resize in place: its departure must still take bookings, as a move's must.
          yield* moves.requireDepartureUnder(catalog, catalog.tourById.get(row.tour_id)!.catalog, Temporal.Instant.from(row.start_at), ctx.now, limits)
        }
      }
      if (change.resellerReference !== undefined) set('reseller_reference', change.resellerReference)
      if (change.notes !== undefined) set('reseller_notes', change.notes)
      if (change.contact?.name !== undefined) set('contact_name', change.contact.name)
      if (change.contact?.email !== undefined) set('contact_email', change.contact.email)
      if (change.contact?.phone !== undefined) set('contact_phone', change.contact.phone)
      if (Object.keys(changes).length === 0) return row

      const at = toStoredInstant(ctx.now)
      const seatsMove = changes.seats !== undefined || changes.start_at !== undefined || changes.tour_id !== undefined
      if (seatsMove) yield* moves.moveSeats(row, changes, catalog, at)
      const changedRow = (yield* store.operatorBookings.update(instanceId, row.id, changes, at))!
      if (seatsMove && row.status !== 'held') yield* moves.reportMoved(catalog, row, changedRow, at)
      yield* recordStep(ctx, row, changedRow, 'booking.changed', changes)
      return changedRow
    },
  }
}
