import { Temporal } from 'temporal-polyfill'

/** RFC 3339 with the offset the zone has at that instant, to the second. */
export function formatInZone(instant: Temporal.Instant, timeZone: string): string {
  return instant.toZonedDateTimeISO(timeZone).toString({ timeZoneName: 'never', smallestUnit: 'second' })
}

/** Fixed-width UTC form stored in the database, so text order is time order. */
export function toStoredInstant(instant: Temporal.Instant): string {
  return instant.toString({ fractionalSecondDigits: 3 })
}

export function fromStoredInstant(text: string): Temporal.Instant {
  return Temporal.Instant.from(text)
}

export function todayIn(now: Temporal.Instant, timeZone: string): Temporal.PlainDate {
  return now.toZonedDateTimeISO(timeZone).toPlainDate()
}
