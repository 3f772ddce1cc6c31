import { rootCertificates } from 'node:tls'
import nodemailer, { type Transporter } from 'nodemailer'
import type { Temporal } from 'temporal-polyfill'
import { toStoredInstant } from '../domain/instant-format.ts'
import type { ClaimedEmail, SendOutcome } from '../store/emails.ts'
import type { Store } from '../store/store.ts'
import type { CatalogRegistry } from '../catalog/catalog-registry.ts'
import type { EmailSettings, SmtpTlsSettings } from './email-outbox.ts'
import type { Task } from '../jobs/scheduler.ts'
import { emailFailureLog, type EmailFailureLogger } from './email-failure-log.ts'
import { smtpFailure } from './smtp-failure.ts'
import { fromHeader } from './sender-address.ts'

/** Waits before each retry of a message the mail server did not take for now (a 4xx, no answer, a failed connection). */
const RETRY_SCHEDULE_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000]
/** nodemailer's own defaults wait minutes for a silent server; a message waits for the next run instead. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }
/** A claimed message is this node's for this long: longer than the SMTP exchange's timeouts together. */
const LEASE_MS = 60_000
const BATCH = 20

export interface SendingReport {
  sent: number
  retried: number
  failed: number
}

/** SMTP_TLS_CA_FILE's certificates, and SMTP_TLS_REJECT_UNAUTHORIZED=off for a relay whose certificate nothing vouches for. */
function smtpTlsOptions(tls: SmtpTlsSettings | undefined): { rejectUnauthorized: boolean, ca?: string[] } {
  // Node's `ca` replaces its bundled CAs: they are kept, so a public relay still verifies.
  return { rejectUnauthorized: tls?.rejectUnauthorized ?? true, ...tls?.ca ? { ca: [...rootCertificates, tls.ca] } : {} }
}

/**
 * Sends queued messages through SMTP_URL with nodemailer, on every node: each message is
 * claimed with a lease (SKIP LOCKED on PostgreSQL), so one node sends it; its Message-ID is
 * its own id, so a receiver can tell the rare resend after a node died mid-send. A 5xx
 * answer fails the message; anything else is retried on the schedule, then failed. Each
 * failure is named (src/notify/smtp-failure.ts) and logged (src/notify/email-failure-log.ts).
 */
export function emailSending(store: Store, catalogs: CatalogRegistry, smtpUrl: string, settings: EmailSettings, log?: EmailFailureLogger) {
  const transport: Transporter = nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS, tls: smtpTlsOptions(settings.smtpTls) })
  const logFailure = emailFailureLog(log, smtpUrl)

  async function sendOne(email: ClaimedEmail, now: Temporal.Instant): Promise<SendOutcome> {
    const catalog = catalogs.byRef(email.instance_id)
    const { publicUrl } = settings
    try {
      await transport.sendMail({
        from: fromHeader(catalog?.instance ?? { name: 'tourdesk' }, publicUrl),
        to: email.recipient,
        subject: email.subject,
        text: email.text_body,
        html: email.html_body,
        messageId: `<${email.id}@${new URL(publicUrl).hostname}>`,
        ...email.calendar ? { icalEvent: { filename: 'booking.ics', method: /^METHOD:(\w+)/m.exec(email.calendar)?.[1] ?? 'REQUEST', content: email.calendar } } : {},
      })
      return { kind: 'sent', at: toStoredInstant(now) }
    } catch (err) {
      const failure = smtpFailure(err)
      const wait = RETRY_SCHEDULE_MS[email.attempts]
      const outcome: SendOutcome = failure.kind === 'refused' || wait === undefined
        ? { kind: 'failed', error: failure.reason }
        : { kind: 'retry', next_attempt_at: toStoredInstant(now.add({ milliseconds: wait })), error: failure.reason }
      logFailure({ emailId: email.id, recipient: email.recipient, failure, attempt: email.attempts + 1, retryAt: outcome.kind === 'retry' ? outcome.next_attempt_at : null }, now)
      return outcome
    }
  }

  async function runDue(now: Temporal.Instant, stopping: AbortSignal = new AbortController().signal): Promise<SendingReport> {
    const report: SendingReport = { sent: 0, retried: 0, failed: 0 }
    if (!(await store.read(() => store.emails.anyDue(toStoredInstant(now))))) return report
    while (!stopping.aborted) {
      const claimed = await store.write(() => store.emails.claim(toStoredInstant(now), toStoredInstant(now.add({ milliseconds: LEASE_MS })), BATCH))
      if (claimed.length === 0) return report
      // One address's messages go one after another, in the order they were made (their ids
      // are time-ordered), so a guest never reads "declined" before "received".
      const byRecipient = new Map<string, ClaimedEmail[]>()
      for (const email of claimed) byRecipient.set(email.recipient, [...byRecipient.get(email.recipient) ?? [], email])
      await Promise.all([...byRecipient.values()].map(async (queue) => {
        for (const email of queue) {
          // Stopping: the rest of the batch waits for its lease to lapse.
          if (stopping.aborted) return
          const outcome = await sendOne(email, now)
          if (await store.write(() => store.emails.record(email, outcome))) report[outcome.kind === 'sent' ? 'sent' : outcome.kind === 'retry' ? 'retried' : 'failed']++
        }
      }))
      if (claimed.length < BATCH) return report
    }
    return report
  }

  return {
    runDue,
    task(): Task {
      return { name: 'email-sending', everyMs: 1000, run: async (now, stopping) => ({ ...await runDue(now, stopping) }) }
    },
    close(): void {
      transport.close()
    },
  }
}

export type EmailSending = ReturnType<typeof emailSending>
