import { Temporal } from 'temporal-polyfill'

/** A stretch of time over which a zone keeps one offset (between two transitions). */
interface OffsetSpan {
  startMs: number
  endMs: number
  offsetMs: number
  /** As Temporal prints it (rounded to the minute). */
  offsetText: string
}

/** Spans already looked up, per zone: a handful per zone covers every date a booking engine formats. */
const OFFSET_SPANS_PER_ZONE = 16
const offsetSpans = new Map<string, OffsetSpan[]>()

function lookUpOffsetSpan(epochMs: number, timeZone: string): OffsetSpan {
  const zoned = Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(timeZone)
  const previous = zoned.getTimeZoneTransition('previous')
  const next = zoned.getTimeZoneTransition('next')
  // 'previous' is strictly earlier: at the very instant of a transition the span starts here.
  const startsAtPrevious = previous !== null && previous.offsetNanoseconds === zoned.offsetNanoseconds
  return {
    startMs: previous === null ? -Infinity : startsAtPrevious ? previous.epochMilliseconds : epochMs,
    endMs: next === null ? Infinity : next.epochMilliseconds,
    offsetMs: zoned.offsetNanoseconds / 1e6,
    offsetText: zoned.toString({ timeZoneName: 'never', smallestUnit: 'second' }).slice(19),
  }
}

function offsetSpanAt(epochMs: number, timeZone: string): OffsetSpan {
  let spans = offsetSpans.get(timeZone)
  if (!spans) {
    spans = []
    offsetSpans.set(timeZone, spans)
  }
  const known = spans.find((s) => epochMs >= s.startMs && epochMs < s.endMs)
  if (known) return known
  const span = lookUpOffsetSpan(epochMs, timeZone)
  if (spans.length >= OFFSET_SPANS_PER_ZONE) spans.shift()
  spans.push(span)
  return span
}

/**
 * RFC 3339 with the offset the zone has at that instant, to the second: what Temporal's
 * ZonedDateTime.toString gives, for years 1 to 9999. The zone's offset is looked up once
 * per span between transitions; a booking answer formats half a dozen instants, and zone
 * arithmetic in the polyfill costs tens of microseconds each.
 */
export function formatEpochMsInZone(epochMs: number, timeZone: string): string {
  const span = offsetSpanAt(epochMs, timeZone)
  return new Date(epochMs + span.offsetMs).toISOString().slice(0, 19) + span.offsetText
}

export function formatInZone(instant: Temporal.Instant, timeZone: string): string {
  return formatEpochMsInZone(instant.epochMilliseconds, timeZone)
}

/** formatInZone for a stored instant (toStoredInstant's form), without building a Temporal.Instant. */
export function formatStoredInZone(stored: string, timeZone: string): string {
  return formatEpochMsInZone(Date.parse(stored), timeZone)
}

/** Fixed-width UTC form stored in the database, so text order is time order. */
export function toStoredInstant(instant: Temporal.Instant): string {
  // Date prints the same form (milliseconds, truncated, 'Z') for years 0 to 9999, in a
  // fraction of the time Temporal's general formatter takes.
  return new Date(instant.epochMilliseconds).toISOString()
}

/**
 * The instant of a stored form. Stored forms are toStoredInstant's (whole milliseconds, 'Z'),
 * which Date reads exactly, in a fraction of the time the polyfill's parser takes: a booking's
 * answer reads several (bench/profile.ts hold-release, 2026-11-27). Text from outside (a
 * request, a catalog) goes through Temporal.Instant.from, which checks its form.
 */
export function fromStoredInstant(text: string): Temporal.Instant {
  const epochMs = Date.parse(text)
  if (Number.isNaN(epochMs)) throw new RangeError(`not a stored instant: ${text}`)
  return Temporal.Instant.fromEpochMilliseconds(epochMs)
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
