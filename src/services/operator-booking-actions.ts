import { Temporal } from 'temporal-polyfill'
import { cancellationFee, cancellationFeePercent } from '../domain/cancellation.ts'
import { todayIn, toStoredInstant } from '../domain/instant-format.ts'
import { ApiError } from '../errors/api-error.ts'
import { STATUS_MOVES, type StatusMove } from '../domain/booking-status.ts'
import { isOneOf } from '../schemas/booking-status.ts'
import type { Store } from '../store/store.ts'
import { invalidTransition, trimmedOrNull, type OperatorBookingPlans, type OperatorContext, type RecordRow } from './operator-booking-plan.ts'
import { policyOf, type BookingRecord } from '../domain/booking.ts'

/** An operator action: one of the booking's status moves (src/domain/booking-status.ts), with how it is logged and refused. */
interface StatusAction extends StatusMove {
  /** The audit log's name for it. */
  action: string
  /** How the refusal puts it: "A cancelled booking cannot be <verb>". */
  verb: string
  /** Refuses the action at this moment (in the operator's zone), whatever the status. */
  timing?: (row: BookingRecord, now: Temporal.Instant, timeZone: string) => void
  changes?: (row: BookingRecord, ctx: OperatorContext) => Partial<BookingRecord>
  /** It ends a live booking: its seats and its promo code's use are given back. */
  ends?: boolean
}

const beforeEnd = (row: BookingRecord, now: Temporal.Instant) => {
  if (Temporal.Instant.compare(now, Temporal.Instant.from(row.end_at)) >= 0) {
    throw new ApiError('departure_ended', 'The departure has ended: check-in and its undo are closed')
  }
}

/**
 * A guest is checked in on the departure's day, in the operator's zone, until it ends: a tap on
 * the wrong day's manifest must not mark tomorrow's guest as arrived (docs/operator-api.md).
 */
const onTheDay = (row: BookingRecord, now: Temporal.Instant, timeZone: string) => {
  const day = Temporal.Instant.from(row.start_at).toZonedDateTimeISO(timeZone).toPlainDate()
  if (Temporal.PlainDate.compare(todayIn(now, timeZone), day) < 0) {
    throw new ApiError('departure_not_today', `Check-in opens on the departure's day, ${day.toString()} (${timeZone})`)
  }
  beforeEnd(row, now)
}

const ACTIONS = {
  confirm: { ...STATUS_MOVES.confirm, action: 'booking.confirmed', verb: 'confirmed' },
  checkIn: {
    ...STATUS_MOVES.checkIn, action: 'booking.checked_in', verb: 'checked in', timing: onTheDay,
    changes: (_row, ctx) => ({ checked_in_at: toStoredInstant(ctx.now) }),
  },
  undoCheckIn: {
    ...STATUS_MOVES.undoCheckIn, action: 'booking.check_in_undone', verb: 'un-checked-in', timing: beforeEnd,
    changes: () => ({ checked_in_at: null }),
  },
  markNoShow: {
    ...STATUS_MOVES.markNoShow, action: 'booking.no_show', verb: 'marked no-show',
    timing: (row, now) => {
      if (Temporal.Instant.compare(now, Temporal.Instant.from(row.start_at)) < 0) {
        throw new ApiError('departure_not_started', 'A guest can be marked no-show once the departure has started')
      }
    },
  },
  undoNoShow: { ...STATUS_MOVES.undoNoShow, action: 'booking.no_show_undone', verb: 'un-marked no-show' },
} satisfies Record<string, StatusAction>

/** The operator's status actions on one booking: confirm, check in, mark no-show, their undos, decline and cancel. */
export function operatorBookingActions(store: Store, plans: OperatorBookingPlans) {
  const { bookings, audit } = store

  /**
   * A status action. One that already took effect answers the booking unchanged; one that
   * does not apply to the status is invalid_transition. Two operators at once: the second
   * finds the first one's status and is answered by these same rules.
   */
  function act(step: StatusAction, extra?: (row: BookingRecord, ctx: OperatorContext) => Partial<BookingRecord>) {
    return (ctx: OperatorContext, codeOrId: string, record?: RecordRow): Promise<BookingRecord> => plans.onBooking(ctx, codeOrId, function* (row) {
      const instanceId = ctx.catalog.instance.ref
      if (row.status === step.to) {
        if (record) yield* record(row)
        return row
      }
      if (!isOneOf(step.from, row.status)) throw invalidTransition(row, step.verb)
      step.timing?.(row, ctx.now, ctx.catalog.instance.timezone)
      const at = toStoredInstant(ctx.now)
      const changes = { ...step.changes?.(row, ctx), ...extra?.(row, ctx) }
      const [moved] = yield* bookings.transition(instanceId, { id: row.id }, row.status, step.to, at, changes)
      // The row is locked (or, on SQLite, the plan runs alone): nobody can have moved it since it was read.
      if (!moved) throw new Error(`booking ${row.id} left ${row.status} while locked`)
      if (step.ends) yield* plans.releaseWhatTheyHeld(instanceId, [moved])
      yield* audit.record({
        instanceId, at, actor: ctx.actor, action: step.action, target: { type: 'booking', id: row.id, ref: row.code }, requestId: ctx.requestId,
        before: { status: row.status, version: row.version }, after: { status: moved.status, version: moved.version, ...changes },
      })
      if (record) yield* record(moved)
      return moved
    })
  }

  return {
    confirm: act(ACTIONS.confirm),
    checkIn: act(ACTIONS.checkIn),
    undoCheckIn: act(ACTIONS.undoCheckIn),
    markNoShow: act(ACTIONS.markNoShow),
    undoNoShow: act(ACTIONS.undoNoShow),

    /** requested → declined; the seats are freed. */
    decline(ctx: OperatorContext, codeOrId: string, reason: string | undefined, record?: RecordRow): Promise<BookingRecord> {
      return act({ ...STATUS_MOVES.decline, action: 'booking.declined', verb: 'declined', ends: true },
        () => ({ decline_reason: trimmedOrNull(reason) }))(ctx, codeOrId, record)
    },

    /** requested or confirmed → cancelled by the operator, the fee waived or as the booking's own policy gives it now (none for a request). */
    cancel(ctx: OperatorContext, codeOrId: string, input: { reason?: string, fee?: 'waived' | 'policy' }, record?: RecordRow): Promise<BookingRecord> {
      const waived = (input.fee ?? 'waived') === 'waived'
      return act({ ...STATUS_MOVES.cancel, action: 'booking.cancelled', verb: 'cancelled', ends: true }, (row) => {
        // A request nobody has accepted costs nothing to withdraw, whatever the fee asked for.
        const feePercent = waived || row.status === 'requested' ? 0
          : cancellationFeePercent(policyOf(row, ctx.catalog.instance.cancellation_policy), Temporal.Instant.from(row.start_at), ctx.now)
        return {
          cancelled_at: toStoredInstant(ctx.now),
          cancelled_by: 'operator',
          cancellation_reason: trimmedOrNull(input.reason),
          cancellation_fee_percent: feePercent,
          cancellation_fee: cancellationFee(row.total, feePercent),
          fee_waived: waived ? 1 : 0,
        }
      })(ctx, codeOrId, record)
    },
  }
}
