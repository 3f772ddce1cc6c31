import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { formatStoredInZone } from '../../domain/instant-format.ts'
import { EmailList, EmailQuery, EmailStatus, type EMAIL_KINDS } from '../../schemas/admin/email.ts'
import type { EmailRow } from '../../store/emails.ts'
import { decodeCursor, encodeCursor } from '../list-cursor.ts'

/**
 * The text of a password reset email with its link's token withheld: the log shows that the
 * link went, and only the person whose mailbox it is can use it. A manager who wants to give
 * someone a link issues one (POST /staff/{id}/setup-link), which the audit log records.
 */
const withoutSetupToken = (text: string) => text.replace(/(\/setup#)[A-Za-z0-9_-]+/g, '$1withheld')

/** An email as the operator API shows it, in the instance's zone. */
export function emailView(row: EmailRow, timeZone: string) {
  return {
    id: row.id,
    kind: row.kind as typeof EMAIL_KINDS[number],
    to: row.recipient,
    booking_id: row.booking_id,
    subject: row.subject,
    text: row.kind === 'password_reset' ? withoutSetupToken(row.text_body) : row.text_body,
    has_calendar: row.calendar !== null,
    state: row.state as 'queued' | 'sent' | 'failed' | 'not_sent',
    state_reason: row.state_reason,
    attempts: row.attempts,
    created_at: formatStoredInZone(row.created_at, timeZone),
    sent_at: row.sent_at === null ? null : formatStoredInZone(row.sent_at, timeZone),
  }
}

/** The email log (docs/events-and-webhooks.md, "Email"): every message with its state; managers only. */
export const emailRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { emails } = app.tourdesk

  app.get('/emails/status', {
    schema: { response: { 200: EmailStatus } },
    config: {
      access: 'access.manage',
      summary: 'Whether email is on, and whether the last attempt to send worked',
      description: 'enabled says whether SMTP_URL is set. last_attempt is the newest message the service tried to send, with its state: sent (it worked), '
        + "failed, or queued for a retry after a failure, with the mail server's answer or the network error. Settings shows both.",
    },
  }, async (request) => {
    const { ref, timezone } = request.catalog.instance
    const last = await emails.lastAttempted(ref)
    return {
      enabled: emails.canSend,
      last_attempt: last === undefined ? null : {
        email_id: last.id, kind: last.kind as typeof EMAIL_KINDS[number], to: last.recipient, created_at: formatStoredInZone(last.created_at, timezone),
        worked: last.state === 'sent', state: last.state as 'queued' | 'sent' | 'failed', reason: last.state === 'sent' ? null : last.state_reason,
      },
    }
  })

  app.get('/emails', {
    schema: { querystring: EmailQuery, response: { 200: EmailList } },
    config: {
      access: 'access.manage',
      summary: 'Every email the instance made, newest first',
      description: 'Guests\' and operators\' messages with their state: queued (waiting to be sent, or retried after the mail server refused it for now), '
        + 'sent, failed (refused for good, or after its retries), or not_sent: kept but never sent, because SMTP_URL is unset (no_smtp) or the '
        + 'recipient already had emails_per_recipient_per_hour messages in the last hour (recipient_cap). `booking` takes a code or an id; an unknown one lists nothing.',
    },
  }, async (request) => {
    const { ref, timezone } = request.catalog.instance
    const limit = request.query.limit ?? 50
    const before = request.query.cursor === undefined ? null : decodeCursor(request.query.cursor, 2) as [string, string]
    const rows = await emails.log(ref, { to: request.query.to, booking: request.query.booking, before, limit })
    const page = rows.slice(0, limit)
    const last = page[page.length - 1]
    return { emails: page.map((row) => emailView(row, timezone)), next_cursor: rows.length > limit ? encodeCursor([last.created_at, last.id]) : null }
  })
}
