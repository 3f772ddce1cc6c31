import { Temporal } from 'temporal-polyfill'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { todayIn, toStoredInstant } from '../domain/instant-format.ts'
import { deadlineHasCome, minimumToRun, type MinimumToRun } from '../domain/minimum-to-run.ts'
import type { Departure } from '../domain/schedule.ts'
import type { CatalogTour } from '../schemas/catalog.ts'
import { departureRecord, seatTotal } from '../services/departure-record.ts'
import { scheduledAt } from '../services/departure-minimum.ts'
import { reportDeparture } from '../services/departures.ts'
import { scheduledOn } from '../services/scheduled-days.ts'
import type { DepartureKey } from '../store/bookings.ts'
import type { Store } from '../store/store.ts'
import type { Plan } from '../store/write-plan.ts'
import type { Task } from './scheduler.ts'

/** How often each node looks for departures whose deadline has come: an at-risk event follows its deadline within this. */
const DEADLINE_CHECK_EVERY_MS = 60_000
/** Tours named by one read of the stored departures, well under both databases' bound-parameter limits. */
const TOURS_PER_READ = 500

interface DeadlineCandidate {
  key: DepartureKey
  tour: CatalogTour
  scheduled: Departure | undefined
  /** Whether a departure row exists (when the scan read it). */
  stored: boolean
}

/**
 * `departure.at_risk`, told once per departure by the scheduler task `departure-deadlines` when
 * its deadline (start minus min_participants_deadline_hours) has come, it has not started, is
 * not cancelled, and its live total is below the tour's minimum (src/services/departure-minimum.ts
 * tells the other side, `departure.guaranteed`). The check is recorded on the departure row
 * (`deadline_checked_at`, and `at_risk_at` when at risk) in the plan that emits the event,
 * conditionally, so of several nodes running the task only one tells it.
 */
export function departureDeadlines(store: Store) {
  const { departures } = store

  /**
   * Checks one departure whose deadline has come, in its own plan: at risk when below the
   * minimum. A scheduled departure nobody booked has no row: the row is written now, checked
   * and at risk, by one conditional insert.
   */
  function checkDeadline(catalog: InstanceCatalog, minimum: MinimumToRun, candidate: DeadlineCandidate, now: string): Promise<boolean> {
    const { key, tour, scheduled } = candidate
    return store.write(function* (): Plan<boolean> {
      if (!candidate.stored && scheduled) {
        const inserted = yield* departures.insertAtRisk(key, tour.capacity, now)
        if (inserted) {
          yield* reportDeparture('departure.at_risk', departureRecord(catalog, key.tour_id, key.start_at, scheduled, inserted, undefined), key, now, { people: 0 })
          return true
        }
      }
      // Locked first, so bookings that commit meanwhile are counted by the read below or come after this check.
      const row = yield* departures.find(key, true)
      if (!row || row.deadline_checked_at !== null || row.cancelled === 1) return false
      const seats = yield* departures.seatsAt(key, now)
      const live = seats?.people ?? 0
      // A stored start the schedule does not give, not added by hand and holding no booking, is no departure.
      const isDeparture = scheduled !== undefined || row.extra === 1 || (seats !== undefined && seatTotal(seats) > 0)
      const atRisk = isDeparture && live < minimum.participants
      const checked = yield* departures.markDeadlineChecked(key, now, atRisk)
      if (!checked || !atRisk) return false
      yield* reportDeparture('departure.at_risk', departureRecord(catalog, key.tour_id, key.start_at, scheduled, checked, seats), key, now, { people: live })
      return true
    })
  }

  /** The departures of one instance whose deadline has come and that nobody has checked yet. */
  async function dueDeadlines(catalog: InstanceCatalog, now: Temporal.Instant): Promise<Array<DeadlineCandidate & { minimum: MinimumToRun }>> {
    const withMinimum = catalog.instance.tours.flatMap((tour) => {
      const minimum = minimumToRun(tour)
      return minimum ? [{ tour, minimum }] : []
    })
    if (withMinimum.length === 0) return []
    const nowMs = now.epochMilliseconds
    const isDue = (minimum: MinimumToRun, startMs: number) => startMs > nowMs && deadlineHasCome(minimum, startMs, nowMs)
    const longest = Math.max(...withMinimum.map((t) => t.minimum.deadlineHours))
    const instanceId = catalog.instance.ref
    const afterAt = toStoredInstant(now)
    const untilAt = toStoredInstant(now.add({ hours: longest }))
    const stored = new Map<string, { cancelled: number, deadline_checked_at: string | null }>()
    for (let i = 0; i < withMinimum.length; i += TOURS_PER_READ) {
      const tourIds = withMinimum.slice(i, i + TOURS_PER_READ).map((t) => t.tour.id)
      for (const row of await store.read(() => departures.deadlinesBetween(instanceId, tourIds, afterAt, untilAt))) {
        stored.set(`${row.tour_id} ${row.start_at}`, row)
      }
    }
    const minimumOf = new Map(withMinimum.map((t) => [t.tour.id, t]))
    const due = new Map<string, DeadlineCandidate & { minimum: MinimumToRun }>()
    // Every scheduled start of an offered tour up to the longest deadline ahead (archived tours take no bookings: only their stored departures count).
    const offered = withMinimum.filter((t) => !t.tour.archived).map((t) => t.tour)
    const timeZone = catalog.instance.timezone
    const lastDate = Temporal.Instant.from(untilAt).toZonedDateTimeISO(timeZone).toPlainDate()
    for (let date = todayIn(now, timeZone); offered.length > 0 && Temporal.PlainDate.compare(date, lastDate) <= 0; date = date.add({ days: 1 })) {
      for (const entry of scheduledOn(catalog, offered, date)) {
        const { tour, minimum } = minimumOf.get(entry.tourId)!
        if (!isDue(minimum, entry.scheduled.startMs)) continue
        const id = `${entry.tourId} ${entry.startKey}`
        const row = stored.get(id)
        if (row && (row.deadline_checked_at !== null || row.cancelled === 1)) continue
        due.set(id, { key: { instance_id: instanceId, tour_id: tour.id, start_at: entry.startKey }, tour, minimum, scheduled: entry.scheduled, stored: row !== undefined })
      }
    }
    // Departures added by hand, orphaned ones and those of archived tours: stored, not (or no longer) scheduled.
    for (const [id, row] of stored) {
      if (due.has(id) || row.deadline_checked_at !== null || row.cancelled === 1) continue
      const [tourId, startAt] = id.split(' ')
      const { tour, minimum } = minimumOf.get(tourId)!
      if (!isDue(minimum, Date.parse(startAt))) continue
      const scheduled = tour.archived ? undefined : scheduledAt(catalog, tour, startAt)
      if (scheduled) continue
      due.set(id, { key: { instance_id: instanceId, tour_id: tourId, start_at: startAt }, tour, minimum, scheduled, stored: true })
    }
    return [...due.values()]
  }

  /** Checks every departure whose deadline has come (see above); answers how many it found at risk. */
  async function checkDeadlines(catalogs: Iterable<InstanceCatalog>, now: Temporal.Instant): Promise<number> {
    const at = toStoredInstant(now)
    let atRisk = 0
    for (const catalog of catalogs) {
      for (const { minimum, ...candidate } of await dueDeadlines(catalog, now)) {
        if (await checkDeadline(catalog, minimum, candidate, at)) atRisk++
      }
    }
    return atRisk
  }

  return {
    checkDeadlines,

    /** The scheduler's task (src/context.ts) over the catalogs served now. */
    task(catalogs: { values(): Iterable<InstanceCatalog> }): Task {
      return {
        name: 'departure-deadlines',
        everyMs: DEADLINE_CHECK_EVERY_MS,
        run: async (now) => ({ departuresAtRisk: await checkDeadlines(catalogs.values(), now) }),
      }
    },
  }
}
