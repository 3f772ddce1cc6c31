import { Temporal } from 'temporal-polyfill'
import type { CatalogTour } from '../schemas/catalog.ts'
import { formatInZone, toStoredInstant } from './instant-format.ts'
import { LruMap } from './lru-map.ts'

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const

export interface Departure {
  start: Temporal.Instant
  end: Temporal.Instant
  /** Local date and wall-clock time the departure actually starts at. */
  date: string
  time: string
  /** The start and end as RFC 3339 with the zone's offset, as the API shows them. */
  startText: string
  endText: string
  /** The start in the database's fixed-width UTC form. */
  startKey: string
  startMs: number
}

/**
 * Expanded days, most recently used last. Zone arithmetic in the Temporal polyfill costs
 * tens of microseconds per step, so a 14-day availability read would spend milliseconds
 * recomputing starts that never change for a given catalog; about 20,000 tour-days
 * (a few MB) covers every tour's popular weeks.
 */
const DAY_CACHE_LIMIT = 20_000
const dayCache = new LruMap<string, Departure[]>(DAY_CACHE_LIMIT)
const tourKeys = new WeakMap<ScheduledTour, number>()
let nextTourKey = 0

type ScheduledTour = Pick<CatalogTour, 'schedule' | 'blackouts' | 'duration_minutes'>

/**
 * The starts the rules give for one configured date. A time that does not exist
 * (spring-forward gap) moves forward by the gap; a time that occurs twice (fall-back) takes
 * the earlier one: RFC 5545's rule and Temporal's "compatible" disambiguation. A gap at
 * midnight can move a start onto the next date, which is the date it is listed under.
 */
function* configuredStarts(tour: ScheduledTour, timeZone: string, date: Temporal.PlainDate): Generator<Departure> {
  const iso = date.toString()
  if (tour.blackouts.includes(iso)) return
  const weekday = WEEKDAYS[date.dayOfWeek - 1]
  for (const rule of tour.schedule) {
    if (iso < rule.from || iso > rule.until || !rule.weekdays.includes(weekday)) continue
    for (const time of rule.times) {
      const zoned = date.toPlainDateTime(Temporal.PlainTime.from(time))
        .toZonedDateTime(timeZone, { disambiguation: 'compatible' })
      const start = zoned.toInstant()
      const end = start.add({ minutes: tour.duration_minutes })
      yield {
        start,
        end,
        date: zoned.toPlainDate().toString(),
        time: zoned.toPlainTime().toString({ smallestUnit: 'minute' }),
        startText: formatInZone(start, timeZone),
        endText: formatInZone(end, timeZone),
        startKey: toStoredInstant(start),
        startMs: start.epochMilliseconds,
      }
    }
  }
}

/** A number for the tour object, for the caches' keys: the tour objects of a loaded catalog never change, and a new catalog brings new ones. */
function tourKeyOf(tour: ScheduledTour): number {
  let tourKey = tourKeys.get(tour)
  if (tourKey === undefined) {
    tourKey = nextTourKey++
    tourKeys.set(tour, tourKey)
  }
  return tourKey
}

/** configuredStarts of one date, remembered. */
function startsConfiguredOn(tour: ScheduledTour, timeZone: string, date: Temporal.PlainDate): Departure[] {
  const key = `${tourKeyOf(tour)} ${timeZone} ${date}`
  let starts = dayCache.get(key)
  if (!starts) {
    starts = [...configuredStarts(tour, timeZone, date)]
    dayCache.set(key, starts)
  }
  return starts
}

/**
 * Every scheduled departure whose local start date is one of the `days` dates from
 * `firstDate`, in start order; starts that land on the same instant are one departure.
 */
export function expandSchedule(tour: ScheduledTour, timeZone: string, firstDate: Temporal.PlainDate, days: number): Departure[] {
  const first = firstDate.toString()
  const afterLast = firstDate.add({ days }).toString()
  const byInstant = new Map<number, Departure>()
  for (let d = -1; d < days; d++) {
    for (const departure of startsConfiguredOn(tour, timeZone, firstDate.add({ days: d }))) {
      if (departure.date < first || departure.date >= afterLast || tour.blackouts.includes(departure.date)) continue
      byInstant.set(departure.startMs, departure)
    }
  }
  return [...byInstant.values()].sort((a, b) => a.startMs - b.startMs)
}

/**
 * Departures found by their start, or null for a start the schedule does not have: every hold
 * asks, and finding one costs zone arithmetic that its answer never changes (bench/profile.ts
 * hold-release, 2026-11-27). Keyed like dayCache, by the tour object.
 */
const foundCache = new LruMap<string, Departure | null>(DAY_CACHE_LIMIT)

/** The scheduled departure starting at exactly this instant, if there is one. */
export function findDeparture(tour: ScheduledTour, timeZone: string, start: Temporal.Instant): Departure | undefined {
  const key = `${tourKeyOf(tour)} ${timeZone} ${start.epochNanoseconds}`
  let found = foundCache.get(key)
  if (found === undefined) {
    const localDate = start.toZonedDateTimeISO(timeZone).toPlainDate()
    found = expandSchedule(tour, timeZone, localDate, 1).find((d) => d.start.equals(start)) ?? null
    foundCache.set(key, found)
  }
  return found ?? undefined
}
