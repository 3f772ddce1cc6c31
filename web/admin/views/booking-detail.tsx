import { useEffect, useRef, useState } from 'preact/hooks'
import { CHECKED_OUT, isOneOf, LIVE_CHECKED_OUT, OWES_ITS_TOTAL } from '../../../src/schemas/booking-status.ts'
import { Problem } from '../api.ts'
import { LoadState, useLoad } from '../load.tsx'
import { Link } from '../router.tsx'
import { useOffice } from '../session.tsx'
import { CancelForm, ContactForm, DeclineForm, NoteForm, PartyForm } from './booking-forms.tsx'
import { MoveForm } from './booking-move.tsx'
import { bookingApiPath, formErrorOf, STATUS_NAMES, StatusBadge, type FormError } from './booking-shared.tsx'
import type { Actor, BookingDetail, BookingEmail } from './booking-types.ts'
import { guestEmailNote } from './guest-email-note.ts'
import { onlyImplicitUnit } from '../../../src/domain/units.ts'
import { guestsInWords } from './unit-fields.tsx'
import { departurePath } from './today.tsx'
import type { Formats } from '../../src/format.ts'
import { languageName } from './translation-strings.ts'

type Panel = 'move' | 'party' | 'contact' | 'note' | 'cancel' | 'decline'

const PANEL_OPENERS: Record<Panel, string> = {
  move: 'Move…', party: 'Change party or add-ons…', contact: 'Change contact…', note: 'Internal note…', cancel: 'Cancel booking…', decline: 'Decline…',
}

/** Refusals that concern one field of a form without naming it. */
const CODE_FIELDS: Record<string, string> = {
  party_out_of_range: 'party', party_mismatch: 'party', insufficient_capacity: 'start', departure_ended: 'start', slot_not_found: 'start', tour_not_found: 'tour_id',
  language_not_offered: 'language',
}

const EMAIL_KINDS: Record<string, string> = {
  request_received: 'Request received', booking_confirmed: 'Confirmation', confirmation_resent: 'Confirmation, sent again',
  booking_declined: 'Request declined', booking_cancelled: 'Cancellation', booking_changed: 'Change', departure_cancelled: 'Departure cancelled',
  reminder: 'Reminder', new_request: 'New request, to staff', new_booking: 'New booking, to staff', guest_cancelled: 'Guest cancelled, to staff',
}

const EMAIL_STATES: Record<BookingEmail['state'], [tone: string, text: string]> = {
  sent: ['good', 'Sent'], queued: ['muted', 'Queued'], failed: ['danger', 'Failed'], not_sent: ['warn', 'Not sent'],
}

function actorName(actor: Actor): string {
  if (actor.type === 'staff') return actor.name ?? 'a member of staff'
  if (actor.type === 'key') return `API key ${actor.name ?? ''}`.trim()
  return actor.type === 'system' ? 'the system' : 'the guest'
}

/** What a history entry that kept the status did (the others read as their transition). */
const KEPT_STATUS_ACTIONS: Record<string, string> = {
  'booking.changed': 'Changed', 'booking.quarantine_released': 'Released from quarantine', 'booking.confirmation_resent': 'Confirmation sent again',
}

const FIELD_LABELS: Record<string, string> = {
  start: 'Start', tour_id: 'Tour', party: 'Party', units: 'Units', seats: 'Seats', addons: 'Add-ons', total: 'Total', promo_code: 'Promo code', 'contact.name': 'Name',
  'contact.email': 'Email', 'contact.phone': 'Phone', internal_note: 'Internal note', checked_in_at: 'Checked in', decline_reason: 'Reason',
  cancellation_reason: 'Reason', quarantined: 'Quarantined', language: 'Guided in',
}

function changeValue(field: string, value: string | number | boolean | null, formats: Formats): string {
  if (value === null || value === '') return '(none)'
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  if (field === 'total' && typeof value === 'number') return formats.price(value)
  if ((field === 'start' || field === 'checked_in_at') && typeof value === 'string') return formats.dateTime(value)
  return String(value)
}

function notSentReason(reason: string | null): string {
  if (reason === 'no_smtp') return 'no mail server is set up'
  if (reason === 'recipient_cap') return 'this address had the most emails allowed in the last hour'
  return reason ?? 'unknown'
}

/** One booking: everything about it, its history and its emails, and what staff can do to it now. */
export function BookingDetailView({ code }: { code: string }) {
  const { api, formats, may, announce, me } = useOffice()
  const path = `/bookings/${encodeURIComponent(code)}`
  const [state, reload] = useLoad(() => api.get<BookingDetail>(path), [path])
  const [emails, reloadEmails] = useLoad(() => api.get<{ emails: BookingEmail[] }>(`${path}/emails?limit=50`).then((b) => b.emails), [path])
  const [panel, setPanel] = useState<Panel | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const [result, setResult] = useState<{ tone: 'info' | 'error', text: string, at: number } | null>(null)
  const resultBox = useRef<HTMLDivElement>(null)
  const [returnTo, setReturnTo] = useState<string | null>(null)

  // After an action, focus goes to what it says happened.
  useEffect(() => { if (result) resultBox.current?.focus() }, [result])
  // A form closed without acting gives focus back to the button that opened it.
  useEffect(() => {
    if (returnTo === null) return
    document.getElementById(returnTo)?.focus()
    setReturnTo(null)
  }, [returnTo])

  const booking = state.kind === 'ready' ? state.data : null
  const name = booking?.contact?.name ?? (booking ? 'Name erased' : code)

  /** Sends a change under the version shown; a refusal comes back for the form, a stale version reloads the booking. */
  async function perform(send: (b: BookingDetail) => Promise<unknown>, done: (answer: any, b: BookingDetail) => string): Promise<FormError | null> {
    if (!booking) return null
    let answer: unknown
    try {
      answer = await send(booking)
    } catch (err) {
      if (err instanceof Problem && (err.code === 'precondition_failed' || err.code === 'invalid_transition')) {
        await reload()
        return { text: err.code === 'precondition_failed'
          ? 'Someone else changed this booking meanwhile. It is shown as it stands now: check it, then try again.'
          : `${err.message}. The booking is shown as it stands now.`, fields: {} }
      }
      return formErrorOf(err, CODE_FIELDS)
    }
    setPanel(null)
    await Promise.all([reload(), reloadEmails()])
    const text = done(answer, booking)
    announce(text)
    setResult({ tone: 'info', text, at: Date.now() })
    return null
  }

  const ifMatch = (b: BookingDetail) => ({ 'if-match': `"${b.version}"` })
  const patch = (body: Record<string, unknown>) => (b: BookingDetail) => api.patch(bookingApiPath(b), body, b.version)
  const post = (action: string, body?: Record<string, unknown>) => (b: BookingDetail) => api.request('POST', `${bookingApiPath(b)}/${action}`, body, ifMatch(b))

  /** An action without a form (confirm, resend, release): its refusal is shown where its success would be. */
  async function direct(key: string, send: (b: BookingDetail) => Promise<unknown>, done: (answer: any, b: BookingDetail) => string): Promise<void> {
    setBusy(key)
    setResult(null)
    try {
      const refused = await perform(send, done)
      if (refused) setResult({ tone: 'error', text: refused.text, at: Date.now() })
    } finally {
      setBusy(null)
    }
  }

  const guestHears = (b: BookingDetail, told?: string) => guestEmailNote(b, me.email_enabled, { told })
  const openPanel = (p: Panel) => {
    setResult(null)
    setPanel(p)
  }
  const closePanel = () => {
    const was = panel
    setPanel(null)
    if (was) setReturnTo(`open-${was}`)
  }

  const mayChange = may('bookings.change')
  const panels: Panel[] = !booking || !mayChange ? [] : [
    ...(isOneOf(LIVE_CHECKED_OUT, booking.status) ? ['move', 'party'] as Panel[] : []),
    ...(isOneOf(CHECKED_OUT, booking.status) ? ['contact', 'note'] as Panel[] : []),
    ...(booking.status === 'requested' ? ['decline'] as Panel[] : []),
    ...(isOneOf(LIVE_CHECKED_OUT, booking.status) ? ['cancel'] as Panel[] : []),
  ]

  return (
    <>
      <p class="back"><Link to="bookings">← Bookings</Link></p>
      <h1 tabIndex={-1}>{name} <span class="subtitle">Booking <span class="code">{booking?.code ?? code}</span></span></h1>
      <LoadState state={state} what="the booking" retry={reload} />
      {result && (
        <div class="message result booking-result" data-tone={result.tone === 'error' ? 'error' : undefined} tabIndex={-1} ref={resultBox}>
          <p>{result.text}</p>
        </div>
      )}
      {booking && (
        <>
          <section class="summary booking-summary" aria-label="Booking">
            <ul class="badges">
              <li><StatusBadge status={booking.status} /></li>
              {booking.quarantined && <li class="badge" data-tone="warn">Quarantined: a spam decoy was filled in</li>}
              <li class="badge" data-tone="muted">{booking.channel === 'staff' ? 'Taken by staff' : booking.channel === 'octo' ? 'From a reseller' : 'Booked online'}</li>
            </ul>
            <dl class="booking-facts">
              <div><dt>Tour</dt><dd>{booking.tour.title}</dd></div>
              <div>
                <dt>When</dt>
                <dd>{formats.dateTime(booking.start)} · <Link to={departurePath({ tour_id: booking.tour.id, start: booking.start })}>Manifest</Link></dd>
              </div>
              <div><dt>Party</dt><dd>{booking.party} {booking.party === 1 ? 'guest' : 'guests'}</dd></div>
              {!onlyImplicitUnit(booking.units) && (
                <div><dt>Units</dt><dd>{formats.list(booking.units.map((u) => `${u.quantity} × ${u.name} (${u.amount === 0 ? 'free' : formats.price(u.amount)})`))}</dd></div>
              )}
              <div><dt>Seats</dt><dd>{booking.seats}</dd></div>
              <div><dt>Guided in</dt><dd>{languageName(booking.language)}</dd></div>
              {booking.addons.length > 0 && (
                <div><dt>Add-ons</dt><dd>{formats.list(booking.addons.map((a) => `${a.quantity} × ${a.name} (${formats.price(a.amount)})`))}</dd></div>
              )}
              <div>
                <dt>Price</dt>
                <dd>
                  {booking.reseller
                    ? `${formats.price(booking.price.total)} total, paid via ${booking.reseller.name ?? 'the reseller'}: nothing due on arrival`
                    : isOneOf(OWES_ITS_TOTAL, booking.status)
                    ? `${formats.price(booking.price.due_on_arrival)} due on arrival`
                    : `${formats.price(booking.price.total)} total, nothing due${booking.cancellation && booking.cancellation.fee > 0 ? ' but the cancellation fee' : ''}`}
                  {booking.price.discount > 0 && ` · ${formats.price(booking.price.discount)} off${booking.promo_code ? ` with ${booking.promo_code}` : ''}`}
                </dd>
              </div>
              {booking.reseller && (
                <div>
                  <dt>Reseller</dt>
                  <dd>
                    {booking.reseller.name ?? booking.reseller.key_id}
                    {booking.reseller.reference && <> · ref. <span class="code">{booking.reseller.reference}</span></>}
                    {` · ${booking.reseller.commission_percent}% commission · net ${formats.price(booking.reseller.net)} owed by the reseller`}
                  </dd>
                </div>
              )}
              <div>
                <dt>Contact</dt>
                <dd>
                  {booking.contact ? (
                    <>
                      {booking.contact.name}
                      {booking.contact.email ? <> · <a href={`mailto:${booking.contact.email}`}>{booking.contact.email}</a></> : ' · no email address'}
                      {booking.contact.phone && <> · <a class="tel" href={`tel:${booking.contact.phone}`}>{booking.contact.phone}</a></>}
                    </>
                  ) : 'Erased at the guest\'s request'}
                </dd>
              </div>
              <div>
                <dt>Policy</dt>
                <dd>
                  {booking.policy ? `${booking.policy.id}, version ${booking.policy.version}` : 'As it stood when booked'}
                  {isOneOf(LIVE_CHECKED_OUT, booking.status) && ` · guests may cancel until ${formats.dateTime(booking.cancellable_until)}`}
                </dd>
              </div>
              <div><dt>Booked</dt><dd>{formats.dateTime(booking.created_at)}</dd></div>
              {booking.checked_in_at && <div><dt>Checked in</dt><dd>{formats.dateTime(booking.checked_in_at)}</dd></div>}
              {booking.cancellation && (
                <div>
                  <dt>Cancelled</dt>
                  <dd>
                    {formats.dateTime(booking.cancellation.at)} by {booking.cancellation.by === 'guest' ? 'the guest' : 'staff'}
                    {' · '}{booking.cancellation.fee_waived ? 'fee waived' : `fee ${formats.price(booking.cancellation.fee)} (${formats.percent(booking.cancellation.fee_percent)})`}
                    {booking.cancellation.reason && ` · ${booking.cancellation.reason}`}
                  </dd>
                </div>
              )}
              {booking.decline_reason && <div><dt>Declined because</dt><dd>{booking.decline_reason}</dd></div>}
              {booking.no_show && <div><dt>No-show fee</dt><dd>{formats.price(booking.no_show.fee)} ({formats.percent(booking.no_show.fee_percent)})</dd></div>}
            </dl>
            {booking.internal_note && <p class="note"><strong>Internal note:</strong> {booking.internal_note}</p>}
          </section>

          {mayChange && (panels.length > 0 || booking.status === 'confirmed' || booking.status === 'requested') && (
            <div class="actions booking-actions" role="group" aria-label="Actions">
              {booking.status === 'requested' && (
                <button type="button" class="button" disabled={busy !== null} onClick={() => direct('confirm', post('confirm'),
                  (_a, b) => `Booking ${b.code} confirmed.${guestHears(b)}`)}>Confirm</button>
              )}
              {booking.status === 'confirmed' && (
                <button type="button" class="button" id="resend" disabled={busy !== null || booking.quarantined || booking.contact === null}
                  onClick={() => direct('resend', post('resend-confirmation'), (email: BookingEmail) => email.state === 'not_sent'
                    ? `The confirmation was kept in the email log but not sent: ${notSentReason(email.state_reason)}.`
                    : `The confirmation is on its way to ${email.to} again.`)}>
                  {busy === 'resend' ? 'Sending…' : 'Resend confirmation'}
                </button>
              )}
              {booking.quarantined && isOneOf(LIVE_CHECKED_OUT, booking.status) && (
                <button type="button" class="button quiet" disabled={busy !== null} onClick={() => direct('release', post('release-quarantine'),
                  () => 'Released from quarantine: it is an ordinary booking now.')}>Release from quarantine</button>
              )}
              {panels.map((p) => (
                <button type="button" key={p} id={`open-${p}`} class={p === 'cancel' || p === 'decline' ? 'button quiet danger-text' : 'button quiet'}
                  aria-expanded={panel === p} disabled={busy !== null} onClick={() => (panel === p ? closePanel() : openPanel(p))}>
                  {p === 'note' && !booking.internal_note ? 'Add internal note…' : PANEL_OPENERS[p]}
                </button>
              ))}
            </div>
          )}

          {panel === 'move' && <MoveForm booking={booking} onClose={closePanel}
            submit={(body) => perform(patch(body), (b) => `Moved to ${b.tour.title}, ${formats.dateTime(b.start)}.${guestHears(b, 'The guest is emailed the new details.')}`)} />}
          {panel === 'party' && <PartyForm booking={booking} onClose={closePanel}
            submit={(body) => perform(patch(body), (b, before) =>
              `Now ${guestsInWords(b)}${b.language === before.language ? '' : `, guided in ${languageName(b.language)}`}; the total is ${formats.price(b.price.total)}.`)} />}
          {panel === 'contact' && <ContactForm booking={booking} onClose={closePanel}
            submit={(body) => perform(patch(body), (b) => `Contact saved: ${[b.contact?.name, b.contact?.email, b.contact?.phone].filter(Boolean).join(', ')}.`)} />}
          {panel === 'note' && <NoteForm booking={booking} onClose={closePanel}
            submit={(body) => perform(patch(body), (b) => (b.internal_note ? 'Internal note saved.' : 'Internal note removed.'))} />}
          {panel === 'cancel' && <CancelForm booking={booking} onClose={closePanel}
            submit={(body) => perform(post('cancel', body), (b) => `Booking ${b.code} cancelled, ${b.cancellation?.fee_waived ? 'fee waived' : `fee ${formats.price(b.cancellation?.fee ?? 0)}`}.${guestHears(b)}`)} />}
          {panel === 'decline' && <DeclineForm onClose={closePanel}
            submit={(body) => perform(post('decline', body), (b) => `Request ${b.code} declined.${guestHears(b)}`)} />}

          <section class="booking-section" aria-labelledby="history-title">
            <h2 id="history-title">History</h2>
            <ol class="history">
              {booking.history.map((h, i) => (
                <li key={i} data-action={h.action ?? undefined}>
                  <span class="history-at">{formats.dateTime(h.at)}</span>{' '}
                  {h.from === h.to ? (KEPT_STATUS_ACTIONS[h.action ?? ''] ?? h.action) : h.from ? `${STATUS_NAMES[h.from]} → ${STATUS_NAMES[h.to]}` : STATUS_NAMES[h.to]}, by {actorName(h.actor)}
                  {h.changes.length > 0 && (
                    <ul class="history-changes">
                      {h.changes.map((c) => <li key={c.field}>{FIELD_LABELS[c.field] ?? c.field}: {changeValue(c.field, c.from, formats)} → {changeValue(c.field, c.to, formats)}</li>)}
                    </ul>
                  )}
                </li>
              ))}
            </ol>
          </section>

          <section class="booking-section" aria-labelledby="emails-title">
            <h2 id="emails-title">Emails</h2>
            <LoadState state={emails} what="the emails" retry={reloadEmails} />
            {emails.kind === 'ready' && (emails.data.length === 0 ? <p>No emails about this booking.</p> : (
              <ul class="email-log">
                {emails.data.map((e) => {
                  const [tone, text] = EMAIL_STATES[e.state]
                  return (
                    <li key={e.id} data-kind={e.kind}>
                      <p class="email-subject">{e.subject}</p>
                      <p>
                        {EMAIL_KINDS[e.kind] ?? e.kind} to {e.to} · {formats.dateTime(e.sent_at ?? e.created_at)}{e.has_calendar && ' · with calendar file'}{' '}
                        <span class="badge" data-tone={tone}>{text}</span>
                        {e.state === 'not_sent' && ` (${notSentReason(e.state_reason)})`}
                        {e.state === 'failed' && e.state_reason && ` (${e.state_reason})`}
                      </p>
                    </li>
                  )
                })}
              </ul>
            ))}
          </section>
        </>
      )}
    </>
  )
}
