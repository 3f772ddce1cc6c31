import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Temporal } from 'temporal-polyfill'
import { DEMO_CATALOG_PATH } from '../src/config/env.ts'

/**
 * The bench catalog: one Lisbon operator whose tours are copies of the demo's (full
 * descriptions, add-ons, meeting points), so answers have a realistic size at any tour count.
 */
export const BENCH_PREFIX = 'bench'
export const BENCH_REF = 'bench001'
export const BENCH_TIME_ZONE = 'Europe/Lisbon'

/** Availability is read on this tour; the seed gives it the densest bookings. */
export const MEASURED_TOUR = 'tour-00000'
export const MEASURED_TOUR_CAPACITY = 2000
/** Holds go to this tour: the largest capacity the catalog allows and a departure every hour. */
export const HOLD_TOUR = 'tour-00001'
export const HOLD_TOUR_CAPACITY = 100_000
export const OTHER_TOUR_CAPACITY = 50
export const DAILY_TIMES = ['10:00', '16:00']
export const HOLD_TOUR_TIMES = Array.from({ length: 13 }, (_, i) => `${String(8 + i).padStart(2, '0')}:00`)

/** A tag no demo text contains, given to the same few tours at every catalog size, so a search answers alike at 10 and 10,000 tours. */
export const SEARCH_WORD = 'lighthouse'
export const SEARCH_MATCHES = 5

/** How far back and ahead of today the schedules run (and the seed spreads bookings). */
export const SCHEDULE_REACH_DAYS = 400

function tourId(index: number): string {
  return `tour-${String(index).padStart(5, '0')}`
}

export function benchCatalog(tourCount: number, today: Temporal.PlainDate): unknown {
  const demo = JSON.parse(readFileSync(DEMO_CATALOG_PATH, 'utf8'))
  const lisbon = demo.instances.find((i: { timezone: string }) => i.timezone === BENCH_TIME_ZONE)
  const schedule = (times: string[]) => [{
    from: today.subtract({ days: SCHEDULE_REACH_DAYS }).toString(),
    until: today.add({ days: SCHEDULE_REACH_DAYS }).toString(),
    weekdays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
    times,
  }]
  // The bench runs older commits beside the work tree (source-trees.ts), whose catalog files
  // know no units, languages or translations: the copies leave them out. Its requests give a
  // party only, which every version books alike.
  const { languages: _languages, ...instance } = lisbon
  const { translations: _policyTranslations, ...policy } = lisbon.cancellation_policy
  const tours = Array.from({ length: tourCount }, (_, i) => {
    const { units: _units, translations: _translations, ...model } = lisbon.tours[i % lisbon.tours.length]
    const id = tourId(i)
    const isHoldTour = id === HOLD_TOUR
    const capacity = id === MEASURED_TOUR ? MEASURED_TOUR_CAPACITY : isHoldTour ? HOLD_TOUR_CAPACITY : OTHER_TOUR_CAPACITY
    return {
      ...model,
      id,
      title: `${model.title} ${String(i).padStart(5, '0')}`,
      tags: [...model.tags, ...(i < SEARCH_MATCHES ? [SEARCH_WORD] : [])],
      capacity,
      party: { min: 1, max: Math.min(model.party.max, capacity) },
      cutoff_minutes: isHoldTour ? 0 : model.cutoff_minutes,
      confirmation: isHoldTour ? 'instant' : model.confirmation,
      schedule: schedule(isHoldTour ? HOLD_TOUR_TIMES : DAILY_TIMES),
      blackouts: [],
    }
  })
  return {
    instances: [{ ...instance, cancellation_policy: policy, prefix: BENCH_PREFIX, ref: BENCH_REF, name: 'Bench Tours', promo_codes: [], tours }],
  }
}

/** Writes benchCatalog into `dir` and returns the file's path, for TOURDESK_CONFIG. */
export function writeBenchCatalog(dir: string, tourCount: number, today: Temporal.PlainDate): string {
  const path = join(dir, `catalog-${tourCount}.json`)
  writeFileSync(path, JSON.stringify(benchCatalog(tourCount, today)))
  return path
}
