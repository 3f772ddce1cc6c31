import { Temporal } from 'temporal-polyfill'
import type { Instance } from '../catalog/catalog-file.ts'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { toStoredInstant } from '../domain/instant-format.ts'
import type { Store } from '../store/store.ts'
import { SYSTEM, type OperatorBookingPlans } from './operator-booking-plan.ts'

const DEFAULT_REQUEST_DECISION_HOURS = 24
const NO_ANSWER_IN_TIME = 'no answer in time'
/** Requests declined per write by the deadline sweep. */
const DEADLINE_BATCH = 200

/** The instance's request_decision_hours (docs/operator-api.md, "Bookings"), a setting of the catalog. */
function requestDecisionHours(instance: Instance): number {
  return instance.request_decision_hours ?? DEFAULT_REQUEST_DECISION_HOURS
}

/** When a request made at `requested_at` is declined by the system unless answered: request_decision_hours later, or at its departure's cutoff if that comes first. */
export function requestDeadline(catalog: InstanceCatalog, request: { requested_at: string, start_at: string, tour_id: string }): Temporal.Instant {
  const answerBy = Temporal.Instant.from(request.requested_at).add({ hours: requestDecisionHours(catalog.instance) })
  const cutoff = Temporal.Instant.from(request.start_at).subtract({ minutes: catalog.tourById.get(request.tour_id)?.catalog.cutoff_minutes ?? 0 })
  return Temporal.Instant.compare(answerBy, cutoff) < 0 ? answerBy : cutoff
}

/** The system's answer to requests nobody answered in time (run by src/jobs/housekeeping.ts). */
export function requestDeadlineSweep(store: Store, plans: OperatorBookingPlans) {
  const { bookings, audit } = store
  const { reads } = plans
  return {
    /**
     * The request deadline: a request nobody confirmed or declined within the instance's
     * request_decision_hours, or by its departure's cutoff if that comes first, is declined by
     * the system and its seats freed. Safe to run on several nodes at once: a request is
     * declined once, by whichever gets there first.
     */
    async declineOverdueRequests(catalogs: Iterable<InstanceCatalog>, now: Temporal.Instant): Promise<number> {
      const at = toStoredInstant(now)
      let declined = 0
      for (const catalog of catalogs) {
        const instanceId = catalog.instance.ref
        const hours = requestDecisionHours(catalog.instance)
        const longestCutoff = Math.max(0, ...catalog.instance.tours.map((t) => t.cutoff_minutes))
        const candidates = await reads.awaitingDecision(instanceId, toStoredInstant(now.subtract({ hours })), toStoredInstant(now.add({ minutes: longestCutoff })))
        const due = candidates.filter((c) => Temporal.Instant.compare(now, requestDeadline(catalog, c)) >= 0)
        for (let i = 0; i < due.length; i += DEADLINE_BATCH) {
          const ids = due.slice(i, i + DEADLINE_BATCH).map((c) => c.id)
          declined += await store.write(function* () {
            const rows = yield* bookings.transition(instanceId, { ids }, 'requested', 'declined', at, { decline_reason: NO_ANSWER_IN_TIME }, { cause: 'no_answer_in_time' })
            yield* plans.releaseWhatTheyHeld(instanceId, rows)
            for (const row of rows) {
              yield* audit.record({
                instanceId, at, actor: SYSTEM, action: 'booking.declined', target: { type: 'booking', id: row.id, ref: row.code },
                before: { status: 'requested', version: row.version - 1 }, after: { status: 'declined', version: row.version, decline_reason: NO_ANSWER_IN_TIME },
              })
            }
            return rows.length
          })
        }
      }
      return declined
    },
  }
}
