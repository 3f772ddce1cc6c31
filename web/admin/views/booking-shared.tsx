import { useEffect, useState } from 'preact/hooks'
import { Problem } from '../api.ts'
import { LoadState, useLoad } from '../load.tsx'
import { useOffice } from '../session.tsx'
import type { Departure } from '../types.ts'
import type { BookingStatus, CancellationPolicy, TourInfo } from './booking-types.ts'

export const STATUS_NAMES: Record<BookingStatus, string> = {
  held: 'On hold', released: 'Released', expired: 'Hold expired', requested: 'Awaiting confirmation', confirmed: 'Confirmed',
  declined: 'Declined', cancelled: 'Cancelled', completed: 'Checked in', no_show: 'No-show',
}

const STATUS_TONES: Partial<Record<BookingStatus, string>> = {
  requested: 'warn', confirmed: 'good', completed: 'good', declined: 'danger', cancelled: 'danger', no_show: 'danger',
}

export function StatusBadge({ status }: { status: BookingStatus }) {
  return <span class="badge" data-tone={STATUS_TONES[status] ?? 'muted'}>{STATUS_NAMES[status]}</span>
}

/** The back office path of a booking's detail. */
export const bookingPath = (booking: { code: string | null, id: string }) => `bookings/${encodeURIComponent(booking.code ?? booking.id)}`

/** The operator API path of a booking. */
export const bookingApiPath = (booking: { code: string | null, id: string }) => `/bookings/${encodeURIComponent(booking.code ?? booking.id)}`

/** The instance's tours as guests see them (titles, party range, add-ons), read once per page load. */
const tourLists = new Map<string, Promise<TourInfo[]>>()
export function useTours(): TourInfo[] | null {
  const { me } = useOffice()
  const prefix = me.instance.prefix
  const [tours, setTours] = useState<TourInfo[] | null>(null)
  useEffect(() => {
    let list = tourLists.get(prefix)
    if (!list) {
      list = fetch(`/api/${prefix}/tours`, { headers: { accept: 'application/json' } })
        .then((r) => (r.ok ? r.json() : { tours: [] }))
        .then((body: { tours: TourInfo[] }) => body.tours)
        .catch(() => {
          tourLists.delete(prefix)
          return []
        })
      tourLists.set(prefix, list)
    }
    let live = true
    void list.then((t) => { if (live) setTours(t) })
    return () => { live = false }
  }, [prefix])
  return tours
}

/** The cancellation policy in force now (guest GET /policies); null until read, or when it could not be. */
export function useCurrentPolicy(): CancellationPolicy | null {
  const { me } = useOffice()
  const [policy, setPolicy] = useState<CancellationPolicy | null>(null)
  useEffect(() => {
    let live = true
    fetch(`/api/${me.instance.prefix}/policies`, { headers: { accept: 'application/json' } })
      .then((r) => (r.ok ? r.json() : null))
      .then((body: { cancellation: CancellationPolicy } | null) => { if (live && body) setPolicy(body.cancellation) })
      .catch(() => {})
    return () => { live = false }
  }, [me.instance.prefix])
  return policy
}

/** The fee percent of the tier with the most notice still given (src/domain/cancellation.ts). */
export function feePercentAt(policy: CancellationPolicy, start: string, now = Date.now()): number {
  const hours = (Date.parse(start) - now) / 3_600_000
  const met = policy.tiers.filter((t) => hours >= t.hours_before_start).sort((a, b) => b.hours_before_start - a.hours_before_start)
  return met.length > 0 ? met[0].fee_percent : 100
}

export const feeOf = (total: number, percent: number) => Math.floor((total * percent + 50) / 100)

/** A refusal shown in a form: the sentence, and the messages of the fields it names. */
export interface FormError {
  text: string
  fields: Record<string, string>
}

/**
 * What a form shows for a refusal: each `errors[].field` next to its field; codes that
 * concern one field without naming it (party_out_of_range) go to the field `codeFields` gives.
 */
export function formErrorOf(err: unknown, codeFields: Record<string, string> = {}): FormError {
  if (!(err instanceof Problem)) return { text: err instanceof Error ? err.message : String(err), fields: {} }
  const fields: Record<string, string> = {}
  for (const e of err.errors) fields[e.field] ??= e.message
  const field = codeFields[err.code]
  if (field && Object.keys(fields).length === 0) fields[field] = err.message
  return { text: err.message, fields }
}

/** A field's message under it, named by its id so the field can point at it (aria-describedby). */
export function FieldError({ id, text }: { id: string, text: string | undefined }) {
  if (!text) return null
  return <p class="field-error" id={id}>{text}</p>
}

/** The attributes that tie a field to its message. */
export function invalid(id: string, text: string | undefined): { 'aria-invalid'?: 'true', 'aria-describedby'?: string } {
  return text ? { 'aria-invalid': 'true', 'aria-describedby': id } : {}
}

/**
 * The departures of a tour on a day, each with its free seats, as radio buttons. One that
 * cannot take `seats` more guests (full, closed, cancelled, ended) cannot be chosen and says why.
 */
export function DeparturePicker({ name, tourId, date, seats, value, onChange, current, error }: {
  name: string
  tourId: string
  date: string
  seats: number
  value: string | null
  onChange: (start: string) => void
  /** The booking's own departure, when moving it: shown, not offered. */
  current?: { tour_id: string, start: string }
  error?: string
}) {
  const { api, formats } = useOffice()
  const query = `/departures?tour=${encodeURIComponent(tourId)}&from=${date}&to=${date}&limit=200`
  const [state, reload] = useLoad(() => api.get<{ departures: Departure[] }>(query).then((b) => b.departures), [query])
  const errorId = `${name}-error`
  return (
    <fieldset class="departure-picker" data-invalid={error ? 'true' : undefined} aria-describedby={error ? errorId : undefined}>
      <legend>Departure{/^\d{4}-\d{2}-\d{2}$/.test(date) ? ` on ${formats.day(date)}` : ''}</legend>
      <LoadState state={state} what="the departures" retry={reload} />
      {state.kind === 'ready' && state.data.length === 0 && <p>No departures that day.</p>}
      {state.kind === 'ready' && state.data.length > 0 && (
        <ul class="departure-options">
          {state.data.map((d) => {
            const id = `${name}-${d.time.replace(':', '')}`
            const isCurrent = current !== undefined && current.tour_id === d.tour_id && Date.parse(current.start) === Date.parse(d.start)
            const why = isCurrent ? 'its departure now'
              : d.cancelled ? 'cancelled'
                : d.closed ? 'closed'
                  : Date.parse(d.end) <= Date.now() ? 'ended'
                    : d.seats.free === 0 ? 'full'
                      : d.seats.free < seats ? `too few for ${seats}`
                        : null
            return (
              <li key={d.start}>
                <input type="radio" id={id} name={name} value={d.start} checked={value === d.start} disabled={why !== null}
                  onChange={() => onChange(d.start)} />
                <label for={id}>
                  <span class="departure-time">{formats.time(d.start)}</span>
                  <span class="departure-seats">{d.seats.free} of {d.capacity} free{why !== null && ` · ${why}`}</span>
                </label>
              </li>
            )
          })}
        </ul>
      )}
      <FieldError id={errorId} text={error} />
    </fieldset>
  )
}
