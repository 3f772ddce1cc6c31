import { randomBytes } from 'node:crypto'
import type { Temporal } from 'temporal-polyfill'
import { toStoredInstant } from '../domain/instant-format.ts'
import { ApiError } from '../errors/api-error.ts'
import type { Actor } from '../store/audit.ts'
import type { StaffRow } from '../store/staff.ts'
import type { Store } from '../store/store.ts'
import type { Plan } from '../store/write-plan.ts'
import { SETUP_LINK_HOURS, sha256 } from './staff-auth.ts'

/** How long a link emailed from the sign-in page's "forgot your password?" works: the mailbox is at hand. */
export const PASSWORD_RESET_LINK_HOURS = 1

/**
 * A new one-time setup token for an account, in the caller's transaction: every earlier
 * unused link of the account stops working, so only the newest one a person was given
 * counts. The password stays as it is until the link is used (POST /setup sets the new
 * one and ends the account's sessions).
 */
export function* newSetupToken(store: Store, instanceRef: string, staffId: string, now: Temporal.Instant, hours: number): Plan<string> {
  const token = randomBytes(32).toString('base64url')
  const at = toStoredInstant(now)
  yield* store.staff.retireSetupTokens(instanceRef, staffId, at)
  yield* store.staff.insertSetupToken({ instance_id: instanceRef, token_hash: sha256(token), staff_id: staffId, expires_at: toStoredInstant(now.add({ hours })), used_at: null })
  return token
}

/** A manager gives a staff member a new setup link (operator API, CLI `staff reset`, back office). */
export function staffSetupLinks(store: Store) {
  return {
    /**
     * A new setup link (24 hours, once) for an account that is not disabled, audited as
     * staff.setup_link_issued. A disabled account is refused (409 staff_disabled): enabling it
     * is a decision of its own.
     */
    async issue(instanceRef: string, staffId: string, actor: Actor, now: Temporal.Instant, requestId: string | null = null): Promise<{ staff: StaffRow, setupToken: string }> {
      const account = await store.staff.findById(instanceRef, staffId)
      if (!account) throw new ApiError('not_found', 'No staff account has this id')
      if (account.disabled === 1) throw new ApiError('staff_disabled', `${account.email} is disabled; enable the account first, then issue a setup link`)
      const setupToken = await store.write(function* () {
        const token = yield* newSetupToken(store, instanceRef, account.id, now, SETUP_LINK_HOURS)
        yield* store.audit.record({ instanceId: instanceRef, at: toStoredInstant(now), actor, action: 'staff.setup_link_issued', target: { type: 'staff', id: account.id, ref: account.email }, requestId })
        return token
      })
      return { staff: account, setupToken }
    },
  }
}
export type StaffSetupLinks = ReturnType<typeof staffSetupLinks>
