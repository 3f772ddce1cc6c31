import type { Availability, AvailabilityCalendar } from '@octocloud/types'
import { Temporal } from 'temporal-polyfill'
import { todayIn } from '../domain/instant-format.ts'
import { LruMap } from '../domain/lru-map.ts'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { unitMix } from '../domain/units.ts'
import type { Slot } from '../schemas/availability.ts'
import type { CatalogTour } from '../schemas/catalog.ts'
import { availabilityWindow, readAvailability, type AvailabilityWindow } from '../services/availability.ts'
import type { DepartureRepository } from '../store/departures.ts'
import { pricingOf, type OctoView } from './catalog-view.ts'
import { badRequest } from './errors.ts'

const STATUS = { available: 'AVAILABLE', limited: 'LIMITED', sold_out: 'SOLD_OUT', closed: 'CLOSED' } as const

/** The seats and price of the units asked about; none asked: one seat at the tour's price. */
export function askedSeatsAndPrice(tour: CatalogTour, units: ReadonlyArray<{ id: string, quantity: number }> | undefined): { seats: number, price: number } {
  const asked = Object.fromEntries((units ?? []).filter((u) => u.quantity > 0).map((u) => [u.id, u.quantity]))
  if (Object.keys(asked).length === 0) return { seats: 1, price: tour.price }
  const mix = unitMix(tour, { units: asked })
  return { seats: mix.seats, price: mix.lines.reduce((sum, line) => sum + line.amount, 0) }
}

/**
 * What to read for a tour's departures from `from` to `until` (local dates, both included),
 * as the guest availability reads them (src/services/availability.ts): clipped to today and
 * the instance's horizon; null when nothing of the range is left, as the range is then empty.
 */
export function rangeWindow(view: OctoView, tour: CatalogTour, from: string, until: string, now: Temporal.Instant): AvailabilityWindow | null {
  const { catalog } = view
  const today = todayIn(now, catalog.instance.timezone)
  let windows = checkedRanges.get(catalog)
  if (!windows) {
    windows = new LruMap(CHECKED_RANGE_LIMIT)
    checkedRanges.set(catalog, windows)
  }
  const key = `${today} ${tour.id} ${from} ${until}`
  let window = windows.get(key)
  if (window === undefined) {
    window = checkRange(catalog, today, tour, from, until, now)
    windows.set(key, window)
  }
  return window
}

/**
 * Ranges already checked, per catalog version and day: a reseller polls the same 90 days at
 * many connections, and the dates' arithmetic in the Temporal polyfill cost a poll more than
 * sending its kept answer. A range that is refused is not kept: it throws each time.
 */
const CHECKED_RANGE_LIMIT = 1_000
const checkedRanges = new WeakMap<InstanceCatalog, LruMap<string, AvailabilityWindow | null>>()

function checkRange(catalog: InstanceCatalog, today: Temporal.PlainDate, tour: CatalogTour, from: string, until: string, now: Temporal.Instant): AvailabilityWindow | null {
  let first: Temporal.PlainDate, last: Temporal.PlainDate
  try {
    first = Temporal.PlainDate.from(from, { overflow: 'reject' })
    last = Temporal.PlainDate.from(until, { overflow: 'reject' })
  } catch {
    throw badRequest('localDateStart and localDateEnd must be dates (YYYY-MM-DD)')
  }
  if (Temporal.PlainDate.compare(first, last) > 0) throw badRequest('localDateStart must not be after localDateEnd')
  const horizon = today.add({ days: catalog.instance.horizonDays })
  if (Temporal.PlainDate.compare(first, today) < 0) first = today
  if (Temporal.PlainDate.compare(last, horizon) > 0) last = horizon
  if (Temporal.PlainDate.compare(first, last) > 0) return null
  return availabilityWindow(catalog, now, { tour: tour.id, date: first.toString(), days: first.until(last).days + 1 })
}

/** The departures of a tour from `from` to `until`, read now (see rangeWindow). */
export async function slotsBetween(view: OctoView, departures: DepartureRepository, tour: CatalogTour, from: string, until: string, now: Temporal.Instant): Promise<Slot[]> {
  const window = rangeWindow(view, tour, from, until, now)
  return window === null ? [] : (await readAvailability(view.catalog, departures, now, window)).answer.slots
}

/** One departure as OCTo's availability: its id is its start with the zone's offset. */
export function availabilityOf(view: OctoView, tour: CatalogTour, slot: Slot, seats: number, price: number): Availability {
  const open = slot.status === 'available' || slot.status === 'limited'
  const cutoff = Temporal.Instant.from(slot.start).subtract({ minutes: tour.cutoff_minutes })
  return {
    id: slot.start,
    localDateTimeStart: slot.start,
    localDateTimeEnd: slot.end,
    utcCutoffAt: cutoff.toString(),
    allDay: false,
    available: open && slot.remaining >= seats,
    status: STATUS[slot.status] as Availability['status'],
    vacancies: slot.remaining,
    capacity: slot.capacity,
    maxUnits: tour.party.max,
    openingHours: [],
    ...view.pricing ? { pricing: pricingOf(view, price) } : {},
  }
}

/** Each day of the range with its departures summed: available when one of them can take the units asked about. */
export function calendarOf(view: OctoView, tour: CatalogTour, slots: readonly Slot[], days: readonly string[], seats: number, price: number): AvailabilityCalendar[] {
  return days.map((localDate) => {
    const daySlots = slots.filter((s) => s.date === localDate).map((s) => availabilityOf(view, tour, s, seats, price))
    const open = daySlots.filter((a) => a.status === 'AVAILABLE' || a.status === 'LIMITED')
    const status = daySlots.some((a) => a.status === 'AVAILABLE') ? 'AVAILABLE' : open.length > 0 ? 'LIMITED'
      : daySlots.some((a) => a.status === 'SOLD_OUT') ? 'SOLD_OUT' : 'CLOSED'
    return {
      localDate,
      available: daySlots.some((a) => a.available),
      status: status as AvailabilityCalendar['status'],
      vacancies: open.reduce((sum, a) => sum + (a.vacancies ?? 0), 0),
      capacity: open.reduce((sum, a) => sum + (a.capacity ?? 0), 0),
      openingHours: [],
      ...view.pricing ? { pricingFrom: pricingOf(view, price) } : {},
    }
  })
}

/** The local dates from `from` to `until`, both included, within today and the horizon. */
export function daysBetween(view: OctoView, from: string, until: string, now: Temporal.Instant): string[] {
  const today = todayIn(now, view.catalog.instance.timezone)
  const horizon = today.add({ days: view.catalog.instance.horizonDays })
  const days: string[] = []
  let day = Temporal.PlainDate.from(from)
  if (Temporal.PlainDate.compare(day, today) < 0) day = today
  const last = Temporal.PlainDate.from(until)
  while (Temporal.PlainDate.compare(day, last) <= 0 && Temporal.PlainDate.compare(day, horizon) <= 0) {
    days.push(day.toString())
    day = day.add({ days: 1 })
  }
  return days
}
