import { Temporal } from 'temporal-polyfill'

/** RFC 3339 with the offset the zone has at that instant, to the second. */
export function formatInZone(instant: Temporal.Instant, timeZone: string): string {
  return instant.toZonedDateTimeISO(timeZone).toString({ timeZoneName: 'never', smallestUnit: 'second' })
}

/** Fixed-width UTC form stored in the database, so text order is time order. */
export function toStoredInstant(instant: Temporal.Instant): string {
  // Date prints the same form (milliseconds, truncated, 'Z') for years 0 to 9999, in a
  // fraction of the time Temporal's general formatter takes.
  return new Date(instant.epochMilliseconds).toISOString()
}

export function fromStoredInstant(text: string): Temporal.Instant {
  return Temporal.Instant.from(text)
}

interface LocalDay {
  date: Temporal.PlainDate
  startMs: number
  endMs: number
}

/** The local day each zone was last asked about: zone arithmetic costs tens of microseconds, a day lasts 86,400 s. */
const lastDayByZone = new Map<string, LocalDay>()

export function todayIn(now: Temporal.Instant, timeZone: string): Temporal.PlainDate {
  const nowMs = now.epochMilliseconds
  const known = lastDayByZone.get(timeZone)
  if (known && nowMs >= known.startMs && nowMs < known.endMs) return known.date
  const date = now.toZonedDateTimeISO(timeZone).toPlainDate()
  lastDayByZone.set(timeZone, {
    date,
    startMs: date.toZonedDateTime(timeZone).epochMilliseconds,
    endMs: date.add({ days: 1 }).toZonedDateTime(timeZone).epochMilliseconds,
  })
  return date
}
