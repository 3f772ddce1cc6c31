import { createHmac } from 'node:crypto'
import type { Temporal } from 'temporal-polyfill'
import { toStoredInstant } from '../domain/instant-format.ts'
import type { Actor } from '../store/audit.ts'
import { erasePersonalDataPlan, exportPersonalData, type ErasureCounts } from '../store/privacy.ts'
import type { Store } from '../store/store.ts'

export type PersonalData = Awaited<ReturnType<typeof exportPersonalData>>

/** Who asked, for the audit entry. */
export interface PrivacyRequester {
  actor: Actor
  requestId?: string | null
}

/**
 * The audit log names the address a privacy request was about only by this keyed hash:
 * an erasure must not leave the address behind, and a plain hash of an email can be undone
 * by hashing guesses. With the server secret, whoever holds it can still tell whether a given
 * address was exported or erased (hash it again); the log alone tells nobody.
 */
export function emailDigest(secret: string, instanceRef: string, email: string): string {
  return createHmac('sha256', secret).update(`privacy:${instanceRef}:${email.trim().toLowerCase()}`).digest('base64url')
}

function countsOf(data: PersonalData): Record<string, number> {
  return {
    contact_messages: data.contactMessages.length,
    newsletter_signups: data.newsletterSignups.length,
    newsletter_subscriptions: data.newsletterSubscriptions.length,
    bookings: data.bookings.length,
    stored_answers: data.storedAnswers.length,
    emails: data.emails.length,
  }
}

/** The counts of an erasure as the operator API and the audit log write them. */
export function erasedCounts(counts: ErasureCounts) {
  return {
    contact_messages: counts.contactMessages,
    newsletter_signups: counts.newsletterSignups,
    newsletter_subscriptions: counts.newsletterSubscriptions,
    bookings_anonymised: counts.bookingsAnonymised,
    stored_answers: counts.storedAnswers,
    emails: counts.emails,
    operator_emails: counts.operatorEmails,
    events_scrubbed: counts.eventsScrubbed,
    audit_entries_scrubbed: counts.auditEntriesScrubbed,
  }
}

/**
 * Privacy requests about one email address (docs/operator-api.md, "Audit, privacy and access"): the
 * export of everything stored about it and its erasure, each audited. The audit entry keeps
 * the address's keyed hash (emailDigest) and the counts, never the address or the data.
 */
export function privacyRequests(store: Store, secret: string) {
  const target = (instanceRef: string, email: string) => ({ type: 'email', id: emailDigest(secret, instanceRef, email) })

  return {
    async exportData(instanceRef: string, email: string, by: PrivacyRequester, now: Temporal.Instant): Promise<PersonalData> {
      const data = await exportPersonalData(store.db, instanceRef, email)
      await store.write(() => store.audit.record({
        instanceId: instanceRef, at: toStoredInstant(now), actor: by.actor, action: 'privacy.exported',
        target: target(instanceRef, email), after: countsOf(data), requestId: by.requestId ?? null,
      }))
      return data
    },

    async erase(instanceRef: string, email: string, by: PrivacyRequester, now: Temporal.Instant): Promise<ErasureCounts> {
      return store.write(function* () {
        const counts = yield* erasePersonalDataPlan(store.db, instanceRef, email, now)
        yield* store.audit.record({
          instanceId: instanceRef, at: toStoredInstant(now), actor: by.actor, action: 'privacy.erased',
          target: target(instanceRef, email), after: erasedCounts(counts), requestId: by.requestId ?? null,
        })
        return counts
      })
    },
  }
}
export type PrivacyRequests = ReturnType<typeof privacyRequests>
