import { Temporal } from 'temporal-polyfill'
import { setupLink } from '../domain/links.ts'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { toStoredInstant } from '../domain/instant-format.ts'
import { ApiError } from '../errors/api-error.ts'
import { newSetupToken, PASSWORD_RESET_LINK_HOURS } from '../services/setup-links.ts'
import { LOCKOUT } from '../services/staff-auth.ts'
import type { Store } from '../store/store.ts'
import type { EmailOutbox, EmailSettings } from './email-outbox.ts'

/**
 * Requests are counted in sign_in_counts under this prefix and the address: five within 15
 * minutes, as sign-in failures are, whether or not the address has an account. Counted apart
 * from the failures, so that someone locked out by their own wrong guesses can still ask for
 * the link that lets them back in.
 */
const COUNTED_AS = 'password-reset:'

/**
 * "Forgot your password?" on the sign-in page: a single-use link (one hour) to choose a new
 * password, emailed to an active account's address. Every answer is the same whether the
 * address has an account or not; only the email (and the audit log) tells.
 */
export function passwordResets(store: Store, outbox: EmailOutbox, settings: EmailSettings) {
  return {
    async request(catalog: InstanceCatalog, emailGiven: string, now: Temporal.Instant): Promise<void> {
      if (!outbox.canSend) {
        throw new ApiError('email_not_set_up', 'This service cannot send email, so no link can be emailed: ask a manager for a new setup link')
      }
      const email = emailGiven.trim().toLowerCase()
      const instanceRef = catalog.instance.ref
      const { lockedSince } = await store.write(() => store.staff.countSignInAttempt(instanceRef, `${COUNTED_AS}${email}`, toStoredInstant(now),
        toStoredInstant(now.subtract({ minutes: LOCKOUT.minutes })), LOCKOUT.failures))
      if (lockedSince) {
        const until = Temporal.Instant.from(lockedSince).add({ minutes: LOCKOUT.minutes })
        const seconds = Math.max(1, Math.ceil((until.epochMilliseconds - now.epochMilliseconds) / 1000))
        throw new ApiError('rate_limited', `Too many password reset requests for this email; try again in ${Math.ceil(seconds / 60)} minutes`, { headers: { 'Retry-After': String(seconds) } })
      }
      const account = await store.staff.findByEmail(instanceRef, email)
      if (!account || account.disabled === 1) return
      await store.write(function* () {
        const token = yield* newSetupToken(store, instanceRef, account.id, now, PASSWORD_RESET_LINK_HOURS)
        yield* outbox.passwordResetLink(catalog, account.email, setupLink(settings.publicUrl, catalog.instance.prefix, token), PASSWORD_RESET_LINK_HOURS, now)
        yield* store.audit.record({
          instanceId: instanceRef, at: toStoredInstant(now), actor: { type: 'staff', id: account.id, name: account.name },
          action: 'staff.password_reset_emailed', target: { type: 'staff', id: account.id, ref: account.email },
        })
      })
    },
  }
}
export type PasswordResets = ReturnType<typeof passwordResets>
