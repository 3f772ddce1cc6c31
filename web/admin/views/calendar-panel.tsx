import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import { Problem } from '../api.ts'
import { Link } from '../router.tsx'
import { useOffice } from '../session.tsx'
import type { Departure } from '../types.ts'
import { closeDialogOf, Dialog, FieldError, fieldProps, idempotencyKey } from './calendar-dialog.tsx'
import { DepartureBadges, Fullness } from './departure-status.tsx'
import { departurePath } from './today.tsx'

const STALE = 'Someone else changed this departure just now; it is shown as it is now. Check it and try again.'

/** Seats the capacity cannot go below: every guest on a hold or a live booking. */
const seatsTaken = (d: Departure) => d.seats.held + d.seats.requested + d.seats.confirmed + d.seats.completed + d.seats.no_show

type Notice = { tone: 'error' | 'info', text: string } | null

/**
 * One departure opened from the calendar: how full it is, its manifest, and for staff who may
 * change departures: close or reopen it, set its capacity and note, or cancel it with a reason.
 */
export function DeparturePanel({ departure: d, reload, onClose }: { departure: Departure, reload: () => Promise<void>, onClose: () => void }) {
  const { api, formats, tourTitle, announce, may } = useOffice()
  const title = tourTitle(d.tour_id)
  const when = `${formats.day(d.date)}, ${formats.time(d.start)}`
  const apiPath = `/departures/${encodeURIComponent(d.tour_id)}/${encodeURIComponent(d.start)}`
  const [notice, setNotice] = useState<Notice>(null)
  const [busy, setBusy] = useState(false)
  const heading = useRef<HTMLHeadingElement>(null)

  useEffect(() => heading.current?.focus(), [])

  /** Runs a change; a stale version reloads the departure and says so. True when it went through. */
  async function change(run: () => Promise<void>, onRefusal?: (problem: Problem) => boolean): Promise<boolean> {
    // The button pressed is disabled while the change runs, which takes focus from it: it gets it back.
    const pressed = document.activeElement instanceof HTMLElement ? document.activeElement : null
    setBusy(true)
    setNotice(null)
    try {
      await run()
      await reload()
      return true
    } catch (err) {
      if (err instanceof Problem && err.status === 412) {
        await reload()
        setNotice({ tone: 'error', text: STALE })
      } else if (!(err instanceof Problem && onRefusal?.(err))) {
        setNotice({ tone: 'error', text: err instanceof Error ? err.message : String(err) })
      }
      return false
    } finally {
      setBusy(false)
      requestAnimationFrame(() => {
        const dialog = document.querySelector('.calendar-dialog')
        if (pressed?.isConnected && !dialog?.contains(document.activeElement)) pressed.focus()
      })
    }
  }

  async function toggleClosed(): Promise<void> {
    const closing = !d.closed
    const done = await change(() => api.patch(apiPath, { closed: closing }, d.version))
    if (done) {
      announce(closing
        ? `${title}, ${when}: closed to new bookings. Guests see it closed; its bookings stand.`
        : `${title}, ${when}: open to bookings again.`)
    }
  }

  const mayChange = may('departures.change')
  return (
    <Dialog labelledBy="panel-title" onClose={onClose}>
      <div class="dialog-head">
        <h2 id="panel-title" tabIndex={-1} ref={heading}>{title} <span class="subtitle">{when}</span></h2>
        <button type="button" class="button quiet" onClick={(event) => closeDialogOf(event.currentTarget)}>Done</button>
      </div>
      <Fullness departure={d} id="panel-fullness" />
      <DepartureBadges departure={d} />
      {d.note && <p class="note"><strong>Note:</strong> {d.note}</p>}
      <p class="panel-manifest"><Link to={departurePath(d)}>Open the manifest</Link></p>
      {notice && <p class="message" data-tone={notice.tone} role="alert">{notice.text}</p>}
      {mayChange && d.cancelled && <p>This departure is cancelled. To run the tour at this time after all, add an extra departure.</p>}
      {mayChange && !d.cancelled && (
        <>
          <section class="panel-section" aria-labelledby="panel-bookings">
            <h3 id="panel-bookings">Bookings</h3>
            <p>{d.closed ? 'Closed: guests see it closed and cannot book it. Its bookings stand.' : 'Open: guests can book it.'}</p>
            <button type="button" class="button quiet" id="panel-toggle" disabled={busy} onClick={toggleClosed}>
              {d.closed ? 'Reopen to bookings' : 'Close to new bookings'}
            </button>
          </section>
          <CapacityForm departure={d} apiPath={apiPath} busy={busy} change={change} />
          <CancelSection departure={d} apiPath={apiPath} busy={busy} change={change} focusHeading={() => heading.current?.focus()} />
        </>
      )}
    </Dialog>
  )
}

type Change = (run: () => Promise<void>, onRefusal?: (problem: Problem) => boolean) => Promise<boolean>

/** Capacity and note, saved together; only what changed is sent. */
function CapacityForm({ departure: d, apiPath, busy, change }: { departure: Departure, apiPath: string, busy: boolean, change: Change }) {
  const { api, announce } = useOffice()
  const [capacity, setCapacity] = useState(String(d.capacity))
  const [note, setNote] = useState(d.note ?? '')
  const [errors, setErrors] = useState<{ capacity?: string, note?: string }>({})
  const [saved, setSaved] = useState<string | null>(null)

  // A newer version (saved here, or changed by someone else) is what the fields show.
  useEffect(() => {
    setCapacity(String(d.capacity))
    setNote(d.note ?? '')
  }, [d.version])

  async function save(event: Event): Promise<void> {
    event.preventDefault()
    setErrors({})
    setSaved(null)
    const seats = Number(capacity)
    if (capacity.trim() === '' || !Number.isInteger(seats) || seats < 1 || seats > 100000) {
      setErrors({ capacity: 'Enter the number of seats, a whole number from 1.' })
      document.getElementById('panel-capacity')?.focus()
      return
    }
    const body: { capacity?: number, note?: string | null } = {}
    if (seats !== d.capacity) body.capacity = seats
    const newNote = note.trim() || null
    if (newNote !== (d.note ?? null)) body.note = newNote
    if (Object.keys(body).length === 0) {
      setSaved('Nothing to save: the capacity and the note are as they were.')
      return
    }
    const done = await change(() => api.patch(apiPath, body, d.version), (problem) => {
      if (problem.code === 'capacity_below_booked') {
        const taken = Number(problem.body.seats_taken)
        setErrors({ capacity: `${taken} ${taken === 1 ? 'seat is' : 'seats are'} taken on this departure: the capacity cannot go below ${taken}.` })
      } else if (problem.errors.some((e) => e.field === 'capacity' || e.field === 'note')) {
        const named = (field: string) => problem.errors.filter((e) => e.field === field).map((e) => `${e.field} ${e.message}`).join('; ') || undefined
        setErrors({ capacity: named('capacity'), note: named('note') })
      } else {
        return false
      }
      requestAnimationFrame(() => document.querySelector<HTMLElement>('.calendar-dialog [aria-invalid="true"]')?.focus())
      return true
    })
    if (done) {
      const parts = [body.capacity !== undefined && `capacity ${body.capacity} seats`, body.note !== undefined && (body.note === null ? 'note removed' : 'note saved')].filter(Boolean)
      const text = `Saved: ${parts.join(', ')}.`
      setSaved(text)
      announce(text)
    }
  }

  return (
    <form class="panel-section" aria-labelledby="panel-capacity-title" onSubmit={save} noValidate>
      <h3 id="panel-capacity-title">Capacity and note</h3>
      <label for="panel-capacity">Capacity (seats)</label>
      <input {...fieldProps('panel-capacity', errors.capacity, true)} type="number" inputMode="numeric" min={1} max={100000} step={1}
        value={capacity} onInput={(event) => setCapacity(event.currentTarget.value)} />
      <p class="field-hint" id="panel-capacity-hint">{seatsTaken(d)} taken now (on hold or booked).</p>
      <FieldError id="panel-capacity" error={errors.capacity} />
      <label for="panel-note">Note for staff and guides</label>
      <textarea {...fieldProps('panel-note', errors.note)} rows={3} maxLength={2000} value={note} onInput={(event) => setNote(event.currentTarget.value)} />
      <FieldError id="panel-note" error={errors.note} />
      <button type="submit" class="button" disabled={busy}>Save changes</button>
      {saved && <p class="field-hint" role="status">{saved}</p>}
    </form>
  )
}

/** Cancelling cancels its bookings, so it takes two steps: the reason, then a confirmation that says what will happen. */
function CancelSection({ departure: d, apiPath, busy, change, focusHeading }: {
  departure: Departure, apiPath: string, busy: boolean, change: Change, focusHeading: () => void,
}) {
  const { api, announce, me } = useOffice()
  const [step, setStep] = useState<'idle' | 'form' | 'confirm'>('idle')
  const [reason, setReason] = useState('')
  const [notify, setNotify] = useState(true)
  const [error, setError] = useState<string | undefined>()
  const key = useRef('')

  // Before paint, so the first keys typed into the reason are not lost to a late focus move.
  useLayoutEffect(() => {
    const target = step === 'form' ? 'cancel-reason' : step === 'confirm' ? 'cancel-confirm' : null
    if (target) document.getElementById(target)?.focus()
  }, [step])

  function next(event: Event): void {
    event.preventDefault()
    if (reason.trim() === '') {
      setError('Give the reason: it is kept on every cancelled booking and told to the guests.')
      document.getElementById('cancel-reason')?.focus()
      return
    }
    setError(undefined)
    key.current = idempotencyKey()
    setStep('confirm')
  }

  async function cancel(): Promise<void> {
    let answer: { cancelled_bookings: number } = { cancelled_bookings: 0 }
    const done = await change(async () => {
      answer = await api.request('POST', `${apiPath}/cancel`, { reason: reason.trim(), notify_guests: notify }, { 'if-match': `"${d.version}"`, 'idempotency-key': key.current })
    }, (problem) => {
      if (!problem.errors.some((e) => e.field === 'reason')) return false
      setError(problem.errors.map((e) => e.message).join('; '))
      setStep('form')
      return true
    })
    if (done) {
      const n = answer.cancelled_bookings
      announce(`Departure cancelled: ${n} ${n === 1 ? 'booking' : 'bookings'} cancelled${n === 0 ? '' : !notify ? '; the guests are not emailed, as asked' : me.email_enabled ? ', the guests are told by email' : '; the guests are not emailed: email is not set up on this service (see Settings)'}.`)
      setStep('idle')
      focusHeading()
    } else {
      setStep('form')
    }
  }

  const guests = d.seats.requested + d.seats.confirmed
  const summary = guests === 0 && d.seats.held === 0 ? 'Nobody has booked it.'
    : `${guests} ${guests === 1 ? 'guest loses a booking' : 'guests lose their bookings'} (requested and confirmed), with no fee`
      + `${d.seats.held > 0 ? `, and ${d.seats.held} seats on hold are released` : ''}. ${guests === 0 ? '' : !notify ? 'The guests are not emailed: tell them yourself.' : me.email_enabled ? 'Each guest with an email address is told by email.' : 'Email is not set up on this service (see Settings), so the guests are not emailed: tell them yourself.'}`
  return (
    <section class="panel-section" aria-labelledby="panel-cancel">
      <h3 id="panel-cancel">Cancel the departure</h3>
      {step === 'idle' && (
        <>
          <p>Cancels every requested and confirmed booking on it, with the fee waived, and closes it for good.</p>
          <button type="button" class="button quiet" id="cancel-start" disabled={busy} onClick={() => setStep('form')}>Cancel this departure…</button>
        </>
      )}
      {step === 'form' && (
        <form onSubmit={next} noValidate>
          <label for="cancel-reason">Reason</label>
          <textarea {...fieldProps('cancel-reason', error, true)} rows={3} maxLength={500} required value={reason} onInput={(event) => setReason(event.currentTarget.value)} />
          <p class="field-hint" id="cancel-reason-hint">Kept on every cancelled booking{notify && ' and told to the guests'}.</p>
          <FieldError id="cancel-reason" error={error} />
          <div class="check">
            <input type="checkbox" id="cancel-notify" checked={notify} onChange={(event) => setNotify(event.currentTarget.checked)} />
            <label for="cancel-notify">Tell the guests by email</label>
          </div>
          <div class="actions">
            <button type="submit" class="button danger">Continue</button>
            <button type="button" class="button quiet" onClick={() => {
              setStep('idle')
              setError(undefined)
              requestAnimationFrame(() => document.getElementById('cancel-start')?.focus())
            }}>Keep the departure</button>
          </div>
        </form>
      )}
      {step === 'confirm' && (
        <div class="message" data-tone="error">
          <p id="cancel-summary"><strong>Cancel this departure?</strong> {summary} This cannot be undone.</p>
          <div class="actions">
            <button type="button" class="button danger" id="cancel-confirm" aria-describedby="cancel-summary" disabled={busy} onClick={cancel}>Cancel the departure</button>
            <button type="button" class="button quiet" onClick={() => setStep('form')}>Back</button>
          </div>
        </div>
      )}
    </section>
  )
}
