import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import { Problem } from '../api.ts'
import { LoadState, useLoad } from '../load.tsx'
import { useOffice } from '../session.tsx'
import type { OperatorBooking, OperatorEvent } from '../types.ts'
import { guestEmailNote } from './guest-email-note.ts'
import { guestsInWords } from './unit-fields.tsx'

const RECONNECT_MS = 5_000

/** "in 11 hours", "in 3 days", "2 hours ago", in the browser's language. */
export function relativeTime(locale: string, instant: string, now = Date.now()): string {
  const minutes = Math.round((Date.parse(instant) - now) / 60_000)
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })
  if (Math.abs(minutes) < 60) return format.format(minutes, 'minute')
  if (Math.abs(minutes) < 48 * 60) return format.format(Math.round(minutes / 60), 'hour')
  return format.format(Math.round(minutes / 1440), 'day')
}

/**
 * Follows the operator API's event stream while the view is open; `onEvent` gets each event.
 * The browser reconnects by itself (sending Last-Event-ID); when the server refuses the
 * stream, the session is checked and the stream opened afresh a little later.
 */
function useEventStream(onEvent: (event: OperatorEvent) => void): void {
  const { api } = useOffice()
  const handler = useRef(onEvent)
  handler.current = onEvent
  useEffect(() => {
    let source: EventSource | null = null
    let retry: ReturnType<typeof setTimeout> | undefined
    let stopped = false
    const open = () => {
      source = new EventSource(`${api.base}/stream`)
      source.onmessage = (message) => handler.current(JSON.parse(message.data) as OperatorEvent)
      source.onerror = () => {
        if (source?.readyState !== EventSource.CLOSED || stopped) return
        api.get('/me').then(() => { if (!stopped) retry = setTimeout(open, RECONNECT_MS) }, (err) => {
          if (err instanceof Problem && err.status === 401) api.sessionEnded()
          else if (!stopped) retry = setTimeout(open, RECONNECT_MS)
        })
      }
    }
    open()
    return () => {
      stopped = true
      clearTimeout(retry)
      source?.close()
    }
  }, [api])
}

/** Requests waiting for a decision, oldest first; new ones appear as they are made. */
export function RequestsView() {
  const { api, formats, announce, may, me } = useOffice()
  const [state, reload] = useLoad(
    () => api.get<{ bookings: OperatorBooking[] }>('/bookings?status=requested&limit=200')
      .then((b) => b.bookings.sort((x, y) => Date.parse(x.created_at) - Date.parse(y.created_at))),
    [],
  )
  const [declining, setDeclining] = useState<string | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const [error, setError] = useState<{ code: string, text: string } | null>(null)
  const [focusAfter, setFocusAfter] = useState<{ code: string | null } | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)

  useEventStream((event) => {
    if (!event.type.startsWith('booking.')) return
    void reload()
    if (event.type === 'booking.requested') {
      const booking = event.data as unknown as OperatorBooking
      announce(`New request from ${booking.contact?.name ?? 'a guest'} for ${booking.tour.title}.`)
    }
  })

  // After a decision, focus goes to the next request's first button, or to the heading when none is left.
  useEffect(() => {
    if (!focusAfter || state.kind !== 'ready') return
    const target = focusAfter.code === null ? null : document.getElementById(`confirm-${focusAfter.code}`)
    if (target) target.focus()
    else heading.current?.focus()
    setFocusAfter(null)
  }, [state, focusAfter])

  // Before paint, so the first keys typed into the reason are not lost to a late focus move.
  useLayoutEffect(() => {
    if (declining) document.getElementById(`reason-${declining}`)?.focus()
  }, [declining])

  async function decide(booking: OperatorBooking, list: OperatorBooking[], decision: 'confirm' | 'decline', reason?: string): Promise<void> {
    const code = booking.code ?? booking.id
    setBusy(code)
    setError(null)
    try {
      await api.post(`/bookings/${encodeURIComponent(code)}/${decision}`, decision === 'decline' ? (reason ? { reason } : {}) : undefined)
      const next = list[list.indexOf(booking) + 1] ?? list[list.indexOf(booking) - 1]
      setDeclining(null)
      await reload()
      announce(`Request ${booking.code ?? ''} from ${booking.contact?.name ?? 'the guest'} ${decision === 'confirm' ? 'confirmed' : 'declined'}.${guestEmailNote(booking, me.email_enabled)}`)
      setFocusAfter({ code: next ? next.code ?? next.id : null })
    } catch (err) {
      const text = err instanceof Problem && err.code === 'invalid_transition'
        ? 'Someone else decided this request just now; the list is up to date again.'
        : err instanceof Error ? err.message : String(err)
      setError({ code, text })
      await reload()
    } finally {
      setBusy(null)
    }
  }

  const mayDecide = may('bookings.change')
  return (
    <>
      <h1 tabIndex={-1} ref={heading}>Requests{state.kind === 'ready' && <span class="subtitle">{state.data.length} waiting</span>}</h1>
      <p class="hint">Bookings on tours that need your confirmation, oldest first. New ones appear here as guests send them.</p>
      <LoadState state={state} what="the requests" retry={reload} />
      {state.kind === 'ready' && (state.data.length === 0 ? <p>No requests are waiting.</p> : (
        <ul class="cards requests" aria-label="Requests waiting">
          {state.data.map((booking) => {
            const code = booking.code ?? booking.id
            const name = booking.contact?.name ?? 'Name erased'
            return (
              <li class="card request" key={code}>
                <h2>{name} <span class="code">{booking.code}</span></h2>
                <p><strong>{booking.tour.title}</strong>, {formats.dateTime(booking.start)}</p>
                <p>Starts {relativeTime(formats.locale, booking.start)} · asked {relativeTime(formats.locale, booking.created_at)}</p>
                <p>
                  {guestsInWords(booking)} · {formats.price(booking.price.total)}
                  {booking.addons.length > 0 && ` · ${formats.list(booking.addons.map((a) => `${a.quantity} × ${a.name}`))}`}
                </p>
                {booking.contact && (
                  <p>
                    {booking.contact.email && <a href={`mailto:${booking.contact.email}`}>{booking.contact.email}</a>}
                    {booking.contact.email && booking.contact.phone && ' · '}
                    {booking.contact.phone && <a class="tel" href={`tel:${booking.contact.phone}`}>{booking.contact.phone}</a>}
                  </p>
                )}
                {booking.internal_note && <p class="note"><strong>Note:</strong> {booking.internal_note}</p>}
                {mayDecide && declining !== code && (
                  <div class="actions">
                    <button type="button" class="button" id={`confirm-${code}`} disabled={busy === code}
                      aria-label={`Confirm request ${booking.code ?? ''} from ${name}`} onClick={() => decide(booking, state.data, 'confirm')}>Confirm</button>
                    <button type="button" class="button quiet" id={`decline-${code}`} disabled={busy === code}
                      aria-label={`Decline request ${booking.code ?? ''} from ${name}`} onClick={() => setDeclining(code)}>Decline…</button>
                  </div>
                )}
                {mayDecide && declining === code && (
                  <form class="decline-form" onSubmit={(event) => {
                    event.preventDefault()
                    const reason = String(new FormData(event.currentTarget).get('reason') ?? '').trim()
                    void decide(booking, state.data, 'decline', reason || undefined)
                  }}>
                    <label for={`reason-${code}`}>Reason for the guest (optional)</label>
                    <textarea id={`reason-${code}`} name="reason" rows={3} maxLength={1000} />
                    <div class="actions">
                      <button type="submit" class="button danger" disabled={busy === code}>Decline request</button>
                      <button type="button" class="button quiet" onClick={() => {
                        setDeclining(null)
                        requestAnimationFrame(() => document.getElementById(`decline-${code}`)?.focus())
                      }}>Keep it</button>
                    </div>
                  </form>
                )}
                {error?.code === code && <p class="message" data-tone="error" role="alert">{error.text}</p>}
              </li>
            )
          })}
        </ul>
      ))}
    </>
  )
}
