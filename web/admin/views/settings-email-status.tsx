import type { Static } from 'typebox'
import type { EmailStatus as EmailStatusSchema } from '../../../src/schemas/admin/email.ts'
import { LoadState, useLoad } from '../load.tsx'
import { useOffice } from '../session.tsx'
import { when } from './settings-parts.tsx'

type EmailStatus = Static<typeof EmailStatusSchema>

/**
 * Whether email is on and whether the newest message the service tried went out
 * (GET /emails/status), on the Settings index and the email log: an operator who sees
 * nothing in their guests' inboxes finds out why here.
 */
export function EmailStatusLine() {
  const { api, formats } = useOffice()
  const [state, reload] = useLoad(() => api.get<EmailStatus>('/emails/status'), [])
  if (state.kind !== 'ready') return <LoadState state={state} what="whether email works" retry={reload} />
  const { enabled, last_attempt: last } = state.data
  if (!enabled) {
    return (
      <p class="message" data-tone="warn" id="email-status">
        <strong>Email is off.</strong> No mail server is set up (SMTP_URL), so nobody is emailed: messages are kept in the email log as not sent. Tell guests yourself.
      </p>
    )
  }
  if (last === null) return <p class="message" data-tone="info" id="email-status"><strong>Email is on.</strong> Nothing has been sent yet.</p>
  return last.worked
    ? <p class="message" data-tone="good" id="email-status"><strong>Email is on.</strong> The last message, to {last.to} ({when(formats, last.created_at)}), went out.</p>
    : (
      <p class="message" data-tone="error" id="email-status">
        <strong>Email is on, but the last attempt failed.</strong> The message to {last.to} ({when(formats, last.created_at)}){last.state === 'queued' ? ' is to be tried again' : ' was not sent'}: {last.reason ?? 'no reason given'}.
      </p>
    )
}
