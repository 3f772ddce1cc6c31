import { Temporal } from 'temporal-polyfill'
import { formatEpochMsInZone, toStoredInstant } from './instant-format.ts'
import type { Departure } from './schedule.ts'

/**
 * A departure at an instant the schedule does not give (one added by hand, or one the
 * schedule no longer lists), in the same shape as expandSchedule's: local date and time in
 * the zone, the end after `durationMinutes`.
 */
export function departureAt(start: Temporal.Instant, durationMinutes: number, timeZone: string): Departure {
  const zoned = start.toZonedDateTimeISO(timeZone)
  const end = start.add({ minutes: durationMinutes })
  return {
    start,
    end,
    date: zoned.toPlainDate().toString(),
    time: zoned.toPlainTime().toString({ smallestUnit: 'minute' }),
    startText: formatEpochMsInZone(start.epochMilliseconds, timeZone),
    endText: formatEpochMsInZone(end.epochMilliseconds, timeZone),
    startKey: toStoredInstant(start),
    startMs: start.epochMilliseconds,
  }
}
