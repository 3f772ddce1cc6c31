import { useEffect, useRef, useState } from 'preact/hooks'
import { Link, useRouter } from '../router.tsx'
import { useOffice } from '../session.tsx'
import { AddonFields, ContactFields, DaySteps, fieldsOf, priceOf } from './booking-forms.tsx'
import { bookingPath, DeparturePicker, FieldError, formErrorOf, invalid, useTours, type FormError } from './booking-shared.tsx'
import type { BookingRecord } from './booking-types.ts'
import { countsPerUnit, mixOf, quantitiesOf, startingCounts, UnitFields } from './unit-fields.tsx'
import { guestEmailNote } from './guest-email-note.ts'
import { languageName } from './translation-strings.ts'

/** Refusals that concern one field without naming it. */
const CODE_FIELDS: Record<string, string> = {
  party_out_of_range: 'party', party_mismatch: 'party', insufficient_capacity: 'start', departure_ended: 'start', slot_not_found: 'start', tour_not_found: 'tour_id',
  invalid_promo_code: 'promo_code', language_not_offered: 'language',
}

/** A key per attempt: a retry of the same request (a double click, a lost answer) makes one booking. */
const newIdempotencyKey = () => `staff-booking-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`

/**
 * A booking taken by staff (a phone call, a walk-in), in the order it is asked for: tour and
 * day, a departure with room, how many, add-ons, who; confirmed unless it is to wait.
 */
export function NewBooking() {
  const { api, formats, announce, me } = useOffice()
  const router = useRouter()
  const tours = useTours()
  const today = formats.operatorDate(new Date().toISOString())
  const [tourId, setTourId] = useState('')
  const [date, setDate] = useState(today)
  const [start, setStart] = useState<string | null>(null)
  const [party, setParty] = useState('2')
  const [counts, setCounts] = useState<Record<string, number>>({})
  const [addons, setAddons] = useState<Record<string, number>>({})
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [phone, setPhone] = useState('')
  const [status, setStatus] = useState<'confirmed' | 'requested'>('confirmed')
  const [notify, setNotify] = useState(true)
  const [note, setNote] = useState('')
  /** The language the party is guided in; '' leaves it to the API: the tour's first. */
  const [language, setLanguage] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<FormError | null>(null)
  const key = useRef(newIdempotencyKey())
  const form = useRef<HTMLFormElement>(null)
  const alert = useRef<HTMLDivElement>(null)

  const tour = tours?.find((t) => t.id === tourId) ?? null
  const hasEmail = email.trim() !== ''
  const unitTour = tour && countsPerUnit(tour) ? tour : null
  const quantities = tour ? quantitiesOf(tour, Number(party), counts) : {}
  const mix = tour ? mixOf(tour, quantities) : null
  // People: what the party bounds and per-person add-ons count; the departure's room is in seats.
  const size = unitTour && mix ? mix.people : Number(party)
  const seats = mix ? mix.seats : size
  const fields = fieldsOf(error)

  // A refusal moves focus to the first field it names, or to its sentence.
  useEffect(() => {
    if (!error) return
    const field = form.current?.querySelector<HTMLElement>('[data-invalid="true"] input:not([disabled]), [aria-invalid="true"]')
    ;(field ?? alert.current)?.focus()
  }, [error])

  function changeDay(day: string): void {
    setDate(day)
    setStart(null)
  }

  function chooseTour(id: string): void {
    setTourId(id)
    setStart(null)
    setAddons({})
    setLanguage('')
    const chosen = tours?.find((t) => t.id === id)
    const fitted = chosen && (size < chosen.party.min || size > chosen.party.max) ? Math.max(chosen.party.min, Math.min(size || 0, chosen.party.max)) : size
    if (fitted !== size) setParty(String(fitted))
    // A tour's counts start as the party of its first unit.
    setCounts(chosen ? startingCounts(chosen, Number.isInteger(fitted) && fitted > 0 ? fitted : 0) : {})
  }

  async function submit(): Promise<void> {
    const missing: Record<string, string> = {}
    if (!tourId) missing.tour_id = 'Choose a tour'
    else if (!start) missing.start = 'Choose a departure'
    if (!Number.isInteger(size) || size < 1) missing[unitTour ? `units.${unitTour.units[0].id}` : 'party'] = 'Enter how many guests'
    if (!name.trim()) missing['contact.name'] = 'Enter the name'
    if (!email.trim() && !phone.trim()) missing['contact.email'] = missing['contact.phone'] = 'Enter an email address or a phone number'
    if (Object.keys(missing).length > 0) {
      setError({ text: 'Some details are missing: see the fields marked below.', fields: missing })
      return
    }
    const body: Record<string, unknown> = {
      tour_id: tourId, start, party: size, ...(unitTour ? { units: counts } : {}),
      addons: Object.fromEntries(Object.entries(addons).filter(([, q]) => q > 0)),
      contact: { name: name.trim(), ...(email.trim() ? { email: email.trim() } : {}), ...(phone.trim() ? { phone: phone.trim() } : {}) },
      status, notify_guest: notify && hasEmail, ...(language ? { language } : {}),
    }
    if (note.trim()) body.internal_note = note.trim()
    setBusy(true)
    try {
      const made = await api.request<BookingRecord>('POST', '/bookings', body, { 'idempotency-key': key.current })
      announce(`Booking ${made.code} made for ${made.contact?.name ?? name.trim()}.${guestEmailNote(made, me.email_enabled, { asked: notify, told: 'The guest is emailed.' })}`)
      router.navigate(bookingPath(made))
    } catch (err) {
      // The refusal is kept under this key: a corrected request needs a new one.
      key.current = newIdempotencyKey()
      setError(formErrorOf(err, CODE_FIELDS))
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <p class="back"><Link to="bookings">← Bookings</Link></p>
      <h1 tabIndex={-1}>New booking</h1>
      <form class="new-booking" ref={form} noValidate aria-label="New booking" onSubmit={(event) => {
        event.preventDefault()
        if (!busy) void submit()
      }}>
        <div class="form-row">
          <div>
            <label for="new-tour">Tour</label>
            <select id="new-tour" value={tourId} {...invalid('new-tour-error', fields.tour_id)} onChange={(event) => chooseTour(event.currentTarget.value)}>
              <option value="">{tours === null ? 'Loading tours…' : 'Choose a tour'}</option>
              {(tours ?? []).map((t) => <option key={t.id} value={t.id}>{t.title}</option>)}
            </select>
            <FieldError id="new-tour-error" text={fields.tour_id} />
          </div>
          <div>
            <label for="new-date">Day</label>
            <input id="new-date" type="date" value={date} min={today} onInput={(event) => changeDay(event.currentTarget.value)} />
          </div>
        </div>
        <DaySteps date={date} onChange={changeDay} />
        {tourId && /^\d{4}-\d{2}-\d{2}$/.test(date) && (
          <DeparturePicker name="new-start" tourId={tourId} date={date} seats={Number.isInteger(seats) && seats > 0 ? seats : 1}
            value={start} onChange={setStart} error={fields.start} />
        )}
        {!tourId && fields.start && <FieldError id="new-start-error" text={fields.start} />}

        {unitTour ? <UnitFields prefix="new" tour={unitTour} values={counts} onChange={setCounts} errors={fields} /> : (
          <>
            <label for="new-party">Guests</label>
            <input id="new-party" type="number" inputMode="numeric" min={tour?.party.min ?? 1} max={tour?.party.max} value={party}
              {...invalid('new-party-error', fields.party)} onInput={(event) => setParty(event.currentTarget.value)} />
            {tour && <p class="hint-after">{tour.title} takes {tour.party.min} to {tour.party.max} guests{tour.confirmation === 'on_request' ? ', on request' : ''}.</p>}
            <FieldError id="new-party-error" text={fields.party} />
          </>
        )}
        {tour && <AddonFields prefix="new" tour={tour} party={size} values={addons} onChange={setAddons} errors={fields} />}
        {tour && tour.languages.length > 1 && (
          <>
            <label for="new-language">Guided in</label>
            <select id="new-language" value={language || tour.languages[0]} {...invalid('new-language-error', fields.language)}
              onChange={(event) => setLanguage(event.currentTarget.value)}>
              {tour.languages.map((tag) => <option key={tag} value={tag}>{languageName(tag)}</option>)}
            </select>
            <FieldError id="new-language-error" text={fields.language} />
          </>
        )}

        <fieldset class="contact-fields">
          <legend>Guest</legend>
          <ContactFields prefix="new" name={name} email={email} phone={phone} setName={setName} setEmail={setEmail} setPhone={setPhone} fields={fields} />
        </fieldset>

        <fieldset class="booking-choices">
          <legend>Status</legend>
          <div class="booking-choice">
            <input type="radio" id="new-status-confirmed" name="new-status" checked={status === 'confirmed'} onChange={() => setStatus('confirmed')} />
            <label for="new-status-confirmed">Confirmed</label>
          </div>
          <div class="booking-choice">
            <input type="radio" id="new-status-requested" name="new-status" checked={status === 'requested'} onChange={() => setStatus('requested')} />
            <label for="new-status-requested">Request, to confirm later</label>
          </div>
        </fieldset>
        <div class="booking-choice">
          <input type="checkbox" id="new-notify" checked={notify && hasEmail} disabled={!hasEmail} aria-describedby={hasEmail ? undefined : 'new-notify-hint'}
            onChange={(event) => setNotify(event.currentTarget.checked)} />
          <label for="new-notify">Email the guest {status === 'confirmed' ? 'the confirmation, with a calendar file' : 'that the request was received'}</label>
          {!hasEmail && <p class="hint-after" id="new-notify-hint">Needs an email address: without one the guest is not emailed.</p>}
        </div>
        <label for="new-note">Internal note (optional, staff only)</label>
        <textarea id="new-note" rows={2} maxLength={2000} value={note} onInput={(event) => setNote(event.currentTarget.value)} />

        {tour && Number.isInteger(size) && size > 0 && (
          <p class="total">Total, due on arrival: <strong>{formats.price(priceOf(tour, quantities, addons))}</strong></p>
        )}
        {error && <div class="message" data-tone="error" role="alert" tabIndex={-1} ref={alert}>{error.text}</div>}
        <div class="actions">
          <button type="submit" class="button" disabled={busy}>{busy ? 'Booking…' : 'Make booking'}</button>
        </div>
      </form>
    </>
  )
}
