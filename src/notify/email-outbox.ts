import { setImmediate as yieldToRequests } from 'node:timers/promises'
import { Temporal } from 'temporal-polyfill'
import { toStoredInstant } from '../domain/instant-format.ts'
import { backOfficePaths, newsletterConfirmLink } from '../domain/links.ts'
import type { EmailRow, EnqueueRules, NewEmail } from '../store/emails.ts'
import type { Store } from '../store/store.ts'
import type { Plan } from '../store/write-plan.ts'
import type { CatalogRegistry } from '../catalog/catalog-registry.ts'
import { newsletterConfirmation, type Message } from './email-messages.ts'
import { guestEmailLanguage } from './email-language.ts'
import { operatorMessages, passwordReset } from './operator-messages.ts'
import { confirmationOf, projectEvent, reminderOf } from './email-projection.ts'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import type { Task } from '../jobs/scheduler.ts'
import { readSignedToken, signedToken } from '../services/signed-token.ts'
import type { BookingRecord } from '../domain/booking.ts'

export interface EmailSettings {
  /** SMTP_URL; null keeps every message as not_sent. */
  smtpUrl: string | null
  /** TOURDESK_PUBLIC_URL. */
  publicUrl: string
  /** SMTP_TLS_REJECT_UNAUTHORIZED and SMTP_TLS_CA_FILE; by default the system's CAs vouch for the mail server. */
  smtpTls?: SmtpTlsSettings
}

export interface SmtpTlsSettings {
  /** false (SMTP_TLS_REJECT_UNAUTHORIZED=off) takes any certificate: for a local relay only. */
  rejectUnauthorized: boolean
  /** PEM certificates (SMTP_TLS_CA_FILE's contents) trusted for the mail server besides Node's bundled CAs. */
  ca: string | null
}

export const DEFAULT_REMINDER_HOURS = 24
export const DEFAULT_EMAILS_PER_RECIPIENT_PER_HOUR = 5
/** How long a newsletter confirmation link works. */
export const NEWSLETTER_CONFIRM_DAYS = 7
const NEWSLETTER_TOKEN_PURPOSE = 'newsletter'
/** Events made into emails per write: small, since SQLite writes (and rendering) hold the event loop while they run. */
const EVENTS_PER_BATCH = 50
/** The projection of an instance is one node's for this long, renewed on every run. */
const PROJECTION_LEASE_MS = 30_000
/** An endpoint failing this long is worth a word to the managers (docs/events-and-webhooks.md, "Webhooks"). */
const WEBHOOK_WARNING_HOURS = 24

/**
 * Makes the emails (docs/events-and-webhooks.md, "Email"), on every node: the events of each instance, read
 * in commit order after the instance's cursor, become messages in the same transaction that
 * moves the cursor, so each event makes its emails once (the instance's lease keeps one node
 * at it; the cursor's conditional move and each message's dedupe key make a second node's
 * attempt a no-op). Reminders and the warnings about failing webhook endpoints are made the
 * same way: once, by dedupe key, whichever node gets there first. Sending is
 * src/notify/email-sending.ts.
 */
export function emailOutbox(store: Store, catalogs: CatalogRegistry, secret: string, settings: EmailSettings) {
  const { emails } = store
  const canSend = settings.smtpUrl !== null

  function rules(catalog: InstanceCatalog, now: Temporal.Instant): EnqueueRules {
    return {
      now: toStoredInstant(now),
      hourAgo: toStoredInstant(now.subtract({ hours: 1 })),
      cap: catalog.instance.emails_per_recipient_per_hour ?? DEFAULT_EMAILS_PER_RECIPIENT_PER_HOUR,
      canSend,
    }
  }

  async function managers(instanceId: string): Promise<string[]> {
    // A manager who never set a password cannot act yet: their links would do nothing.
    return (await store.staff.list(instanceId)).filter((s) => s.role === 'manager' && s.disabled === 0 && s.password_hash !== null).map((s) => s.email)
  }

  async function operatorAddresses(catalog: InstanceCatalog): Promise<string[]> {
    const configured = catalog.instance.operator_emails ?? []
    return configured.length > 0 ? [...configured] : managers(catalog.instance.ref)
  }

  /** Makes the emails of up to one batch of the instance's new events; answers how many events it read. */
  async function projectBatch(catalog: InstanceCatalog, now: Temporal.Instant): Promise<{ events: number, emails: number }> {
    const instanceId = catalog.instance.ref
    const operators = await operatorAddresses(catalog)
    // Read and rendered outside the write, so the writer (SQLite's one lock) is held only to
    // keep the messages; the cursor's conditional move makes a stale read a no-op.
    const { from, events } = await store.read(function* () {
      const from = yield* emails.cursor(instanceId)
      return { from, events: yield* store.events.list(instanceId, { afterSeq: from ?? 0, types: null, limit: EVENTS_PER_BATCH }) }
    })
    if (events.length === 0) return { events: 0, emails: 0 }
    const projected = events.map((event) => projectEvent(event, { catalog, secret, origin: settings.publicUrl, operators, now }))
    return store.write(function* () {
      if (!(yield* emails.advance(instanceId, from, events[events.length - 1].seq))) return { events: 0, emails: 0 }
      for (const link of projected.flatMap((p) => p.links)) yield* emails.addActionLink(link)
      const kept = yield* emails.enqueue(projected.flatMap((p) => p.emails), rules(catalog, now))
      return { events: events.length, emails: kept.length }
    })
  }

  async function project(now: Temporal.Instant): Promise<{ events: number, emails: number }> {
    const total = { events: 0, emails: 0 }
    for (const catalog of catalogs.values()) {
      const instanceId = catalog.instance.ref
      if (!(await store.read(() => emails.behind(instanceId)))) continue
      if (!(await store.leases.take(instanceId, 'email-projection', toStoredInstant(now), toStoredInstant(now.add({ milliseconds: PROJECTION_LEASE_MS }))))) continue
      for (;;) {
        const batch = await projectBatch(catalog, now)
        total.events += batch.events
        total.emails += batch.emails
        if (batch.events < EVENTS_PER_BATCH) break
        // Requests waiting meanwhile go first: a backlog must not stall the answers.
        await yieldToRequests()
      }
    }
    return total
  }

  /**
   * The reminder of each confirmed booking starting within reminder_hours, once: a booking made
   * after its reminder was due (inside that window) has just had its confirmation instead.
   */
  async function remind(now: Temporal.Instant): Promise<number> {
    let made = 0
    for (const catalog of catalogs.values()) {
      const hours = catalog.instance.reminder_hours ?? DEFAULT_REMINDER_HOURS
      if (hours === 0) continue
      const instanceId = catalog.instance.ref
      const rows = await store.read(() => emails.remindersDue(instanceId, toStoredInstant(now), toStoredInstant(now.add({ hours }))))
      const due = rows.filter((row) => Temporal.Instant.compare(Temporal.Instant.from(row.created_at), Temporal.Instant.from(row.start_at).subtract({ hours })) <= 0)
      if (due.length === 0) continue
      const context = { catalog, secret, origin: settings.publicUrl, now }
      made += await store.write(function* () {
        return (yield* emails.enqueue(due.map((row) => reminderOf(row, context)), rules(catalog, now))).length
      })
    }
    return made
  }

  /** The managers hear once when an endpoint has failed for 24 hours, and once when it is disabled. */
  async function watchWebhooks(now: Temporal.Instant): Promise<number> {
    let made = 0
    const warnBefore = toStoredInstant(now.subtract({ hours: WEBHOOK_WARNING_HOURS }))
    for (const catalog of catalogs.values()) {
      const instanceId = catalog.instance.ref
      const rows = await store.read(() => store.webhooks.failingOrDisabledSince(instanceId, warnBefore))
      if (rows.length === 0) continue
      const recipients = await managers(instanceId)
      const addresses = recipients.length > 0 ? recipients : [...catalog.instance.operator_emails ?? []]
      const messages: NewEmail[] = []
      for (const endpoint of rows) {
        const view = `${settings.publicUrl}${backOfficePaths.webhook(catalog.instance.prefix, endpoint.id)}`
        const [kind, key, message]: [NewEmail['kind'], string, Message] = endpoint.disabled_at !== null
          ? ['webhook_disabled', `webhook-disabled:${endpoint.id}:${endpoint.disabled_at}`, operatorMessages.webhookDisabled(catalog, { url: endpoint.url, reason: endpoint.disabled_reason ?? 'disabled' }, view)]
          : ['webhook_failing', `webhook-failing:${endpoint.id}:${endpoint.failing_since}`, operatorMessages.webhookFailing(catalog, { url: endpoint.url, since: endpoint.failing_since! }, view)]
        for (const recipient of addresses) {
          messages.push({ instanceId, kind, recipient, bookingId: null, dedupeKey: `${key}:${recipient.toLowerCase()}`, subject: message.subject, text: message.text, html: message.html, calendar: null })
        }
      }
      made += await store.write(function* () {
        return (yield* emails.enqueue(messages, rules(catalog, now))).length
      })
    }
    return made
  }

  return {
    /**
     * A page of the instance's email log, newest first, with one message more when there are
     * more: to a recipient, or about a booking (a code or an id; an unknown one lists nothing).
     */
    async log(instanceId: string, query: { to?: string, booking?: string, before: [string, string] | null, limit: number }): Promise<EmailRow[]> {
      const bookingId = query.booking === undefined ? null : (await store.operatorBookings.find(instanceId, query.booking.trim()))?.id ?? ''
      return store.read(() => emails.list(instanceId, { recipient: query.to ?? null, bookingId, before: query.before, limit: query.limit + 1 }))
    },

    /** The newest message of the instance the service tried to send, for Settings' email status (GET /emails/status). */
    lastAttempted(instanceId: string): Promise<EmailRow | undefined> {
      return store.read(() => emails.lastAttempted(instanceId))
    },

    /** Whether sign-ups wait for their confirmation link (newsletter_double_opt-in; on by default when email can be sent). */
    doubleOptIn(catalog: InstanceCatalog): boolean {
      return catalog.instance.newsletter_double_opt_in ?? canSend
    },

    /** The sign-up a confirmation link's token names; null when it was not made here, or has run out by `now`. */
    signupOf(catalog: InstanceCatalog, token: string, now: Temporal.Instant): string | null {
      return readSignedToken(secret, NEWSLETTER_TOKEN_PURPOSE, catalog.instance.ref, token, now)
    },

    /** The confirmation email of a newsletter sign-up, kept in the sign-up's own transaction. */
    *newsletterConfirmation(catalog: InstanceCatalog, signup: { id: string, email: string }, now: Temporal.Instant): Plan<void> {
      const token = signedToken(secret, NEWSLETTER_TOKEN_PURPOSE, catalog.instance.ref, signup.id, now.add({ hours: 24 * NEWSLETTER_CONFIRM_DAYS }))
      const link = newsletterConfirmLink(settings.publicUrl, catalog.instance.prefix, token)
      const message = newsletterConfirmation(catalog, guestEmailLanguage(catalog.instance, null), link)
      yield* emails.enqueue([{
        instanceId: catalog.instance.ref, kind: 'newsletter_confirmation', recipient: signup.email, bookingId: null, dedupeKey: `newsletter:${signup.id}`,
        subject: message.subject, text: message.text, html: message.html, calendar: null,
      }], rules(catalog, now))
    },

    /** A staff member's password reset link, kept in the transaction that made its token. */
    *passwordResetLink(catalog: InstanceCatalog, recipient: string, link: string, hours: number, now: Temporal.Instant): Plan<void> {
      const message = passwordReset(catalog, link, hours)
      yield* emails.enqueue([{
        instanceId: catalog.instance.ref, kind: 'password_reset', recipient, bookingId: null, dedupeKey: null,
        subject: message.subject, text: message.text, html: message.html, calendar: null,
      }], rules(catalog, now))
    },

    /** Whether messages can go at all (SMTP_URL is set). */
    canSend,

    /**
     * A new copy of a booking's confirmation, calendar file and all, to its contact email, kept
     * in the caller's transaction. Made as the original is, from the booking as it stands; its
     * kind (confirmation_resent) is all that tells it apart. The per-recipient cap applies as to
     * every message: a copy over it is kept as not_sent (recipient_cap). Answers the message.
     */
    *confirmationCopy(catalog: InstanceCatalog, row: BookingRecord, now: Temporal.Instant): Plan<EmailRow> {
      const copy = confirmationOf(row, { catalog, secret, origin: settings.publicUrl, now })
      const [kept] = yield* emails.enqueue([{
        instanceId: catalog.instance.ref, kind: 'confirmation_resent', recipient: row.contact_email!, bookingId: row.id, dedupeKey: null, ...copy,
      }], rules(catalog, now))
      return kept
    },

    project,
    remind,
    watchWebhooks,

    /** Events into emails, every second. */
    projectionTask(): Task {
      return { name: 'emails', everyMs: 1000, run: async (now) => ({ projectedEvents: (await project(now)).events }) }
    },

    /** Reminders and webhook warnings, as often as housekeeping: neither is due to the second. */
    remindersTask(everyMs: number): Task {
      return { name: 'email-reminders', everyMs, run: async (now) => ({ reminders: await remind(now), webhookWarnings: await watchWebhooks(now) }) }
    },
  }
}

export type EmailOutbox = ReturnType<typeof emailOutbox>
