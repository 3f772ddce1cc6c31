import { useRef, useState } from 'preact/hooks'
import { LoadState } from '../load.tsx'
import { Link } from '../router.tsx'
import { useOffice } from '../session.tsx'
import { EmailStatusLine } from './settings-email-status.tsx'
import { MoreButton, SettingsHeading, usePages, when } from './settings-parts.tsx'

interface Email {
  id: string
  kind: string
  to: string
  booking_id: string | null
  subject: string
  text: string
  has_calendar: boolean
  state: 'queued' | 'sent' | 'failed' | 'not_sent'
  state_reason: string | null
  attempts: number
  created_at: string
  sent_at: string | null
}

/** What each kind of email is, in words (src/schemas/admin/email.ts EMAIL_KINDS); an unknown kind shows as it is. */
const KINDS: Record<string, string> = {
  request_received: 'To the guest: request received',
  booking_confirmed: 'To the guest: booking confirmed',
  confirmation_resent: 'To the guest: confirmation sent again',
  booking_declined: 'To the guest: request declined',
  booking_cancelled: 'To the guest: booking cancelled',
  booking_changed: 'To the guest: booking changed',
  departure_cancelled: 'To the guest: departure cancelled',
  reminder: 'To the guest: reminder',
  newsletter_confirmation: 'Newsletter sign-up confirmation',
  new_request: 'To you: new request',
  new_booking: 'To you: new booking',
  guest_cancelled: 'To you: a guest cancelled',
  contact_message: 'To you: contact message',
  departure_at_risk: 'To you: departure at risk',
  webhook_failing: 'To you: webhook failing',
  webhook_disabled: 'To you: webhook turned off',
  password_reset: 'To staff: link to choose a new password',
}

const STATES: Record<Email['state'], [tone: string, text: string]> = {
  queued: ['warn', 'Queued'], sent: ['good', 'Sent'], failed: ['danger', 'Failed'], not_sent: ['muted', 'Not sent'],
}

function reasonOf(email: Email): string | null {
  if (email.state_reason === 'no_smtp') return 'Email sending is not set up on this server (SMTP_URL), so the message was kept here instead.'
  if (email.state_reason === 'recipient_cap') return 'The address had already had its most emails for the hour.'
  return email.state_reason
}

interface Filters { to: string, booking: string }

/** Every email the instance made, newest first, with its state; filtered by address or booking. */
export function EmailLog() {
  const { api, formats, may } = useOffice()
  const [filters, setFilters] = useState<Filters>({ to: '', booking: '' })
  const [typed, setTyped] = useState<Filters>(filters)
  const results = useRef<HTMLHeadingElement>(null)
  const { state, reload, loadMore, more } = usePages<Email>((cursor) => {
    const query = new URLSearchParams({ limit: '50' })
    if (filters.to) query.set('to', filters.to)
    if (filters.booking) query.set('booking', filters.booking)
    if (cursor) query.set('cursor', cursor)
    return api.get<{ emails: Email[], next_cursor: string | null }>(`/emails?${query}`).then((b) => ({ items: b.emails, next: b.next_cursor }))
  }, [filters.to, filters.booking])

  function apply(next: Filters): void {
    setTyped(next)
    setFilters(next)
    requestAnimationFrame(() => results.current?.focus())
  }

  const filtered = filters.to !== '' || filters.booking !== ''
  return (
    <>
      <SettingsHeading>Email log</SettingsHeading>
      <p class="hint">Every message to guests and to you, newest first, and whether it went out.</p>
      <EmailStatusLine />
      <form class="filters card" role="search" aria-label="Filter the email log" noValidate onSubmit={(e) => {
        e.preventDefault()
        apply({ to: typed.to.trim(), booking: typed.booking.trim() })
      }}>
        <div>
          <label for="email-to">To</label>
          <input id="email-to" type="email" autocomplete="off" spellcheck={false} value={typed.to} onInput={(e) => { const to = e.currentTarget.value; setTyped((current) => ({ ...current, to })) }} />
        </div>
        <div>
          <label for="email-booking">Booking code</label>
          <input id="email-booking" type="text" autocomplete="off" spellcheck={false} value={typed.booking} onInput={(e) => { const booking = e.currentTarget.value; setTyped((current) => ({ ...current, booking })) }} />
        </div>
        <div class="actions">
          <button type="submit" class="button">Show</button>
          {filtered && <button type="button" class="button quiet" onClick={() => apply({ to: '', booking: '' })}>Show all</button>}
        </div>
      </form>
      <h2 class="results-title" tabIndex={-1} ref={results}>
        {filtered ? `Emails${filters.to ? ` to ${filters.to}` : ''}${filters.booking ? ` about booking ${filters.booking}` : ''}` : 'All emails'}
      </h2>
      <LoadState state={state} what="the email log" retry={reload} />
      {state.kind === 'ready' && (state.data.items.length === 0 ? <p>{filtered ? 'No emails match.' : 'No emails yet.'}</p> : (
        <>
          <ul class="cards log" aria-label="Emails, newest first">
            {state.data.items.map((email) => {
              const [tone, text] = STATES[email.state] ?? ['muted', email.state]
              const reason = reasonOf(email)
              return (
                <li class="card email" key={email.id} data-state={email.state}>
                  <h3 class="wrap">{email.subject}</h3>
                  <p class="log-head"><span class="badge" data-tone={tone}>{text}</span> <span class="muted">{KINDS[email.kind] ?? email.kind}</span></p>
                  <dl class="facts">
                    <div><dt>To</dt><dd class="wrap">{email.to}</dd></div>
                    <div><dt>Made</dt><dd>{when(formats, email.created_at)}</dd></div>
                    {email.sent_at && <div><dt>Sent</dt><dd>{when(formats, email.sent_at)}</dd></div>}
                    {email.attempts > 0 && <div><dt>Attempts</dt><dd>{email.attempts}</dd></div>}
                    {email.booking_id && may('bookings.read') && <div><dt>Booking</dt><dd><Link to={`bookings/${encodeURIComponent(email.booking_id)}`}>Open the booking</Link></dd></div>}
                  </dl>
                  {reason && <p class="muted">{reason}</p>}
                  <details>
                    <summary>Message{email.has_calendar ? ' (with a calendar event)' : ''}</summary>
                    <pre class="email-text">{email.text}</pre>
                  </details>
                </li>
              )
            })}
          </ul>
          <MoreButton next={state.data.next} more={more} loadMore={loadMore} what="emails" />
        </>
      ))}
    </>
  )
}
