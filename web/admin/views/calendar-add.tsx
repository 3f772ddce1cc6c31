import { useLayoutEffect, useRef, useState } from 'preact/hooks'
import { Problem } from '../api.ts'
import { useOffice } from '../session.tsx'
import type { Departure } from '../types.ts'
import type { TourChoice } from './calendar.tsx'
import { isDate, zonedStart } from '../dates.ts'
import { closeDialogOf, Dialog, FieldError, fieldProps, idempotencyKey } from './calendar-dialog.tsx'

type Field = 'tour' | 'date' | 'time' | 'capacity'
type Errors = Partial<Record<Field, string>>

/** Where the service's refusal of a new departure belongs in the form. */
function placeOf(problem: Problem): Errors | null {
  switch (problem.code) {
    case 'tour_not_found': return { tour: problem.message }
    case 'date_out_of_range': return { date: problem.message }
    case 'departure_exists':
    case 'departure_cancelled': return { time: problem.message }
    case 'capacity_below_booked': return { capacity: problem.message }
  }
  if (problem.errors.length === 0) return null
  const fields: Record<string, Field> = { tour_id: 'tour', start: 'time', capacity: 'capacity' }
  const errors: Errors = {}
  for (const e of problem.errors) {
    const field = fields[e.field]
    if (!field) return null
    errors[field] = [errors[field], `${e.field} ${e.message}`].filter(Boolean).join('; ')
  }
  return errors
}

/**
 * Adds a departure by hand (an extra one, bookable like a scheduled one): a tour, a date and a
 * time on the operator's clock, and a capacity when it should differ from the tour's.
 */
export function AddDepartureDialog({ tours, defaultTour, defaultDate, today, onAdded, onClose }: {
  tours: TourChoice[], defaultTour: string, defaultDate: string, today: string, onAdded: (d: Departure) => void, onClose: () => void,
}) {
  const { api, formats, me } = useOffice()
  const zone = me.instance.timezone
  const [errors, setErrors] = useState<Errors>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  // One Idempotency-Key per distinct request: sending the same one again (after a lost answer) adds it once.
  const attempt = useRef<{ body: string, key: string } | null>(null)

  // Before paint, so a choice made at once is not undone by a late focus move.
  useLayoutEffect(() => document.getElementById('add-tour')?.focus(), [])

  function showErrors(found: Errors): void {
    setErrors(found)
    const first = (['tour', 'date', 'time', 'capacity'] as Field[]).find((f) => found[f])
    if (first) requestAnimationFrame(() => document.getElementById(`add-${first}`)?.focus())
  }

  async function submit(event: Event): Promise<void> {
    event.preventDefault()
    setFailure(null)
    const form = new FormData(event.currentTarget as HTMLFormElement)
    const value = (name: string) => String(form.get(name) ?? '').trim()
    const [tourId, date, time, capacityText] = [value('tour'), value('date'), value('time'), value('capacity')]
    const found: Errors = {}
    if (!tourId) found.tour = 'Choose the tour.'
    if (!isDate(date)) found.date = 'Enter the date.'
    else if (date < today) found.date = 'Choose today or a later date.'
    if (!/^\d{2}:\d{2}$/.test(time)) found.time = 'Enter the start time, such as 18:00.'
    const capacity = capacityText === '' ? undefined : Number(capacityText)
    if (capacity !== undefined && (!Number.isInteger(capacity) || capacity < 1 || capacity > 100000)) found.capacity = 'Enter a whole number of seats from 1, or leave it blank.'
    const start = found.date || found.time ? null : zonedStart(date, time, zone)
    if (!found.date && !found.time && start === null) {
      found.time = `The clocks go forward at that time on ${formats.day(date)}, so it does not exist in ${formats.zoneName(zone)}. Choose another time.`
    }
    if (Object.keys(found).length > 0 || start === null) {
      showErrors(found)
      return
    }
    setErrors({})
    const body = { tour_id: tourId, start, ...(capacity === undefined ? {} : { capacity }) }
    const json = JSON.stringify(body)
    if (attempt.current?.body !== json) attempt.current = { body: json, key: idempotencyKey() }
    setBusy(true)
    try {
      onAdded(await api.request<Departure>('POST', '/departures', body, { 'idempotency-key': attempt.current.key }))
    } catch (err) {
      const placed = err instanceof Problem ? placeOf(err) : null
      if (placed) showErrors(placed)
      else setFailure(err instanceof Error ? err.message : String(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Dialog labelledBy="add-title" onClose={onClose}>
      <div class="dialog-head">
        <h2 id="add-title">Add an extra departure</h2>
        <button type="button" class="button quiet" onClick={(event) => closeDialogOf(event.currentTarget)}>Close</button>
      </div>
      <p class="field-hint">Guests can book it like a scheduled one. Times are {formats.zoneName(zone)} ({zone}).</p>
      <form onSubmit={submit} noValidate>
        <label for="add-tour">Tour</label>
        <select {...fieldProps('add-tour', errors.tour)} name="tour" required>
          {tours.map((t) => <option value={t.id} key={t.id} selected={t.id === defaultTour}>{t.title}</option>)}
        </select>
        <FieldError id="add-tour" error={errors.tour} />
        <div class="add-when">
          <div>
            <label for="add-date">Date</label>
            <input {...fieldProps('add-date', errors.date)} type="date" name="date" required min={today} defaultValue={defaultDate} />
            <FieldError id="add-date" error={errors.date} />
          </div>
          <div>
            <label for="add-time">Start time ({formats.zoneName(zone)})</label>
            <input {...fieldProps('add-time', errors.time)} type="time" name="time" required step={60} />
            <FieldError id="add-time" error={errors.time} />
          </div>
        </div>
        <label for="add-capacity">Capacity (seats, optional)</label>
        <input {...fieldProps('add-capacity', errors.capacity, true)} type="number" name="capacity" inputMode="numeric" min={1} max={100000} step={1} />
        <p class="field-hint" id="add-capacity-hint">Leave it blank for the tour's usual capacity.</p>
        <FieldError id="add-capacity" error={errors.capacity} />
        {failure && <p class="message" data-tone="error" role="alert">{failure}</p>}
        <button type="submit" class="button" disabled={busy}>Add the departure</button>
      </form>
    </Dialog>
  )
}
