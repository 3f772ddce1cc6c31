import { Temporal } from 'temporal-polyfill'
import { isOneOf, LIVE_CHECKED_OUT, ON_MANIFEST, type BookingStatus } from '../schemas/booking-status.ts'
import { formatStoredInZone, todayIn, toStoredInstant } from '../domain/instant-format.ts'
import { findDeparture, type Departure } from '../domain/schedule.ts'
import { ApiError } from '../errors/api-error.ts'
import type { CatalogTour } from '../schemas/catalog.ts'
import type { DepartureKey } from '../store/bookings.ts'
import type { DepartureChange, DepartureRow } from '../store/departures.ts'
import type { EventNotice } from '../store/events.ts'
import type { Store } from '../store/store.ts'
import { emit, type Plan, type RecordAnswer } from '../store/write-plan.ts'
import { requireTour } from './availability.ts'
import { countSeats, departureData, departureRecord, seatTotal, type DepartureRecord } from './departure-record.ts'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { byListOrder, entriesAfter, scheduledOn } from './scheduled-days.ts'
import { listDates, parseStart, requireVersion, type Cancellation, type ChangeContext, type DepartureChangeRequest, type DepartureContext, type ListPosition, type ListQuery } from './departure-requests.ts'
import type { BookingRecord } from '../domain/booking.ts'

/** Bookings moved by one statement of a cancellation, well under both databases' bound-parameter limits. */
const IDS_PER_STATEMENT = 500
const keyOf = (instanceId: string, tourId: string, startKey: string): DepartureKey => ({ instance_id: instanceId, tour_id: tourId, start_at: startKey })
/** A departure as the audit log names it: by tour and start, and as people know it, the tour's title and its local start. */
const targetOf = (key: DepartureKey, catalog: InstanceCatalog) => ({
  type: 'departure', id: `${key.tour_id}/${key.start_at}`,
  ref: `${catalog.tourById.get(key.tour_id)?.catalog.title ?? key.tour_id}, ${formatStoredInZone(key.start_at, catalog.instance.timezone)}`,
})
/** The stored instant one millisecond later: an exclusive bound that takes in `key` itself (stored instants are to the millisecond). */
const justAfter = (key: string) => new Date(Date.parse(key) + 1).toISOString()

/**
 * The operator's departures (docs/operator-api.md, "Departures"). A departure is a scheduled start, a
 * start added by hand (extra), or a stored start the schedule no longer gives that still has
 * bookings (orphaned). Rows exist only where someone booked, an operator changed something or
 * a minimum-to-run deadline was checked, so every read merges the schedule with the stored rows.
 */
/** A departure's event (docs/events-and-webhooks.md, "Events"), its data the departure's operator record as the change left it. */
export function* reportDeparture(type: 'departure.closed' | 'departure.reopened' | 'departure.cancelled' | 'departure.at_risk' | 'departure.guaranteed', record: DepartureRecord, key: DepartureKey, now: string, notice?: EventNotice): Plan<void> {
  yield* emit({ instanceId: key.instance_id, type, subject: { type: 'departure', id: `${key.tour_id}/${key.start_at}` }, occurredAt: now, data: { ...departureData(record) }, notice })
}

export function departureService(store: Store) {
  const { departures, bookings, audit } = store

  /** The schedule's entry at this start, if any; the stored row decides for any other start. */
  function scheduledAt(catalog: InstanceCatalog, tourId: string, start: Temporal.Instant): Departure | undefined {
    const tour = catalog.tourById.get(tourId)?.catalog
    return tour && findDeparture(tour, catalog.instance.timezone, start)
  }

  function notFound(catalog: InstanceCatalog, tourId: string, start: Temporal.Instant): ApiError {
    return catalog.tourById.has(tourId)
      ? new ApiError('departure_not_found', `${tourId} has no departure starting at ${start}`)
      : new ApiError('tour_not_found', `No tour has the id "${tourId}"`)
  }

  /**
   * The row of an existing departure, locked (PostgreSQL) for the rest of the plan: a
   * scheduled departure that has none yet gets it now, with the tour's capacity.
   */
  function* lockedRow(catalog: InstanceCatalog, key: DepartureKey, scheduled: Departure | undefined): Plan<DepartureRow> {
    if (scheduled) yield* departures.ensure(key, catalog.tourById.get(key.tour_id)!.catalog.capacity)
    const row = yield* departures.find(key, true)
    if (!row) throw notFound(catalog, key.tour_id, Temporal.Instant.from(key.start_at))
    return row
  }

  /** The record of one departure as it stands inside a plan (for answers that commit with the change). */
  function* recordInPlan(catalog: InstanceCatalog, row: DepartureRow, scheduled: Departure | undefined, now: string): Plan<DepartureRecord> {
    const [seats] = yield* departures.seats(row.instance_id, row.tour_id, row.start_at, justAfter(row.start_at), now)
    return departureRecord(catalog, row.tour_id, row.start_at, scheduled, row, seats)
  }

  /** Gives back the seats of bookings that left a seat-taking status (quarantined ones never took any). */
  function* freeSeats(key: DepartureKey, rows: readonly BookingRecord[]): Plan<void> {
    const seats = rows.filter((row) => row.quarantined === 0).reduce((sum, row) => sum + row.seats, 0)
    if (seats > 0) yield* bookings.changeSeats([{ key, seats: -seats, capacity: 0 }])
  }

  return {
    /**
     * One page of the departures in a window of local dates, in start order (then tour id).
     * The schedule gives the page and one more, whole days at a time; up to that start (the
     * page's span), one read of the stored rows and one grouped read of the seats per status
     * add the unscheduled departures that belong on it and the seats of all of them.
     */
    async list(ctx: DepartureContext, query: ListQuery): Promise<{ departures: DepartureRecord[], next: ListPosition | null }> {
      const { catalog } = ctx
      const timeZone = catalog.instance.timezone
      const instanceId = catalog.instance.ref
      const tours = query.tour === undefined ? catalog.instance.tours : [requireTour(catalog, query.tour).catalog]
      const { from, to } = listDates(query, todayIn(ctx.now, timeZone))
      const now = toStoredInstant(ctx.now)
      const { after, limit } = query

      const scheduled: Array<{ startKey: string, tourId: string, scheduled: Departure | undefined }> = []
      let date = from
      if (after !== null) {
        const afterDate = Temporal.Instant.from(after.startKey).toZonedDateTimeISO(timeZone).toPlainDate()
        if (Temporal.PlainDate.compare(afterDate, date) > 0) date = afterDate
      }
      for (; Temporal.PlainDate.compare(date, to) <= 0 && scheduled.length <= limit; date = date.add({ days: 1 })) {
        scheduled.push(...entriesAfter(scheduledOn(catalog, tours, date), after))
      }
      // Every scheduled start up to the span's end is in `scheduled` (its days were read whole),
      // so a stored row of the span that is not there is added by hand or orphaned.
      const spanFrom = after?.startKey ?? toStoredInstant(from.toZonedDateTime(timeZone).toInstant())
      const spanBefore = scheduled.length > limit ? justAfter(scheduled[limit].startKey) : toStoredInstant(to.add({ days: 1 }).toZonedDateTime(timeZone).toInstant())
      const tourFilter = query.tour ?? null
      const [rows, seats] = await Promise.all([
        store.read(() => departures.inSpan(instanceId, tourFilter, spanFrom, spanBefore)),
        store.read(() => departures.seats(instanceId, tourFilter, spanFrom, spanBefore, now)),
      ])
      const rowOf = new Map(rows.map((r) => [`${r.start_at} ${r.tour_id}`, r]))
      const seatsOf = new Map(seats.map((s) => [`${s.start_at} ${s.tour_id}`, s]))
      const listed = new Set(scheduled.map((e) => `${e.startKey} ${e.tourId}`))
      const entries = [...scheduled]
      for (const row of rows) {
        const id = `${row.start_at} ${row.tour_id}`
        if (listed.has(id) || (after !== null && byListOrder({ startKey: row.start_at, tourId: row.tour_id }, after) <= 0)) continue
        const counts = seatsOf.get(id)
        if (row.extra === 1 || (counts !== undefined && seatTotal(counts) > 0)) entries.push({ startKey: row.start_at, tourId: row.tour_id, scheduled: undefined })
      }
      entries.sort(byListOrder)
      const page = entries.slice(0, limit)
      const last = page[page.length - 1]
      return {
        departures: page.map((e) => departureRecord(catalog, e.tourId, e.startKey, e.scheduled, rowOf.get(`${e.startKey} ${e.tourId}`), seatsOf.get(`${e.startKey} ${e.tourId}`))),
        next: entries.length > limit ? { startKey: last.startKey, tourId: last.tourId } : null,
      }
    },

    /** One departure and its bookings on the manifest (requested, confirmed, completed, no-show; quarantined ones left out). */
    async detail(ctx: DepartureContext, tourId: string, start: Temporal.Instant): Promise<{ departure: DepartureRecord, manifest: BookingRecord[] }> {
      const { catalog } = ctx
      const key = keyOf(catalog.instance.ref, tourId, toStoredInstant(start))
      const scheduled = scheduledAt(catalog, tourId, start)
      const [row, onDeparture] = await Promise.all([store.read(() => departures.find(key)), store.read(() => departures.bookingsOn(key))])
      if (!scheduled && !row) throw notFound(catalog, tourId, start)
      const now = toStoredInstant(ctx.now)
      const seats = countSeats(onDeparture, now)
      const endAt = onDeparture.reduce<string | null>((latest, b) => (latest === null || b.end_at > latest ? b.end_at : latest), null)
      return {
        departure: departureRecord(catalog, tourId, key.start_at, scheduled, row, { ...seats, tour_id: tourId, start_at: key.start_at, end_at: endAt }),
        manifest: onDeparture.filter((b) => isOneOf(ON_MANIFEST, b.status)),
      }
    },

    /**
     * PATCH: capacity, closed and note. A new capacity is written only while the seats taken
     * fit under it, by the update itself, so a hold committing at the same moment either
     * counts (and the change is refused) or finds the new capacity. Lapsed holds nobody has
     * swept yet are expired first when they are what stands in the way.
     */
    async change(ctx: ChangeContext, tourId: string, start: Temporal.Instant, request: DepartureChangeRequest, ifMatch: number | null): Promise<DepartureRecord> {
      const { catalog } = ctx
      const instanceId = catalog.instance.ref
      const key = keyOf(instanceId, tourId, toStoredInstant(start))
      const scheduled = scheduledAt(catalog, tourId, start)
      const now = toStoredInstant(ctx.now)
      const row = await store.write(function* (): Plan<DepartureRow> {
        const current = yield* lockedRow(catalog, key, scheduled)
        requireVersion(current, ifMatch)
        if (request.closed === false && current.cancelled === 1) {
          throw new ApiError('departure_cancelled', 'A cancelled departure stays closed; add a new departure instead')
        }
        const change: DepartureChange = {}
        if (request.capacity !== undefined && (request.capacity !== current.capacity || current.capacity_source !== 'operator')) {
          change.capacity = request.capacity
          change.capacity_source = 'operator'
        }
        if (request.closed !== undefined && Number(request.closed) !== current.closed) change.closed = Number(request.closed)
        const note = request.note === undefined ? undefined : request.note?.trim() || null
        if (note !== undefined && note !== current.note) change.note = note
        const fields = Object.keys(change) as Array<keyof DepartureChange>
        if (fields.length === 0) return current

        let changed = yield* departures.change(key, change, change.capacity)
        if (!changed && change.capacity !== undefined) {
          const expired = yield* bookings.transition(instanceId, { departure: key, lapsedBy: now }, 'held', 'expired', now)
          yield* freeSeats(key, expired)
          if (expired.length > 0) changed = yield* departures.change(key, change, change.capacity)
        }
        if (!changed) {
          const { seats_taken } = (yield* departures.find(key))!
          throw new ApiError('capacity_below_booked', `${seats_taken} seats are taken on this departure; the capacity cannot go below that`, { seats_taken })
        }
        yield* audit.record({
          instanceId,
          at: now,
          actor: ctx.actor,
          action: 'departure.changed',
          target: targetOf(key, catalog),
          before: Object.fromEntries(fields.map((f) => [f, current[f]])),
          after: Object.fromEntries(fields.map((f) => [f, changed[f]])),
          requestId: ctx.requestId,
        })
        if (change.closed !== undefined) {
          yield* reportDeparture(change.closed === 1 ? 'departure.closed' : 'departure.reopened', yield* recordInPlan(catalog, changed, scheduled, now), key, now)
        }
        return changed
      })
      const [seats] = await store.read(() => departures.seats(instanceId, tourId, key.start_at, justAfter(key.start_at), now))
      return departureRecord(catalog, tourId, key.start_at, scheduled, row, seats)
    },

    /**
     * Cancels the departure: closes it (no hold can take a seat on it from then on), cancels
     * every requested and confirmed booking with the fee waived, releases its holds and frees
     * their seats, in one plan. Each booking's session is locked first, in session id order,
     * as every other plan that changes a booking does. A departure already cancelled is
     * answered as it is.
     */
    async cancel(ctx: ChangeContext, tourId: string, start: Temporal.Instant, input: { reason: string, notify_guests?: boolean }, ifMatch: number | null,
      record?: RecordAnswer<Cancellation>): Promise<Cancellation> {
      const { catalog } = ctx
      const instanceId = catalog.instance.ref
      const key = keyOf(instanceId, tourId, toStoredInstant(start))
      const scheduled = scheduledAt(catalog, tourId, start)
      const now = toStoredInstant(ctx.now)
      const reason = input.reason.trim()
      return store.write(function* (): Plan<Cancellation> {
        const locked = new Set<string>()
        function* lockSessionsOf(rows: ReadonlyArray<Pick<BookingRecord, 'session_id'>>): Plan<void> {
          for (const session of [...new Set(rows.map((r) => r.session_id))].filter((s) => !locked.has(s)).sort()) {
            yield* bookings.lockSession(instanceId, session)
            locked.add(session)
          }
        }
        yield* lockSessionsOf(yield* departures.liveBookingsOn(key))
        const current = yield* lockedRow(catalog, key, scheduled)
        requireVersion(current, ifMatch)
        if (current.cancelled === 1) {
          const answer = { departure: yield* recordInPlan(catalog, current, scheduled, now), cancelledBookings: 0, releasedHolds: 0 }
          if (record) yield* record(answer)
          return answer
        }
        const closed = (yield* departures.change(key, { closed: 1, cancelled: 1 }))!
        // Closed now, so no hold can take a seat here any more; bookings that came in after
        // the first read are found (and their sessions locked) now.
        const live = yield* departures.liveBookingsOn(key)
        yield* lockSessionsOf(live)
        const cancelled: Array<{ booking: BookingRecord, from: BookingStatus }> = []
        const released: BookingRecord[] = []
        const terms = { cancelled_at: now, cancelled_by: 'operator' as const, cancellation_reason: reason, fee_waived: 1, cancellation_fee_percent: 0, cancellation_fee: 0 }
        for (let i = 0; i < live.length; i += IDS_PER_STATEMENT) {
          const selector = { ids: live.slice(i, i + IDS_PER_STATEMENT).map((b) => b.id) }
          for (const from of LIVE_CHECKED_OUT) {
            const notice = { cause: 'departure_cancelled' as const, notifyGuest: input.notify_guests ?? true }
            for (const booking of yield* bookings.transition(instanceId, selector, from, 'cancelled', now, terms, notice)) cancelled.push({ booking, from })
          }
          released.push(...yield* bookings.transition(instanceId, selector, 'held', { lapsedBy: now, lapsed: 'expired', live: 'released' }, now))
        }
        yield* freeSeats(key, [...cancelled.map((c) => c.booking), ...released])
        for (const { booking } of cancelled) {
          if (booking.promo_code && booking.quarantined === 0) yield* store.promoRedemptions.release(instanceId, booking.promo_code)
        }
        const releasedHolds = released.filter((b) => b.status === 'released').length
        yield* audit.record({
          instanceId,
          at: now,
          actor: ctx.actor,
          action: 'departure.cancelled',
          target: targetOf(key, catalog),
          before: { closed: current.closed === 1, cancelled: false },
          after: { closed: true, cancelled: true, reason, cancelled_bookings: cancelled.length, released_holds: releasedHolds },
          requestId: ctx.requestId,
        })
        for (const { booking, from } of cancelled) {
          yield* audit.record({
            instanceId,
            at: now,
            actor: ctx.actor,
            action: 'booking.cancelled',
            target: { type: 'booking', id: booking.id, ref: booking.code },
            before: { status: from },
            after: { status: 'cancelled', cancelled_by: 'operator', cancellation_reason: reason, fee_waived: true },
            requestId: ctx.requestId,
          })
        }
        // Each cancelled booking's booking.cancelled event comes from its transition, and the guest's email from that event.
        const answer = { departure: yield* recordInPlan(catalog, closed, scheduled, now), cancelledBookings: cancelled.length, releasedHolds }
        yield* reportDeparture('departure.cancelled', answer.departure, key, now)
        if (record) yield* record(answer)
        return answer
      })
    },

    /**
     * POST /departures: a departure added by hand, which guests book like a scheduled one. A
     * stored departure the schedule no longer gives (kept for its bookings) can be added back.
     */
    async add(ctx: ChangeContext, input: { tour_id: string, start: string, capacity?: number }, record?: RecordAnswer<DepartureRecord>): Promise<DepartureRecord> {
      const { catalog } = ctx
      const instanceId = catalog.instance.ref
      const tour: CatalogTour = requireTour(catalog, input.tour_id).catalog
      const start = parseStart(input.start, 'start')
      if (start.epochMilliseconds % 60_000 !== 0) {
        throw new ApiError('validation_failed', 'A departure starts on a whole minute', { errors: [{ field: 'start', message: 'must be on a whole minute' }] })
      }
      if (Temporal.Instant.compare(start, ctx.now) <= 0) {
        throw new ApiError('date_out_of_range', 'A departure can only be added in the future', { errors: [{ field: 'start', message: 'must be in the future' }] })
      }
      if (findDeparture(tour, catalog.instance.timezone, start)) {
        throw new ApiError('departure_exists', `${tour.title} already has a scheduled departure at ${input.start}`)
      }
      const key = keyOf(instanceId, tour.id, toStoredInstant(start))
      const now = toStoredInstant(ctx.now)
      const capacity = input.capacity ?? tour.capacity
      return store.write(function* (): Plan<DepartureRecord> {
        let row = yield* departures.insertExtra(key, capacity, input.capacity === undefined ? 'tour' : 'operator')
        if (!row) {
          const existing = (yield* departures.find(key, true))!
          if (existing.extra === 1) throw new ApiError('departure_exists', `${tour.title} already has a departure added at ${input.start}`)
          if (existing.cancelled === 1) throw new ApiError('departure_cancelled', 'This departure was cancelled; a cancelled departure stays closed')
          const change: DepartureChange = input.capacity === undefined ? { extra: 1 } : { extra: 1, capacity, capacity_source: 'operator' }
          row = yield* departures.change(key, change, input.capacity)
          if (!row) {
            throw new ApiError('capacity_below_booked', `${existing.seats_taken} seats are taken on this departure; the capacity cannot go below that`, { seats_taken: existing.seats_taken })
          }
        }
        yield* audit.record({
          instanceId,
          at: now,
          actor: ctx.actor,
          action: 'departure.added',
          target: targetOf(key, catalog),
          after: { extra: true, capacity: row.capacity, capacity_source: row.capacity_source },
          requestId: ctx.requestId,
        })
        const answer = yield* recordInPlan(catalog, row, undefined, now)
        if (record) yield* record(answer)
        return answer
      })
    },
  }
}
export type DepartureService = ReturnType<typeof departureService>
