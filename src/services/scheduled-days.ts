import type { Temporal } from 'temporal-polyfill'
import { expandSchedule, type Departure } from '../domain/schedule.ts'
import type { CatalogTour } from '../schemas/catalog.ts'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'

/** A scheduled departure in the operator's list order: start, then tour id. */
export interface ScheduledEntry {
  startKey: string
  tourId: string
  scheduled: Departure
}

/**
 * Entries kept per catalog, in day lists, least recently used dropped first: about 10 MB, a
 * few months of a hundred tours' days, and still a day or two of a catalog of ten thousand.
 */
const ENTRIES_KEPT = 100_000

/** Day lists, most recently used last, within a budget of entries. */
class KeptDays {
  readonly #days = new Map<string, ScheduledEntry[]>()
  #entries = 0

  get(key: string): ScheduledEntry[] | undefined {
    const day = this.#days.get(key)
    if (day) {
      this.#days.delete(key)
      this.#days.set(key, day)
    }
    return day
  }

  set(key: string, day: ScheduledEntry[]): void {
    this.#days.set(key, day)
    this.#entries += day.length
    for (const [oldest, entries] of this.#days) {
      if (this.#entries <= ENTRIES_KEPT || oldest === key) break
      this.#days.delete(oldest)
      this.#entries -= entries.length
    }
  }
}

const kept = new WeakMap<InstanceCatalog, KeptDays>()

export const byListOrder = (a: { startKey: string, tourId: string }, b: { startKey: string, tourId: string }) =>
  a.startKey < b.startKey ? -1 : a.startKey > b.startKey ? 1 : a.tourId < b.tourId ? -1 : a.tourId > b.tourId ? 1 : 0

/**
 * Every scheduled departure of the given tours on one local date, in list order. A day's list
 * never changes for a loaded catalog, and merging a large catalog's tours costs a Temporal
 * step or two per tour (tens of microseconds each in the polyfill), so it is made once and kept.
 */
export function scheduledOn(catalog: InstanceCatalog, tours: readonly CatalogTour[], date: Temporal.PlainDate): ScheduledEntry[] {
  let days = kept.get(catalog)
  if (!days) {
    days = new KeptDays()
    kept.set(catalog, days)
  }
  const key = `${tours.length === catalog.instance.tours.length ? '*' : tours.map((t) => t.id).join(',')} ${date}`
  let entries = days.get(key)
  if (!entries) {
    entries = tours.flatMap((tour) => expandSchedule(tour, catalog.instance.timezone, date, 1)
      .map((scheduled) => ({ startKey: scheduled.startKey, tourId: tour.id, scheduled })))
      .sort(byListOrder)
    days.set(key, entries)
  }
  return entries
}

/** The entries after `position` (binary search: a large catalog's day holds thousands). */
export function entriesAfter(entries: readonly ScheduledEntry[], position: { startKey: string, tourId: string } | null): readonly ScheduledEntry[] {
  if (position === null) return entries
  let low = 0
  let high = entries.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (byListOrder(entries[middle], position) <= 0) low = middle + 1
    else high = middle
  }
  return entries.slice(low)
}
