import { Temporal } from 'temporal-polyfill'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { minimumToRun, reachesMinimum } from '../domain/minimum-to-run.ts'
import { findDeparture } from '../domain/schedule.ts'
import type { CatalogTour } from '../schemas/catalog.ts'
import type { DepartureKey } from '../store/bookings.ts'
import type { Store } from '../store/store.ts'
import type { Plan } from '../store/write-plan.ts'
import { departureRecord } from './departure-record.ts'
import { reportDeparture } from './departures.ts'

/** The schedule's departure at a stored start, if the schedule gives one. */
export const scheduledAt = (catalog: InstanceCatalog, tour: CatalogTour, startKey: string) =>
  findDeparture(tour, catalog.instance.timezone, Temporal.Instant.from(startKey))

/**
 * A tour's minimum to run (docs/events-and-webhooks.md, "Minimum to run"), as events:
 * - `departure.guaranteed` in the plan of any change that lifts a departure's live people
 *   (Σ party of requested, confirmed, completed and no-show bookings; not seats: an infant on a lap counts) from below the minimum to it or above.
 *   It is told again if cancellations take the total back below and later bookings lift it
 *   again; a catalog edit that lowers the minimum tells nothing (the departure shows it).
 * - `departure.at_risk` once per departure when its deadline has come and it is below the
 *   minimum: src/jobs/departure-deadlines.ts.
 */
export function departureMinimum(store: Store) {
  const { departures } = store

  return {
    /**
     * In the plan of a change that added `added` live people (Σ party, not seats) to the departure (a checkout, a
     * staff booking, a move, a larger party, a release from quarantine), after the change:
     * emits `departure.guaranteed` when they lifted its live people to the tour's minimum.
     * Free for tours without a minimum. `locked` says the plan already holds the departure's
     * row (its seat change took it); otherwise it is locked here first (PostgreSQL), so that
     * of two bookings committing together the second sees the first and exactly one of them
     * tells the crossing.
     */
    *reportIfReached(catalog: InstanceCatalog, key: DepartureKey, added: number, now: string, locked: boolean): Plan<void> {
      const tour = catalog.tourById.get(key.tour_id)?.catalog
      const minimum = minimumToRun(tour)
      if (!tour || !minimum || added <= 0) return
      if (!locked) yield* departures.lock(key)
      const seats = yield* departures.seatsAt(key, now)
      const live = seats?.people ?? 0
      if (!reachesMinimum(minimum, live - added, live)) return
      const scheduled = scheduledAt(catalog, tour, key.start_at)
      yield* reportDeparture('departure.guaranteed', departureRecord(catalog, key.tour_id, key.start_at, scheduled, yield* departures.find(key), seats), key, now)
    },
  }
}
export type DepartureMinimum = ReturnType<typeof departureMinimum>
