import { Temporal } from 'temporal-polyfill'
import type { CatalogTour } from '../schemas/catalog.ts'

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const

export interface Departure {
  start: Temporal.Instant
  end: Temporal.Instant
  /** Local date and wall-clock time the departure actually starts at. */
  date: string
  time: string
}

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
      yield {
        start,
        end: start.add({ minutes: tour.duration_minutes }),
        date: zoned.toPlainDate().toString(),
        time: zoned.toPlainTime().toString({ smallestUnit: 'minute' }),
      }
    }
  }
}

/**
 * Every scheduled departure whose local start date is one of the `days` dates from
 * `firstDate`, in start order; starts that land on the same instant are one departure.
 */
export function expandSchedule(tour: ScheduledTour, timeZone: string, firstDate: Temporal.PlainDate, days: number): Departure[] {
  const first = firstDate.toString()
  const afterLast = firstDate.add({ days }).toString()
  const byInstant = new Map<bigint, Departure>()
  for (let d = -1; d < days; d++) {
    for (const departure of configuredStarts(tour, timeZone, firstDate.add({ days: d }))) {
      if (departure.date < first || departure.date >= afterLast || tour.blackouts.includes(departure.date)) continue
      byInstant.set(departure.start.epochNanoseconds, departure)
    }
  }
  return [...byInstant.values()].sort((a, b) => Temporal.Instant.compare(a.start, b.start))
}

/** The scheduled departure starting at exactly this instant, if there is one. */
export function findDeparture(tour: ScheduledTour, timeZone: string, start: Temporal.Instant): Departure | undefined {
  const localDate = start.toZonedDateTimeISO(timeZone).toPlainDate()
  return expandSchedule(tour, timeZone, localDate, 1).find((d) => d.start.equals(start))
}
