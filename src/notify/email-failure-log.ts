import type { Temporal } from 'temporal-polyfill'
import { LruMap } from '../domain/lru-map.ts'
import type { SmtpFailure } from './smtp-failure.ts'

export interface EmailFailureLogger {
  warn(details: object, message: string): void
}

/** Servers whose failures are counted at once; past it the least recent is forgotten (and logged afresh). */
const SERVERS_KEPT = 1000
const HOUR_MS = 3_600_000

export interface FailedSend {
  emailId: string
  recipient: string
  failure: SmtpFailure
  /** The attempt that failed, counting from 1. */
  attempt: number
  /** When it is tried again; null when it has failed for good. */
  retryAt: string | null
}

/**
 * Logs a failed send with its reason, once per recipient server and hour: the server the
 * failure is about is the recipient's domain when the relay refused the recipient, else the
 * mail server of SMTP_URL (a TLS, connection or credentials failure hits every message alike).
 * The next line for that server, an hour or more later, says how many failed in between, so a
 * relay that refuses every message for a day writes 24 lines, not thousands. A recipient's
 * address is never logged: its domain is enough to tell servers apart.
 */
export function emailFailureLog(log: EmailFailureLogger | undefined, smtpUrl: string) {
  const url = new URL(smtpUrl)
  const mailServer = `${url.hostname}:${url.port || (url.protocol === 'smtps:' ? '465' : '587')}`
  const servers = new LruMap<string, { loggedAt: number, since: number }>(SERVERS_KEPT)

  return (send: FailedSend, now: Temporal.Instant): void => {
    const domain = send.recipient.slice(send.recipient.lastIndexOf('@') + 1).toLowerCase()
    const server = send.failure.aboutRecipient ? domain : mailServer
    const key = `${server} ${send.failure.kind}`
    const seen = servers.get(key)
    if (seen && now.epochMilliseconds - seen.loggedAt < HOUR_MS) {
      seen.since++
      return
    }
    servers.set(key, { loggedAt: now.epochMilliseconds, since: 0 })
    log?.warn({
      email_id: send.emailId, mail_server: mailServer, recipient_domain: domain, failure: send.failure.kind, reason: send.failure.reason,
      attempt: send.attempt, retry_at: send.retryAt, ...seen ? { failed_since_last_line: seen.since } : {},
    }, `email to ${domain} not sent through ${mailServer} (${send.retryAt ? `tried again at ${send.retryAt}` : 'given up'}): ${send.failure.reason}`)
  }
}
