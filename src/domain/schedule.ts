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
 * The departures of one local date. A time that does not exist (spring-forward gap) moves
 * forward by the gap; a time that occurs twice (fall-back) takes the earlier one. This is
 * RFC 5545's rule and Temporal's "compatible" disambiguation. Starts that land on the
 * same instant are merged.
 */
function departuresOn(tour: ScheduledTour, timeZone: string, date: Temporal.PlainDate): Departure[] {
  const iso = date.toString()
  if (tour.blackouts.includes(iso)) return []
  const weekday = WEEKDAYS[date.dayOfWeek - 1]
  const byInstant = new Map<bigint, Departure>()
  for (const rule of tour.schedule) {
    if (iso < rule.from || iso > rule.until || !rule.weekdays.includes(weekday)) continue
    for (const time of rule.times) {
      const zoned = date.toPlainDateTime(Temporal.PlainTime.from(time))
        .toZonedDateTime(timeZone, { disambiguation: 'compatible' })
      const start = zoned.toInstant()
      byInstant.set(start.epochNanoseconds, {
        start,
        end: start.add({ minutes: tour.duration_minutes }),
        date: zoned.toPlainDate().toString(),
        time: zoned.toPlainTime().toString({ smallestUnit: 'minute' }),
      })
    }
  }
  return [...byInstant.values()].sort((a, b) => Temporal.Instant.compare(a.start, b.start))
}

/** Every scheduled departure on `days` local dates from `firstDate`, in start order. */
export function expandSchedule(tour: ScheduledTour, timeZone: string, firstDate: Temporal.PlainDate, days: number): Departure[] {
  const out: Departure[] = []
  for (let d = 0; d < days; d++) out.push(...departuresOn(tour, timeZone, firstDate.add({ days: d })))
  return out
}

/** The scheduled departure starting at exactly this instant, if there is one. */
export function findDeparture(tour: ScheduledTour, timeZone: string, start: Temporal.Instant): Departure | undefined {
  const localDate = start.toZonedDateTimeISO(timeZone).toPlainDate()
  return departuresOn(tour, timeZone, localDate).find((d) => d.start.equals(start))
}
