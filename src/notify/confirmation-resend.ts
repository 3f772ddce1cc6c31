import { ERASED } from '../domain/erasure.ts'
import { toStoredInstant } from '../domain/instant-format.ts'
import { ApiError } from '../errors/api-error.ts'
import type { EmailRow } from '../store/emails.ts'
import type { Store } from '../store/store.ts'
import type { RecordAnswer } from '../store/write-plan.ts'
import type { EmailOutbox } from './email-outbox.ts'
import type { OperatorContext } from '../services/operator-booking-plan.ts'
import type { BookingRecord } from '../domain/booking.ts'

const refused = (row: BookingRecord, why: string) => new ApiError('invalid_transition', why, { booking_status: row.status })

/**
 * Staff send a guest's confirmation again (the guest lost it, or gave a mistyped address
 * that staff have since corrected): a new copy, calendar file and all, to the booking's
 * contact email as it is now. Only for a confirmed booking that may be emailed at all; the
 * copy is kept and audited in one transaction. The booking itself does not change.
 */
export function confirmationResend(store: Store, outbox: EmailOutbox) {
  const reads = store.operatorBookings

  /** `record` keeps the answer of an Idempotency-Key in the same transaction. */
  return async (ctx: OperatorContext, codeOrId: string, record?: RecordAnswer<EmailRow>): Promise<EmailRow> => {
    const instanceId = ctx.catalog.instance.ref
    const found = await reads.find(instanceId, codeOrId)
    if (!found) throw new ApiError('not_found', `No booking has the code or id "${codeOrId}"`)
    return store.write(function* () {
      yield* store.bookings.lockSession(instanceId, found.session_id)
      const row = yield* reads.lock(instanceId, found.id)
      if (!row) throw new ApiError('not_found', `No booking has the code or id "${codeOrId}"`)
      if (row.status !== 'confirmed') throw refused(row, `A ${row.status} booking has no confirmation to resend`)
      if (row.quarantined === 1) throw refused(row, 'A quarantined booking is not emailed; release it from quarantine first')
      if (row.contact_email === null) throw refused(row, 'The booking has no email address (staff took it without one): give it one first')
      if (row.contact_email === ERASED) throw refused(row, "The booking's contact was erased: there is no address to send to")
      const email = yield* outbox.confirmationCopy(ctx.catalog, row, ctx.now)
      yield* store.audit.record({
        instanceId, at: toStoredInstant(ctx.now), actor: ctx.actor, action: 'booking.confirmation_resent', target: { type: 'booking', id: row.id, ref: row.code },
        requestId: ctx.requestId, after: { email_id: email.id, to: email.recipient, state: email.state, state_reason: email.state_reason },
      })
      if (record) yield* record(email)
      return email
    })
  }
}
export type ConfirmationResend = ReturnType<typeof confirmationResend>
