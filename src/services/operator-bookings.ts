import { Temporal } from 'temporal-polyfill'
import type { Instance } from '../catalog/catalog-file.ts'
import { bookingPolicyOf, cancellableUntil, cancellationFee, cancellationFeePercent } from '../domain/cancellation.ts'
import { toStoredInstant } from '../domain/instant-format.ts'
import { priceBooking, requireAddons } from '../domain/pricing.ts'
import { departureAt } from '../domain/departure-at.ts'
import { findDeparture, type Departure } from '../domain/schedule.ts'
import { ApiError, type FieldError } from '../errors/api-error.ts'
import type { BookingChange, StaffBookingRequest } from '../schemas/admin/booking.ts'
import { CHECKED_OUT, isBookingStatus, isOneOf, LIVE_CHECKED_OUT, type BookingStatus } from '../schemas/booking-status.ts'
import type { CatalogTour } from '../schemas/catalog.ts'
import type { Actor } from '../store/audit.ts'
import {
  operatorBookingRepository, type BookingEventRow, type BookingFieldChanges, type BookingFilter, type BookingPosition, type BookingRow,
  type DepartureKey, type RecordedChange, type SeatChange,
} from '../store/bookings.ts'
import { newRowId } from '../store/row-id.ts'
import type { Store } from '../store/store.ts'
import type { Plan, RecordAnswer } from '../store/write-plan.ts'
import { requirePartyInRange, requireTour } from './availability.ts'
import { newBookingCode } from './booking-code.ts'
import { policyOf } from './bookings.ts'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { normalisePhone } from './phone-number.ts'
import { requireUsablePromo } from './promo-codes.ts'
import { departureMinimum } from './departure-minimum.ts'

/** Who acts, when, and on which version of the booking (If-Match). */
export interface OperatorContext {
  catalog: InstanceCatalog
  now: Temporal.Instant
  actor: Actor
  requestId: string | null
  /** The version the caller last saw (If-Match); null when it sent none. */
  ifMatch: number | null
}

/** The list's filters as the operator gives them: departure dates are local to the instance. */
export interface BookingQuery {
  from?: string
  to?: string
  tour?: string
  statuses?: readonly BookingStatus[]
  q?: string
  channel?: string
  quarantined?: boolean
}

export interface HistoryEntry {
  at: string
  from: BookingStatus | null
  to: BookingStatus
  actor: Actor
}

type RecordRow = RecordAnswer<BookingRow>

export const DEFAULT_REQUEST_DECISION_HOURS = 24
export const NO_ANSWER_IN_TIME = 'no answer in time'
const SYSTEM: Actor = { type: 'system', id: null, name: null }
/** Requests declined per write by the deadline sweep. */
const DEADLINE_BATCH = 200

/** The instance's request_decision_hours (docs/operator-api.md, "Bookings"), a setting of the catalog. */
function requestDecisionHours(instance: Instance): number {
  return instance.request_decision_hours ?? DEFAULT_REQUEST_DECISION_HOURS
}

/** When a request made at `requested_at` is declined by the system unless answered: request_decision_hours later, or at its departure's cutoff if that comes first. */
export function requestDeadline(catalog: InstanceCatalog, request: { requested_at: string, start_at: string, tour_id: string }): Temporal.Instant {
  const answerBy = Temporal.Instant.from(request.requested_at).add({ hours: requestDecisionHours(catalog.instance) })
  const cutoff = Temporal.Instant.from(request.start_at).subtract({ minutes: catalog.tourById.get(request.tour_id)?.catalog.cutoff_minutes ?? 0 })
  return Temporal.Instant.compare(answerBy, cutoff) < 0 ? answerBy : cutoff
}

const departureOf = (row: Pick<BookingRow, 'instance_id' | 'tour_id' | 'start_at'>): DepartureKey =>
  ({ instance_id: row.instance_id, tour_id: row.tour_id, start_at: row.start_at })
const sameDeparture = (a: DepartureKey, b: DepartureKey) => a.tour_id === b.tour_id && a.start_at === b.start_at
const invalidTransition = (row: BookingRow, action: string) =>
  new ApiError('invalid_transition', `A ${row.status} booking cannot be ${action}`, { booking_status: row.status })
const trimmedOrNull = (text: string | null | undefined) => text?.trim() || null

/** A stale If-Match changes nothing. */
function requireVersion(row: BookingRow, ifMatch: number | null): void {
  if (ifMatch !== null && ifMatch !== row.version) {
    throw new ApiError('precondition_failed', `The booking is at version ${row.version}, not ${ifMatch}; read it again`, { version: row.version })
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

/** The add-ons asked for, as the tour offers them (the rule of the guest hold, src/services/bookings.ts). */
/** The add-on quantities a booking has now, by id. */
const addonQuantitiesOf = (row: BookingRow): Record<string, number> =>
  Object.fromEntries((JSON.parse(row.addons) as Array<{ id: string, quantity: number }>).map((line) => [line.id, line.quantity]))

/**
 * Transitions of one day can share an instant (and their ids are random on PostgreSQL), so
 * events at the same instant are put in the order that chains one status to the next.
 */
function inTransitionOrder(events: readonly BookingEventRow[]): BookingEventRow[] {
  const remaining = [...events].sort((a, b) => a.at < b.at ? -1 : a.at > b.at ? 1 : 0)
  const ordered: BookingEventRow[] = []
  let status: string | null = null
  while (remaining.length > 0) {
    const next = remaining.findIndex((e) => e.at === remaining[0].at && e.from_status === status)
    const [event] = remaining.splice(Math.max(next, 0), 1)
    ordered.push(event)
    status = event.to_status
  }
  return ordered
}

/**
 * Who made a transition. booking_events has no actor column: every change an operator or
 * the system makes to a booking writes an audit entry naming the booking, at the instant of
 * the transition and with the status it moved to, and that entry names the actor. A
 * transition no entry accounts for was the guest's own (hold, checkout, release, cancel),
 * or the system's expiry of a lapsed hold.
 */
function actorOf(event: BookingEventRow, bookingId: string, changes: readonly RecordedChange[]): Actor {
  const status = (c: RecordedChange) => c.after === null ? undefined : (JSON.parse(c.after) as { status?: string }).status
  const entry = changes.find((c) => c.at === event.at && c.target_type === 'booking' && c.target_id === bookingId && status(c) === event.to_status)
  if (entry) return { type: entry.actor_type as Actor['type'], id: entry.actor_id, name: entry.actor_name }
  return event.to_status === 'expired' ? SYSTEM : { type: 'guest', id: null, name: null }
}

/** An operator action that moves a booking from one status to another. */
interface StatusAction {
  /** The audit log's name for it. */
  action: string
  /** How the refusal puts it: "A cancelled booking cannot be <verb>". */
  verb: string
  from: readonly BookingStatus[]
  to: BookingStatus
  /** Refuses the action at this moment, whatever the status. */
  timing?: (row: BookingRow, now: Temporal.Instant) => void
  changes?: (row: BookingRow, ctx: OperatorContext) => Partial<BookingRow>
  /** It ends a live booking: its seats and its promo code's use are given back. */
  ends?: boolean
}

const beforeEnd = (row: BookingRow, now: Temporal.Instant) => {
  if (Temporal.Instant.compare(now, Temporal.Instant.from(row.end_at)) >= 0) {
    throw new ApiError('departure_ended', 'The departure has ended: check-in and its undo are closed')
  }
}

const ACTIONS = {
  confirm: { action: 'booking.confirmed', verb: 'confirmed', from: ['requested'], to: 'confirmed' },
  checkIn: {
    action: 'booking.checked_in', verb: 'checked in', from: ['confirmed'], to: 'completed', timing: beforeEnd,
    changes: (_row, ctx) => ({ checked_in_at: toStoredInstant(ctx.now) }),
  },
  undoCheckIn: {
    action: 'booking.check_in_undone', verb: 'un-checked-in', from: ['completed'], to: 'confirmed', timing: beforeEnd,
    changes: () => ({ checked_in_at: null }),
  },
  markNoShow: {
    action: 'booking.no_show', verb: 'marked no-show', from: ['confirmed'], to: 'no_show',
    timing: (row, now) => {
      if (Temporal.Instant.compare(now, Temporal.Instant.from(row.start_at)) < 0) {
        throw new ApiError('departure_not_started', 'A guest can be marked no-show once the departure has started')
      }
    },
  },
  undoNoShow: { action: 'booking.no_show_undone', verb: 'un-marked no-show', from: ['no_show'], to: 'confirmed' },
} satisfies Record<string, StatusAction>

export function operatorBookingService(store: Store) {
  const { bookings, promoRedemptions, audit } = store
  const minimum = departureMinimum(store)
  const reads = operatorBookingRepository(store)

  async function find(catalog: InstanceCatalog, codeOrId: string): Promise<BookingRow> {
    const row = await reads.find(catalog.instance.ref, codeOrId)
    if (!row) throw new ApiError('not_found', `No booking has the code or id "${codeOrId}"`)
    return row
  }

  /** Gives back the seats and promo uses of bookings that ended (quarantined ones never took any). */
  function* releaseWhatTheyHeld(instanceId: string, ended: readonly BookingRow[]): Plan<void> {
    const live = ended.filter((row) => row.quarantined === 0)
    if (live.length === 0) return
    yield* bookings.changeSeats(live.map((row) => ({ key: departureOf(row), seats: -row.party, capacity: 0 })))
    for (const row of live) if (row.promo_code) yield* promoRedemptions.release(instanceId, row.promo_code)
  }

  /**
   * Applies seat changes under the capacity rule, or throws insufficient_capacity (rolling the
   * plan back). As for a guest's hold, lapsed holds nobody has swept yet give their seats
   * back when they are what stands in the way.
   */
  function* changeSeatsOrRefuse(instanceId: string, changes: SeatChange[], now: string): Plan<void> {
    let outcome = yield* bookings.changeSeats(changes)
    if (!outcome.ok && !outcome.closed) {
      const lapsed = yield* bookings.transition(instanceId, { departure: outcome.key, lapsedBy: now }, 'held', 'expired', now)
      const freed = lapsed.filter((row) => row.quarantined === 0)
      if (freed.length > 0) {
        yield* bookings.changeSeats(freed.map((row) => ({ key: departureOf(row), seats: -row.party, capacity: 0 })))
        outcome = yield* bookings.changeSeats(outcome.pending)
      }
    }
    if (!outcome.ok) {
      throw new ApiError('insufficient_capacity', outcome.closed ? 'This departure is closed to new bookings' : `Only ${outcome.remaining} seats are left on this departure`,
        { remaining: outcome.closed ? 0 : outcome.remaining })
    }
  }

  /**
   * The departure starting at `start`: a scheduled one, or one added by hand. Cutoff and
   * horizon are the guests' limits, not the operator's; a departure that has ended takes no one.
   */
  function* requireOpenDeparture(catalog: InstanceCatalog, tour: CatalogTour, start: Temporal.Instant, now: Temporal.Instant): Plan<Departure> {
    const timeZone = catalog.instance.timezone
    let departure = findDeparture(tour, timeZone, start)
    if (!departure) {
      const row = yield* store.departures.find({ instance_id: catalog.instance.ref, tour_id: tour.id, start_at: toStoredInstant(start) })
      if (row?.extra === 1) departure = departureAt(start, tour.duration_minutes, timeZone)
    }
    if (!departure) {
      throw new ApiError('slot_not_found', `${tour.title} has no departure starting at ${start}`, {
        errors: [{ field: 'start', message: 'is not a departure of this tour' }],
      })
    }
    if (Temporal.Instant.compare(departure.end, now) <= 0) throw new ApiError('departure_ended', 'This departure has already ended')
    return departure
  }

  /**
   * Runs a plan on one booking: queued behind the guest's own writes (its session) and
   * holding the booking's row, checking If-Match once it holds it.
   */
  async function onBooking<T>(ctx: OperatorContext, codeOrId: string, plan: (row: BookingRow) => Plan<T>): Promise<T> {
    const found = await find(ctx.catalog, codeOrId)
    const instanceId = ctx.catalog.instance.ref
    return store.write(function* () {
      yield* bookings.lockSession(instanceId, found.session_id)
      const row = yield* reads.lock(instanceId, found.id)
      if (!row) throw new ApiError('not_found', `No booking has the code or id "${codeOrId}"`)
      requireVersion(row, ctx.ifMatch)
      return yield* plan(row)
    })
  }

  /**
   * A status action. One that already took effect answers the booking unchanged; one that
   * does not apply to the status is invalid_transition. Two operators at once: the second
   * finds the first one's status and is answered by these same rules.
   */
  function act(step: StatusAction, extra?: (row: BookingRow, ctx: OperatorContext) => Partial<BookingRow>) {
    return (ctx: OperatorContext, codeOrId: string, record?: RecordRow): Promise<BookingRow> => onBooking(ctx, codeOrId, function* (row) {
      const instanceId = ctx.catalog.instance.ref
      if (row.status === step.to) {
        if (record) yield* record(row)
        return row
      }
      if (!step.from.includes(row.status as BookingStatus)) throw invalidTransition(row, step.verb)
      step.timing?.(row, ctx.now)
      const at = toStoredInstant(ctx.now)
      const changes = { ...step.changes?.(row, ctx), ...extra?.(row, ctx) }
      const [moved] = yield* bookings.transition(instanceId, { id: row.id }, row.status as BookingStatus, step.to, at, changes)
      // The row is locked (or, on SQLite, the plan runs alone): nobody can have moved it since it was read.
      if (!moved) throw new Error(`booking ${row.id} left ${row.status} while locked`)
      if (step.ends) yield* releaseWhatTheyHeld(instanceId, [moved])
      yield* audit.record({
        instanceId, at, actor: ctx.actor, action: step.action, target: { type: 'booking', id: row.id, ref: row.code }, requestId: ctx.requestId,
        before: { status: row.status, version: row.version }, after: { status: moved.status, version: moved.version, ...changes },
      })
      if (record) yield* record(moved)
      return moved
    })
  }

  /**
   * The new departure, party, add-ons and price of a move or resize. The promo code stays
   * while the current catalog has it for the tour (its use was counted at checkout); else it
   * is dropped, with its discount.
   */
  function* repriced(row: BookingRow, input: BookingChange, catalog: InstanceCatalog, now: Temporal.Instant,
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
    const party = input.party ?? row.party
    requirePartyInRange(tour.party, party)
    const addons = requireAddons(tour, input.addons ?? addonQuantitiesOf(row))
    const promo = row.promo_code === null ? undefined : catalog.instance.promo_codes.find((p) => p.code === row.promo_code)
    const promoApplies = promo !== undefined && (!promo.tour_ids || promo.tour_ids.includes(tour.id))
    const price = priceBooking({ pricePerPerson: tour.price, party, addons, promo: promoApplies ? promo : null })
    set('party', party)
    set('addons', JSON.stringify(price.lines))
    set('promo_code', promoApplies ? row.promo_code : null)
    set('subtotal', price.subtotal)
    set('addons_total', price.addons)
    set('discount', price.discount)
    set('total', price.total)
  }

  return {
    find,

    /** A page of bookings in departure order. */
    async list(catalog: InstanceCatalog, query: BookingQuery, after: BookingPosition | null, limit: number): Promise<BookingRow[]> {
      return reads.page(catalog.instance.ref, storedFilter(catalog, query), after, limit)
    },

    /** Every transition of the booking with who made it, oldest first. */
    async history(catalog: InstanceCatalog, row: BookingRow): Promise<HistoryEntry[]> {
      const instanceId = catalog.instance.ref
      const events = inTransitionOrder(await reads.events(instanceId, row.id))
      const changes = await reads.changesAt(instanceId, [...new Set(events.map((e) => e.at))])
      return events.map((event) => ({
        at: event.at,
        from: event.from_status as BookingStatus | null,
        to: event.to_status as BookingStatus,
        actor: actorOf(event, row.id, changes),
      }))
    },

    confirm: act(ACTIONS.confirm),
    checkIn: act(ACTIONS.checkIn),
    undoCheckIn: act(ACTIONS.undoCheckIn),
    markNoShow: act(ACTIONS.markNoShow),
    undoNoShow: act(ACTIONS.undoNoShow),

    /** requested → declined; the seats are freed. */
    decline(ctx: OperatorContext, codeOrId: string, reason: string | undefined, record?: RecordRow): Promise<BookingRow> {
      return act({ action: 'booking.declined', verb: 'declined', from: ['requested'], to: 'declined', ends: true },
        () => ({ decline_reason: trimmedOrNull(reason) }))(ctx, codeOrId, record)
    },

    /** requested or confirmed → cancelled by the operator, the fee waived or as the booking's own policy gives it now. */
    cancel(ctx: OperatorContext, codeOrId: string, input: { reason?: string, fee?: 'waived' | 'policy' }, record?: RecordRow): Promise<BookingRow> {
      const waived = (input.fee ?? 'waived') === 'waived'
      return act({ action: 'booking.cancelled', verb: 'cancelled', from: LIVE_CHECKED_OUT, to: 'cancelled', ends: true }, (row) => {
        const feePercent = waived ? 0
          : cancellationFeePercent(policyOf(row, ctx.catalog.instance.cancellation_policy), Temporal.Instant.from(row.start_at), ctx.now)
        return {
          cancelled_at: toStoredInstant(ctx.now),
          cancelled_by: 'operator',
          cancellation_reason: trimmedOrNull(input.reason),
          cancellation_fee_percent: feePercent,
          cancellation_fee: cancellationFee(row.total, feePercent),
          fee_waived: waived ? 1 : 0,
        }
      })(ctx, codeOrId, record)
    },

    /**
     * Moves or resizes a live booking, or changes its contact or note, in one plan: the seats
     * on the new departure are taken under the capacity rule before the old are freed, and
     * the price is recomputed from the current catalog. Nothing to change: answered unchanged.
     */
    change(ctx: OperatorContext, codeOrId: string, input: BookingChange): Promise<BookingRow> {
      const { catalog, now } = ctx
      const instanceId = catalog.instance.ref
      return onBooking(ctx, codeOrId, function* (row) {
        if (!isOneOf(CHECKED_OUT, row.status)) throw invalidTransition(row, 'changed before checkout')
        const changes: BookingFieldChanges = {}
        const set = <K extends keyof BookingFieldChanges>(field: K, value: BookingFieldChanges[K]) => {
          if (value !== row[field]) changes[field] = value
        }
        const moves = input.start !== undefined || input.tour_id !== undefined || input.party !== undefined || input.addons !== undefined
        if (moves) {
          if (!isOneOf(LIVE_CHECKED_OUT, row.status)) throw invalidTransition(row, 'moved or resized')
          yield* repriced(row, input, catalog, now, set)
        }
        if (input.contact) {
          if (input.contact.name !== undefined) set('contact_name', input.contact.name.trim())
          if (input.contact.email !== undefined) set('contact_email', input.contact.email.trim())
          if (input.contact.phone !== undefined) set('contact_phone', input.contact.phone === null ? null : contactPhone(input.contact.phone, catalog.instance.phone_region))
        }
        if (input.internal_note !== undefined) set('internal_note', trimmedOrNull(input.internal_note))
        if (Object.keys(changes).length === 0) return row

        if (moves && row.quarantined === 0) {
          const from = departureOf(row)
          const to = departureOf({ ...row, ...changes })
          const party = changes.party ?? row.party
          const capacity = catalog.tourById.get(to.tour_id)?.catalog.capacity ?? 0
          yield* changeSeatsOrRefuse(instanceId, sameDeparture(from, to)
            ? [{ key: to, seats: party - row.party, capacity }]
            : [{ key: to, seats: party, capacity }, { key: from, seats: -row.party, capacity: 0 }], toStoredInstant(now))
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
    async create(ctx: OperatorContext, input: StaffBookingRequest, record?: RecordRow): Promise<BookingRow> {
      const { catalog, now } = ctx
      const instance = catalog.instance
      const { catalog: tour } = requireTour(catalog, input.tour_id)
      const start = Temporal.Instant.from(input.start)
      requirePartyInRange(tour.party, input.party)
      const addons = requireAddons(tour, input.addons ?? {})
      const promoCode = input.promo_code?.trim() ? input.promo_code.trim().toUpperCase() : null
      const promo = promoCode === null ? null
        : requireUsablePromo(catalog, promoCode, tour.id, now, await promoRedemptions.uses(instance.ref, promoCode))
      const price = priceBooking({ pricePerPerson: tour.price, party: input.party, addons, promo })
      const contact = { name: input.contact.name.trim(), email: input.contact.email.trim(), phone: contactPhone(input.contact.phone, instance.phone_region) }
      const at = toStoredInstant(now)
      const id = newRowId()

      return store.write(function* () {
        const departure = yield* requireOpenDeparture(catalog, tour, start, now)
        let code = newBookingCode()
        while (yield* bookings.codeExists(instance.ref, code)) code = newBookingCode()
        const row: BookingRow = {
          id,
          instance_id: instance.ref,
          // session_id is required; a staff booking has no guest session, so it gets one of its own
          // that no guest can ever name (guest session ids are 12 letters and digits).
          session_id: `staff:${id}`,
          tour_id: tour.id,
          start_at: toStoredInstant(departure.start),
          end_at: toStoredInstant(departure.end),
          party: input.party,
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
        }
        if (promo && !(yield* promoRedemptions.redeem(instance.ref, promo.code, promo.max_uses ?? null))) {
          throw new ApiError('invalid_promo_code', 'This promo code has been used up', { errors: [{ field: 'promo_code', message: 'has no uses left' }] })
        }
        yield* changeSeatsOrRefuse(instance.ref, [{ key: departureOf(row), seats: row.party, capacity: tour.capacity }], at)
        yield* bookings.insert(row, { notifyGuest: input.notify_guest ?? false })
        yield* minimum.reportIfReached(catalog, departureOf(row), row.party, at, true)
        yield* audit.record({
          instanceId: instance.ref, at, actor: ctx.actor, action: 'booking.created', target: { type: 'booking', id, ref: code }, requestId: ctx.requestId,
          after: { status: row.status, code, channel: 'staff', tour_id: tour.id, start_at: row.start_at, party: row.party, total: row.total, notify_guest: input.notify_guest ?? false },
        })
        if (record) yield* record(row)
        return row
      })
    },

    /**
     * A booking quarantined by a decoy becomes an ordinary one, in the status its checkout
     * gave it: its seats are taken under the capacity rule and its promo code's use counted.
     */
    releaseQuarantine(ctx: OperatorContext, codeOrId: string, record?: RecordRow): Promise<BookingRow> {
      const instanceId = ctx.catalog.instance.ref
      return onBooking(ctx, codeOrId, function* (row) {
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
        yield* changeSeatsOrRefuse(instanceId, [{ key: departureOf(row), seats: row.party, capacity }], at)
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

    /**
     * The request deadline: a request nobody confirmed or declined within the instance's
     * request_decision_hours, or by its departure's cutoff if that comes first, is declined by
     * the system and its seats freed. Safe to run on several nodes at once: a request is
     * declined once, by whichever gets there first.
     */
    async declineOverdueRequests(catalogs: Iterable<InstanceCatalog>, now: Temporal.Instant): Promise<number> {
      const at = toStoredInstant(now)
      let declined = 0
      for (const catalog of catalogs) {
        const instanceId = catalog.instance.ref
        const hours = requestDecisionHours(catalog.instance)
        const longestCutoff = Math.max(0, ...catalog.instance.tours.map((t) => t.cutoff_minutes))
        const candidates = await reads.awaitingDecision(instanceId, toStoredInstant(now.subtract({ hours })), toStoredInstant(now.add({ minutes: longestCutoff })))
        const due = candidates.filter((c) => Temporal.Instant.compare(now, requestDeadline(catalog, c)) >= 0)
        for (let i = 0; i < due.length; i += DEADLINE_BATCH) {
          const ids = due.slice(i, i + DEADLINE_BATCH).map((c) => c.id)
          declined += await store.write(function* () {
            const rows = yield* bookings.transition(instanceId, { ids }, 'requested', 'declined', at, { decline_reason: NO_ANSWER_IN_TIME }, { cause: 'no_answer_in_time' })
            yield* releaseWhatTheyHeld(instanceId, rows)
            for (const row of rows) {
              yield* audit.record({
                instanceId, at, actor: SYSTEM, action: 'booking.declined', target: { type: 'booking', id: row.id, ref: row.code },
                before: { status: 'requested', version: row.version - 1 }, after: { status: 'declined', version: row.version, decline_reason: NO_ANSWER_IN_TIME },
              })
            }
            return rows.length
          })
        }
      }
      return declined
    },
  }
}
export type OperatorBookingService = ReturnType<typeof operatorBookingService>

/** The query's local dates as instants of the instance's zone: from the start of `from` to the end of `to`. */
function storedFilter(catalog: InstanceCatalog, query: BookingQuery): BookingFilter {
  const timeZone = catalog.instance.timezone
  const dayStart = (date: Temporal.PlainDate) => toStoredInstant(date.toZonedDateTime(timeZone).toInstant())
  const date = (text: string | undefined, field: string) => {
    if (text === undefined) return undefined
    try {
      return Temporal.PlainDate.from(text, { overflow: 'reject' })
    } catch {
      throw new ApiError('validation_failed', `${field} is not a calendar date`, { errors: [{ field, message: 'is not a calendar date' }] })
    }
  }
  const from = date(query.from, 'from')
  const to = date(query.to, 'to')
  if (from && to && Temporal.PlainDate.compare(from, to) > 0) {
    throw new ApiError('validation_failed', 'to is before from', { errors: [{ field: 'to', message: 'must not be before from' }] })
  }
  return {
    fromAt: from && dayStart(from),
    toAt: to && dayStart(to.add({ days: 1 })),
    tourId: query.tour,
    statuses: query.statuses ?? CHECKED_OUT,
    q: query.q,
    channel: query.channel,
    quarantined: query.quarantined,
  }
}

/** Statuses from the list's comma-separated `status` parameter (already checked against the schema's pattern). */
export function parseStatuses(text: string | undefined): BookingStatus[] | undefined {
  if (text === undefined) return undefined
  return [...new Set(text.split(','))].filter(isBookingStatus)
}
