import { Temporal } from 'temporal-polyfill'
import { departureRefusal } from '../domain/booking.ts'
import { departureAt } from '../domain/departure-at.ts'
import { fromStoredInstant, todayIn, toStoredInstant } from '../domain/instant-format.ts'
import { LruMap } from '../domain/lru-map.ts'
import { isGuaranteed, minimumToRun } from '../domain/minimum-to-run.ts'
import { expandSchedule, type Departure } from '../domain/schedule.ts'
import { slotState } from '../domain/slot-status.ts'
import { unitMix } from '../domain/units.ts'
import { ApiError } from '../errors/api-error.ts'
import type { Availability } from '../schemas/availability.ts'
import type { CatalogTour } from '../schemas/catalog.ts'
import { MAX_UNIT_QUANTITY } from '../schemas/unit-type.ts'
import type { DepartureRepository, WindowSeats } from '../store/departures.ts'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'

/** The tour, archived or not (the operator's side: an archived tour's bookings and departures stand). */
export function requireTour(catalog: InstanceCatalog, tourId: string) {
  const tour = catalog.tourById.get(tourId)
  if (!tour) throw new ApiError('tour_not_found', `No tour has the id "${tourId}"`)
  return tour
}

/** The tour as guests may see and book it: an archived tour is not offered. */
export function requireOfferedTour(catalog: InstanceCatalog, tourId: string) {
  const tour = catalog.tourById.get(tourId)
  if (!tour || tour.archived) throw new ApiError('tour_not_found', `No tour has the id "${tourId}"`)
  return tour
}

/** The tour's party bounds, in people (with units, the people they count: src/domain/units.ts). */
export function requirePartyInRange(party: { min: number, max: number }, size: number): void {
  if (size < party.min || size > party.max) {
    throw new ApiError('party_out_of_range', `This tour takes parties of ${party.min} to ${party.max}`, {
      min: party.min, max: party.max, errors: [{ field: 'party', message: `must be from ${party.min} to ${party.max} people` }],
    })
  }
}

/** The last local date a departure may be booked on. */
export function lastBookableDate(catalog: InstanceCatalog, now: Temporal.Instant): Temporal.PlainDate {
  return todayIn(now, catalog.instance.timezone).add({ days: catalog.instance.horizonDays })
}

/** A checked availability request: what to read, and the key its answer is kept under. */
export interface AvailabilityWindow {
  tour: CatalogTour
  firstDate: Temporal.PlainDate
  /** Days read: the days asked for, clipped to the horizon. */
  days: number
  requestedDays: number
  /** The people asked for (party, or those the units count); null when neither is given. */
  party: number | null
  /** The seats the asked mix takes, what bookable judges; null when neither party nor units is given. */
  seats: number | null
  /** Each slot's price: the mix's subtotal (one of the first unit when nothing is asked). */
  price: number
  /** The last local date guests may book (YYYY-MM-DD): today plus the horizon. */
  lastDate: string
  key: string
}

type AvailabilityQuery = { tour: string, date?: string, party?: number, units?: string, days?: number }

/** Windows already checked, per catalog: date arithmetic in the Temporal polyfill costs more than the rest of a repeated read. */
const CHECKED_WINDOW_LIMIT = 1_000
const checkedWindows = new WeakMap<InstanceCatalog, LruMap<string, AvailabilityWindow>>()

/** Checks an availability request against the catalog and today's date in the operator's zone. */
export function availabilityWindow(catalog: InstanceCatalog, now: Temporal.Instant, query: AvailabilityQuery): AvailabilityWindow {
  const today = todayIn(now, catalog.instance.timezone)
  let windows = checkedWindows.get(catalog)
  if (!windows) {
    windows = new LruMap(CHECKED_WINDOW_LIMIT)
    checkedWindows.set(catalog, windows)
  }
  const key = JSON.stringify([today.toString(), query.tour, query.date, query.days, query.party, query.units])
  let window = windows.get(key)
  if (!window) {
    window = checkWindow(catalog, today, query)
    windows.set(key, window)
  }
  return window
}

function checkWindow(catalog: InstanceCatalog, today: Temporal.PlainDate, query: AvailabilityQuery): AvailabilityWindow {
  const { catalog: tour } = requireOfferedTour(catalog, query.tour)
  const timeZone = catalog.instance.timezone
  const lastDate = today.add({ days: catalog.instance.horizonDays })
  const firstDate = query.date === undefined ? today : Temporal.PlainDate.from(query.date, { overflow: 'reject' })
  if (Temporal.PlainDate.compare(firstDate, today) < 0 || Temporal.PlainDate.compare(firstDate, lastDate) > 0) {
    throw new ApiError('date_out_of_range', `date must be from ${today} to ${lastDate} (today plus ${catalog.instance.horizonDays} days, ${timeZone})`, {
      errors: [{ field: 'date', message: `must be from ${today} to ${lastDate}` }],
    })
  }
  const units = query.units === undefined ? undefined : parseUnitsQuery(query.units)
  // The one rule (src/domain/units.ts): without units, party (or one, for the price) of the first unit.
  const mix = unitMix(tour, { party: units === undefined ? query.party ?? 1 : query.party, units })
  const asked = query.party !== undefined || units !== undefined
  if (asked) requirePartyInRange(tour.party, mix.party)
  const price = mix.lines.reduce((sum, line) => sum + line.amount, 0)
  const requestedDays = query.days ?? 7
  const days = Math.min(requestedDays, firstDate.until(lastDate).days + 1)
  const party = asked ? mix.party : null
  const seats = asked ? mix.seats : null
  // Keyed on the resolved mix (in the tour's order), so the same mix however written shares one kept answer.
  const mixKey = units === undefined ? `${party}` : mix.lines.map((line) => `${line.id}:${line.quantity}`).join(',')
  return { tour, firstDate, days, requestedDays, party, seats, price, lastDate: lastDate.toString(),
    key: `${tour.id} ${firstDate} ${days} ${requestedDays} ${mixKey}` }
}

/** `adult:2,child:1` (its form checked by the query schema) as POST /booking's units map; an id twice or a quantity above the most is refused naming units. */
function parseUnitsQuery(text: string): Record<string, number> {
  const units: Record<string, number> = {}
  for (const pair of text.split(',')) {
    const [id, quantity] = pair.split(':')
    const problem = Object.hasOwn(units, id) ? `names ${id} twice`
      : Number(quantity) > MAX_UNIT_QUANTITY ? `books at most ${MAX_UNIT_QUANTITY} of a unit` : null
    if (problem !== null) throw new ApiError('validation_failed', `units ${problem}`, { errors: [{ field: 'units', message: problem }] })
    units[id] = Number(quantity)
  }
  return units
}

export interface AvailabilityRead {
  answer: Availability
  /** Until when the answer stays true if nothing is written: the next cutoff, start or hold lapse. */
  validUntilMs: number
}

/** The schedule's departures and those an operator added by hand (stored with extra), in start order. */
function departuresOf(tour: CatalogTour, timeZone: string, window: AvailabilityWindow, seats: WindowSeats): Departure[] {
  const scheduled = expandSchedule(tour, timeZone, window.firstDate, window.days)
  const starts = new Set(scheduled.map((d) => d.startKey))
  const added = [...seats.byStart.values()]
    .filter((d) => d.extra === 1 && !starts.has(d.start_at))
    .map((d) => departureAt(fromStoredInstant(d.start_at), tour.duration_minutes, timeZone))
  return added.length === 0 ? scheduled : [...scheduled, ...added].sort((a, b) => a.startMs - b.startMs)
}

export async function readAvailability(catalog: InstanceCatalog, departureRows: DepartureRepository, now: Temporal.Instant,
  window: AvailabilityWindow): Promise<AvailabilityRead> {
  const { tour, firstDate, days, party, seats: askedSeats } = window
  const price = { amount: window.price, currency: catalog.instance.currency }
  const limits = { by: 'guest', lastDate: window.lastDate } as const
  const timeZone = catalog.instance.timezone
  const nowMs = now.epochMilliseconds
  const windowStart = firstDate.toZonedDateTime(timeZone).toInstant()
  const windowEnd = firstDate.add({ days }).toZonedDateTime(timeZone).toInstant()
  const seats = await departureRows.seatsInWindow(catalog.instance.ref, tour.id,
    toStoredInstant(windowStart), toStoredInstant(windowEnd), toStoredInstant(now), minimumToRun(tour) !== null)
  const departures = departuresOf(tour, timeZone, window, seats).filter((d) => d.startMs > nowMs)

  const cutoffMs = tour.cutoff_minutes * 60_000
  const minimum = minimumToRun(tour)
  let validUntilMs = seats.nextLapseAt === null ? Infinity : fromStoredInstant(seats.nextLapseAt).epochMilliseconds
  for (const d of departures) {
    const closesAt = d.startMs - cutoffMs
    validUntilMs = Math.min(validUntilMs, closesAt > nowMs ? closesAt : d.startMs)
  }
  return {
    validUntilMs,
    answer: {
      tour_id: tour.id,
      timezone: timeZone,
      date: firstDate.toString(),
      days: window.requestedDays,
      party,
      slots: departures.map((d) => {
        const stored = seats.byStart.get(d.startKey)
        const capacity = stored?.capacity ?? tour.capacity
        const { remaining, status, ...bookable } = slotState({
          capacity,
          seatsTaken: stored?.seats_taken ?? 0,
          // The guest's rule (src/domain/booking.ts). Slots are read within the horizon and after
          // now (availabilityWindow, the filter above), so the refusal they can meet is the cutoff.
          pastCutoff: departureRefusal(d, tour.cutoff_minutes, nowMs, limits) !== null,
          // A cancelled departure is closed too; both take no new holds.
          closedByOperator: stored?.closed === 1 || stored?.cancelled === 1,
          seats: askedSeats,
        })
        return {
          start: d.startText,
          end: d.endText,
          date: d.date,
          time: d.time,
          capacity,
          remaining,
          status,
          guaranteed: isGuaranteed(minimum, stored?.people ?? 0),
          ...bookable,
          price,
        }
      }),
    },
  }
}
