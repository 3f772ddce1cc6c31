import { randomUUID } from 'node:crypto'
import type { Temporal } from 'temporal-polyfill'
import type { Static } from 'typebox'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { toStoredInstant } from '../domain/instant-format.ts'
import { ApiError } from '../errors/api-error.ts'
import type { ContactRequest, NewsletterRequest } from '../schemas/forms.ts'
import type { Store } from '../store/store.ts'
import type { Plan } from '../store/write-plan.ts'

const blankToNull = (value: string | undefined) => value?.trim() ? value.trim() : null

/** Where a form was sent from: the visitor's session, and whether it filled a decoy field (src/http/decoys.ts). */
export interface FormSender {
  sessionId: string | null
  spam: boolean
}

/** What a newsletter sign-up needs of the email outbox (src/notify/email-outbox.ts, handed over by src/context.ts). */
export interface SignupConfirmations {
  /** Whether sign-ups wait for their confirmation link. */
  doubleOptIn(catalog: InstanceCatalog): boolean
  /** The confirmation email, kept in the sign-up's transaction. */
  newsletterConfirmation(catalog: InstanceCatalog, signup: { id: string, email: string }, now: Temporal.Instant): Plan<void>
  /** The sign-up a confirmation link's token names, or null. */
  signupOf(catalog: InstanceCatalog, token: string, now: Temporal.Instant): string | null
}

/**
 * The guest's forms: a message to the operator, a newsletter sign-up and its confirmation.
 * A spam one is kept as such and answered the same (docs/guest-api.md).
 */
export function guestForms(store: Store, emails: SignupConfirmations) {
  const { forms } = store
  return {
    /** Keeps the message; answers its id. */
    async contact(catalog: InstanceCatalog, sender: FormSender, body: Static<typeof ContactRequest>, now: Temporal.Instant): Promise<string> {
      const id = randomUUID()
      await forms.insertContactMessage({
        id,
        instance_id: catalog.instance.ref,
        session_id: sender.sessionId,
        name: blankToNull(body.name),
        email: blankToNull(body.email),
        message: body.message,
        promo_code: blankToNull(body.promo_code),
        referral_code: blankToNull(body.referral_code),
        spam: sender.spam ? 1 : 0,
        received_at: toStoredInstant(now),
      })
      return id
    },

    /** Keeps the sign-up (`source`: the page's Origin, or api) and subscribes, or sends the confirmation when the instance asks for double opt-in. */
    async signUp(catalog: InstanceCatalog, sender: FormSender, body: Static<typeof NewsletterRequest>, source: string, now: Temporal.Instant): Promise<void> {
      const id = randomUUID()
      const email = body.email.trim().toLowerCase()
      await forms.recordNewsletterSignup({
        id,
        instance_id: catalog.instance.ref,
        email,
        name: body.name?.trim() || null,
        session_id: sender.sessionId,
        promo_code: body.promo_code?.trim() || null,
        referral_code: body.referral_code?.trim() || null,
        source,
        spam: sender.spam ? 1 : 0,
        consented_at: toStoredInstant(now),
      }, emails.doubleOptIn(catalog) ? () => emails.newsletterConfirmation(catalog, { id, email }, now) : null)
    },

    /** Subscribes the address of the sign-up the confirmation link's token names; not_found when it is not valid, has run out or is gone. */
    async confirmSignUp(catalog: InstanceCatalog, token: string, now: Temporal.Instant): Promise<void> {
      const { ref } = catalog.instance
      const signupId = emails.signupOf(catalog, token, now)
      if (signupId === null || !(await forms.confirmNewsletterSignup(ref, signupId, toStoredInstant(now)))) {
        throw new ApiError('not_found', 'This confirmation link is not valid or has run out (links work for 7 days): sign up again for a new one')
      }
    },
  }
}

export type GuestForms = ReturnType<typeof guestForms>
