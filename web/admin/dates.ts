/**
 * Calendar dates (YYYY-MM-DD, no zone: a day on the operator's calendar) and the steps
 * between a local date and time in a zone and an instant, with Intl alone (no Temporal in
 * the back office's bundle).
 */

export type CalendarMode = 'week' | 'month'

const DAY_MS = 86_400_000

function utcOf(date: string): number {
  const [y, m, d] = date.split('-').map(Number)
  return Date.UTC(y, m - 1, d)
}

function dateOf(utc: number): string {
  return new Date(utc).toISOString().slice(0, 10)
}

/** A real calendar date written YYYY-MM-DD. */
export function isDate(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && dateOf(utcOf(text)) === text
}

export function addDays(date: string, days: number): string {
  return dateOf(utcOf(date) + days * DAY_MS)
}

/** Monday 0 … Sunday 6. */
export function weekday(date: string): number {
  return (new Date(utcOf(date)).getUTCDay() + 6) % 7
}

export function mondayOf(date: string): string {
  return addDays(date, -weekday(date))
}

export function monthStart(date: string): string {
  return `${date.slice(0, 7)}-01`
}

export function addMonths(date: string, months: number): string {
  const [y, m] = date.split('-').map(Number)
  return dateOf(Date.UTC(y, m - 1 + months, 1))
}

/** The first day a mode shows for a date: the week's Monday or the month's first. */
export function anchorOf(mode: CalendarMode, date: string): string {
  return mode === 'week' ? mondayOf(date) : monthStart(date)
}

/** The days a mode shows from its anchor, first to last. */
export function daysOf(mode: CalendarMode, anchor: string): string[] {
  const count = mode === 'week' ? 7 : (utcOf(addMonths(anchor, 1)) - utcOf(anchor)) / DAY_MS
  return Array.from({ length: count }, (_, i) => addDays(anchor, i))
}

/** The month's days in weeks Monday to Sunday, null where a week reaches into another month. */
export function monthWeeks(anchor: string): (string | null)[][] {
  const days = daysOf('month', anchor)
  const cells: (string | null)[] = [...Array.from({ length: weekday(anchor) }, () => null), ...days]
  while (cells.length % 7 !== 0) cells.push(null)
  return Array.from({ length: cells.length / 7 }, (_, i) => cells.slice(i * 7, i * 7 + 7))
}

/** A calendar date at noon UTC: formatted in UTC it is that day everywhere. */
export function noonOf(date: string): number {
  return utcOf(date) + DAY_MS / 2
}

/** "1–7 June 2026" for a week, "June 2026" for a month, in the user's locale. */
export function rangeLabel(locale: string, mode: CalendarMode, anchor: string): string {
  if (mode === 'month') return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(noonOf(anchor))
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })
    .formatRange(noonOf(anchor), noonOf(addDays(anchor, 6)))
}

/** Minutes a zone's clocks are ahead of UTC at an instant. */
export function offsetMinutes(epochMs: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
  }).formatToParts(epochMs)
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value)
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'))
  return Math.round((wall - Math.floor(epochMs / 1000) * 1000) / 60_000)
}

/**
 * The RFC 3339 instant of a local date and time (HH:MM) in a zone, written with the zone's
 * offset ("2026-06-03T18:00:00+01:00"); null when the clocks skip that time (the hour lost
 * when summer time begins). In the hour that repeats when it ends, the first is taken.
 */
export function zonedStart(date: string, time: string, zone: string): string | null {
  const [hours, minutes] = time.split(':').map(Number)
  const wall = utcOf(date) + (hours * 60 + minutes) * 60_000
  const first = wall - offsetMinutes(wall - 12 * 3_600_000, zone) * 60_000
  const instant = wall - offsetMinutes(first, zone) * 60_000
  const offset = offsetMinutes(instant, zone)
  if (instant + offset * 60_000 !== wall) return null
  const sign = offset < 0 ? '-' : '+'
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date}T${time}:00${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`
}
