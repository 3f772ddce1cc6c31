import type { Temporal } from 'temporal-polyfill'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { ApiError } from '../errors/api-error.ts'
import type { Actor } from '../store/audit.ts'
import type { Store } from '../store/store.ts'
import type { Plan, RecordAnswer } from '../store/write-plan.ts'
import { seatsFreedBy } from './booking-seats.ts'
import type { BookingRecord } from '../domain/booking.ts'

/** Who acts, when, and on which version of the booking (If-Match). */
export interface OperatorContext {
  catalog: InstanceCatalog
  now: Temporal.Instant
  actor: Actor
  requestId: string | null
  /** The version the caller last saw (If-Match); null when it sent none. */
  ifMatch: number | null
}

export type RecordRow = RecordAnswer<BookingRecord>

export const SYSTEM: Actor = { type: 'system', id: null, name: null }

export const invalidTransition = (row: BookingRecord, action: string) =>
  new ApiError('invalid_transition', `A ${row.status} booking cannot be ${action}`, { booking_status: row.status })

export const trimmedOrNull = (text: string | null | undefined) => text?.trim() || null

/** A stale If-Match changes nothing. */
function requireVersion(row: BookingRecord, ifMatch: number | null): void {
  if (ifMatch !== null && ifMatch !== row.version) {
    throw new ApiError('precondition_failed', `The booking is at version ${row.version}, not ${ifMatch}; read it again`, { version: row.version })
  }
}

/** What every operator change of one booking starts with: finding it, and running a plan on it. */
export function operatorBookingPlans(store: Store) {
  const { bookings, promoRedemptions } = store
  const reads = store.operatorBookings

  async function find(catalog: InstanceCatalog, codeOrId: string): Promise<BookingRecord> {
    const row = await reads.find(catalog.instance.ref, codeOrId)
    if (!row) throw new ApiError('not_found', `No booking has the code or id "${codeOrId}"`)
    return row
  }

  return {
    reads,
    find,

    /**
     * Runs a plan on one booking: queued behind the guest's own writes (its session) and
     * holding the booking's row, checking If-Match once it holds it.
     */
    async onBooking<T>(ctx: OperatorContext, codeOrId: string, plan: (row: BookingRecord) => Plan<T>): Promise<T> {
      const found = await find(ctx.catalog, codeOrId)
      const instanceId = ctx.catalog.instance.ref
      return store.write(function* () {
        yield* bookings.lockSession(instanceId, found.session_id)
        const row = yield* reads.lock(instanceId, found.id)
        if (!row) throw new ApiError('not_found', `No booking has the code or id "${codeOrId}"`)
        requireVersion(row, ctx.ifMatch)
        return yield* plan(row)
      })
    },

    /** Gives back the seats and promo uses of bookings that ended (quarantined ones never took any). */
    *releaseWhatTheyHeld(instanceId: string, ended: readonly BookingRecord[]): Plan<void> {
      const freed = seatsFreedBy(ended)
      if (freed.length === 0) return
      yield* bookings.changeSeats(freed)
      for (const row of ended) if (row.quarantined === 0 && row.promo_code) yield* promoRedemptions.release(instanceId, row.promo_code)
    },
  }
}
export type OperatorBookingPlans = ReturnType<typeof operatorBookingPlans>
