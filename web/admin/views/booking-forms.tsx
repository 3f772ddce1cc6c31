import type { ComponentChildren } from 'preact'
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import { addDays } from '../dates.ts'
import { useOffice } from '../session.tsx'
import {
  feeOf, feePercentAt, FieldError, invalid, useCurrentPolicy, useTours, type FormError,
} from './booking-shared.tsx'
import type { BookingDetail, TourInfo } from './booking-types.ts'
import { languageName } from './translation-strings.ts'
import { countsPerUnit, mixOf, quantitiesOf, startingCounts, UnitFields } from './unit-fields.tsx'

/** What a form hands its booking's view: the change to send; the answer is null when it went through, else what to show. */
export type Submit = (body: Record<string, unknown>) => Promise<FormError | null>

/** The ajv phrasing of a schema refusal in plainer words. */
function plain(message: string): string {
  return message
    .replace(/^must match format "email"$/, 'is not an email address')
    .replace(/^must NOT have fewer than 1 characters$/, 'cannot be empty')
    .replace(/^must match pattern .*$/, 'cannot be blank')
    .replace(/^must be >= (\d+)$/, 'must be at least $1')
    .replace(/^must be <= (\d+)$/, 'must be at most $1')
}

/**
 * One action's form, in a panel under the actions: focus goes to its first field when it
 * opens, and after a refusal to the first field the refusal names, or to the refusal.
 */
export function ActionForm({ id, title, submitLabel, busyLabel, danger, closeLabel = 'Close', onClose, onSubmit, error, children }: {
  id: string
  title: string
  submitLabel: string
  busyLabel: string
  danger?: boolean
  closeLabel?: string
  onClose: () => void
  /** Checks and sends; a refusal comes back as `error`. */
  onSubmit: () => Promise<unknown>
  /** The refusal to show: each new one moves focus to the first field it names, or to its sentence. */
  error: FormError | null
  children: ComponentChildren
}) {
  const form = useRef<HTMLFormElement>(null)
  const alert = useRef<HTMLDivElement>(null)
  const [busy, setBusy] = useState(false)

  // Focus the first field before the form is painted, so nothing typed into it is lost to a late
  // focus move (web/admin/views/catalog-promo-codes.tsx says the same).
  useLayoutEffect(() => {
    form.current?.querySelector<HTMLElement>('input:not([disabled]):not([type="hidden"]), select, textarea')?.focus()
  }, [])
  useEffect(() => {
    if (!error) return
    const field = form.current?.querySelector<HTMLElement>('[data-invalid="true"] input:not([disabled]), input[aria-invalid="true"], select[aria-invalid="true"], textarea[aria-invalid="true"]')
    ;(field ?? alert.current)?.focus()
  }, [error])

  return (
    <section class="booking-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <form ref={form} noValidate onSubmit={async (event) => {
        event.preventDefault()
        if (busy) return
        setBusy(true)
        try {
          await onSubmit()
        } finally {
          setBusy(false)
        }
      }}>
        {children}
        {error && <div class="message" data-tone="error" role="alert" tabIndex={-1} ref={alert}>{error.text}</div>}
        <div class="actions">
          <button type="submit" class={danger ? 'button danger' : 'button'} disabled={busy}>{busy ? busyLabel : submitLabel}</button>
          <button type="button" class="button quiet" onClick={onClose}>{closeLabel}</button>
        </div>
      </form>
    </section>
  )
}

/** Field messages of a refusal, in plain words. */
export const fieldsOf = (error: FormError | null) => Object.fromEntries(Object.entries(error?.fields ?? {}).map(([k, v]) => [k, plain(v)]))

/** Buttons that step a YYYY-MM-DD day one day back or one forward. */
export function DaySteps({ date, onChange }: { date: string, onChange: (day: string) => void }) {
  return (
    <div class="day-steps">
      <button type="button" class="button quiet" onClick={() => onChange(addDays(date, -1))}>Day before</button>
      <button type="button" class="button quiet" onClick={() => onChange(addDays(date, 1))}>Day after</button>
    </div>
  )
}

/** The price units and add-ons come to on a tour, before any promo code. */
export function priceOf(tour: TourInfo, quantities: Record<string, number>, addons: Record<string, number>): number {
  return mixOf(tour, quantities).subtotal + tour.addons.reduce((sum, a) => sum + a.price.amount * (addons[a.id] ?? 0), 0)
}

/** Add-on quantities, one number field each; a per-person one at most the party. */
export function AddonFields({ prefix, tour, party, values, onChange, errors }: {
  prefix: string
  tour: TourInfo
  party: number
  values: Record<string, number>
  onChange: (values: Record<string, number>) => void
  errors: Record<string, string>
}) {
  const { formats } = useOffice()
  if (tour.addons.length === 0) return null
  return (
    <fieldset class="addon-fields">
      <legend>Add-ons</legend>
      {tour.addons.map((addon) => {
        const id = `${prefix}-addon-${addon.id}`
        const max = addon.per === 'person' ? Math.min(addon.max_quantity, Math.max(party, 0)) : addon.max_quantity
        const text = errors[`addons.${addon.id}`]
        return (
          <div class="addon-field" key={addon.id}>
            <label for={id}>{addon.name} <span class="hint-inline">{formats.price(addon.price.amount)} {addon.per === 'person' ? 'per person' : 'each'}, up to {max}</span></label>
            <input id={id} type="number" inputMode="numeric" min={0} max={max} value={values[addon.id] ?? 0} {...invalid(`${id}-error`, text)}
              onInput={(event) => onChange({ ...values, [addon.id]: Math.max(0, Number(event.currentTarget.value) || 0) })} />
            <FieldError id={`${id}-error`} text={text} />
          </div>
        )
      })}
    </fieldset>
  )
}

/**
 * Changing the party (a count per unit when the tour has several), the add-ons, and the
 * language the party is guided in when the tour offers more than one (as the new-booking form,
 * booking-new.tsx); the price is recomputed from the catalog.
 */
export function PartyForm({ booking, submit, onClose }: { booking: BookingDetail, submit: Submit, onClose: () => void }) {
  const { formats } = useOffice()
  const tours = useTours()
  const tour = tours?.find((t) => t.id === booking.tour.id)
  const [party, setParty] = useState(String(booking.party))
  const [counts, setCounts] = useState<Record<string, number> | null>(null)
  const [addons, setAddons] = useState<Record<string, number>>(() => Object.fromEntries(booking.addons.map((a) => [a.id, a.quantity])))
  const [language, setLanguage] = useState(booking.language)
  const [error, setError] = useState<FormError | null>(null)
  const fields = fieldsOf(error)
  const unitTour = tour && countsPerUnit(tour) ? tour : null
  // The tour list arrives after the form opens: the counts start from the booking's own lines then.
  const unitCounts = counts ?? (unitTour ? startingCounts(unitTour, booking.party, booking) : {})
  const quantities = tour ? quantitiesOf(tour, Number(party), unitCounts) : {}
  const size = unitTour ? mixOf(unitTour, quantities).people : Number(party)

  return (
    <ActionForm id="party" title="Change party and add-ons" submitLabel="Save changes" busyLabel="Saving…" onClose={onClose} error={error}
      onSubmit={async () => {
        if (!Number.isInteger(size) || size < 1) {
          const field = unitTour ? `units.${unitTour.units[0].id}` : 'party'
          const e = { text: 'The party must be a whole number of guests.', fields: { [field]: 'Enter how many guests' } }
          setError(e)
          return e
        }
        const body: Record<string, unknown> = { party: size }
        if (unitTour) body.units = unitCounts
        if (tour) body.addons = Object.fromEntries(tour.addons.map((a) => [a.id, addons[a.id] ?? 0]))
        if (language !== booking.language) body.language = language
        const refused = await submit(body)
        setError(refused)
        return refused
      }}>
      {unitTour ? <UnitFields prefix="party" tour={unitTour} values={unitCounts} onChange={setCounts} errors={fields} /> : (
        <>
          <label for="party-size">Guests</label>
          <input id="party-size" type="number" inputMode="numeric" min={tour?.party.min ?? 1} max={tour?.party.max} value={party}
            {...invalid('party-size-error', fields.party)} onInput={(event) => setParty(event.currentTarget.value)} />
          {tour && <p class="hint-after">{tour.title} takes {tour.party.min} to {tour.party.max} guests.</p>}
          <FieldError id="party-size-error" text={fields.party} />
        </>
      )}
      {tour && <AddonFields prefix="party" tour={tour} party={size} values={addons} onChange={setAddons} errors={fields} />}
      {tour && tour.languages.length > 1 && (
        <>
          <label for="party-language">Guided in</label>
          <select id="party-language" value={language} {...invalid('party-language-error', fields.language)}
            onChange={(event) => setLanguage(event.currentTarget.value)}>
            {/* A booking made before the tour dropped its language keeps it until changed. */}
            {[...new Set([...tour.languages, booking.language])].map((tag) => <option key={tag} value={tag}>{languageName(tag)}</option>)}
          </select>
          <FieldError id="party-language-error" text={fields.language} />
        </>
      )}
      {tour && Number.isInteger(size) && size > 0 && (
        <p>New total before any promo code: <strong>{formats.price(priceOf(tour, quantities, addons))}</strong> (now {formats.price(booking.price.total)})</p>
      )}
    </ActionForm>
  )
}

/** Changing the guest's name, email or phone. */
export function ContactForm({ booking, submit, onClose }: { booking: BookingDetail, submit: Submit, onClose: () => void }) {
  const [name, setName] = useState(booking.contact?.name ?? '')
  const [email, setEmail] = useState(booking.contact?.email ?? '')
  const [phone, setPhone] = useState(booking.contact?.phone ?? '')
  const [error, setError] = useState<FormError | null>(null)
  const fields = fieldsOf(error)
  return (
    <ActionForm id="contact" title="Change contact" submitLabel="Save contact" busyLabel="Saving…" onClose={onClose} error={error}
      onSubmit={async () => {
        const missing: Record<string, string> = {}
        if (!name.trim()) missing['contact.name'] = 'Enter the name'
        if (!email.trim() && !phone.trim()) missing['contact.email'] = missing['contact.phone'] = 'Enter an email address or a phone number'
        if (Object.keys(missing).length > 0) {
          const e = { text: 'The contact needs a name, and an email address or a phone number.', fields: missing }
          setError(e)
          return e
        }
        const refused = await submit({ contact: { name: name.trim(), email: email.trim() || null, phone: phone.trim() || null } })
        setError(refused)
        return refused
      }}>
      <ContactFields prefix="contact" name={name} email={email} phone={phone} setName={setName} setEmail={setEmail} setPhone={setPhone} fields={fields} />
    </ActionForm>
  )
}

export function ContactFields({ prefix, name, email, phone, setName, setEmail, setPhone, fields }: {
  prefix: string
  name: string
  email: string
  phone: string
  setName: (v: string) => void
  setEmail: (v: string) => void
  setPhone: (v: string) => void
  fields: Record<string, string>
}) {
  return (
    <>
      <p class="hint-after" id={`${prefix}-contact-hint`}>A name, and an email address or a phone number or both. Without an email address the guest is never emailed.</p>
      <label for={`${prefix}-name`}>Name</label>
      <input id={`${prefix}-name`} autoComplete="off" maxLength={200} value={name} {...invalid(`${prefix}-name-error`, fields['contact.name'])}
        onInput={(event) => setName(event.currentTarget.value)} />
      <FieldError id={`${prefix}-name-error`} text={fields['contact.name']} />
      <label for={`${prefix}-email`}>Email</label>
      <input id={`${prefix}-email`} type="email" autoComplete="off" maxLength={254} value={email} {...invalid(`${prefix}-email-error`, fields['contact.email'])}
        onInput={(event) => setEmail(event.currentTarget.value)} />
      <FieldError id={`${prefix}-email-error`} text={fields['contact.email']} />
      <label for={`${prefix}-phone`}>Phone</label>
      <input id={`${prefix}-phone`} type="tel" autoComplete="off" maxLength={40} value={phone} {...invalid(`${prefix}-phone-error`, fields['contact.phone'])}
        onInput={(event) => setPhone(event.currentTarget.value)} />
      <FieldError id={`${prefix}-phone-error`} text={fields['contact.phone']} />
    </>
  )
}

/** The note only staff see; emptied, it is removed. */
export function NoteForm({ booking, submit, onClose }: { booking: BookingDetail, submit: Submit, onClose: () => void }) {
  const [note, setNote] = useState(booking.internal_note ?? '')
  const [error, setError] = useState<FormError | null>(null)
  const fields = fieldsOf(error)
  return (
    <ActionForm id="note" title={booking.internal_note ? 'Edit internal note' : 'Add internal note'} submitLabel="Save note" busyLabel="Saving…"
      onClose={onClose} error={error} onSubmit={async () => {
        const refused = await submit({ internal_note: note.trim() || null })
        setError(refused)
        return refused
      }}>
      <label for="note-text">Internal note (staff only; leave empty to remove it)</label>
      <textarea id="note-text" rows={3} maxLength={2000} value={note} {...invalid('note-text-error', fields.internal_note)}
        onInput={(event) => setNote(event.currentTarget.value)} />
      <FieldError id="note-text-error" text={fields.internal_note} />
    </ActionForm>
  )
}

/** Cancelling: a reason, and the fee waived or as the booking's own policy gives it now. */
export function CancelForm({ booking, submit, onClose }: { booking: BookingDetail, submit: Submit, onClose: () => void }) {
  const { formats } = useOffice()
  const policy = useCurrentPolicy()
  const [reason, setReason] = useState('')
  const [fee, setFee] = useState<'waived' | 'policy'>('waived')
  const [error, setError] = useState<FormError | null>(null)
  // The fee its policy gives now, worked out from the policy when the booking was made under
  // the version in force now (the operator record carries no cancellation_now).
  const samePolicy = policy !== null && booking.policy !== null && booking.policy.id === policy.id && booking.policy.version === policy.version
  const percent = samePolicy ? feePercentAt(policy, booking.start) : null
  const amount = percent === null ? null : feeOf(booking.price.total, percent)
  const policyText = amount === null || percent === null
    ? `Charge the fee its policy${booking.policy ? ` (${booking.policy.id}, version ${booking.policy.version})` : ''} gives at this moment`
    : `Charge the fee its policy gives now: ${formats.price(amount)} (${formats.percent(percent)})`
  return (
    <ActionForm id="cancel" title="Cancel booking" submitLabel="Cancel booking" busyLabel="Cancelling…" danger closeLabel="Keep booking"
      onClose={onClose} error={error} onSubmit={async () => {
        const body: Record<string, unknown> = { fee }
        if (reason.trim()) body.reason = reason.trim()
        const refused = await submit(body)
        setError(refused)
        return refused
      }}>
      <label for="cancel-reason">Reason (optional, kept with the booking)</label>
      <textarea id="cancel-reason" rows={2} maxLength={1000} value={reason} onInput={(event) => setReason(event.currentTarget.value)} />
      {booking.status === 'requested' ? <p class="hint-after">No cancellation fee: nobody has accepted this request yet.</p> : (
      <fieldset class="booking-choices">
        <legend>Cancellation fee</legend>
        <div class="booking-choice">
          <input type="radio" id="cancel-fee-waived" name="cancel-fee" value="waived" checked={fee === 'waived'} onChange={() => setFee('waived')} />
          <label for="cancel-fee-waived">Waive the fee</label>
        </div>
        <div class="booking-choice">
          <input type="radio" id="cancel-fee-policy" name="cancel-fee" value="policy" checked={fee === 'policy'} onChange={() => setFee('policy')} />
          <label for="cancel-fee-policy">{policyText}</label>
        </div>
      </fieldset>
      )}
      <p class="hint-after">Nothing is charged here: the fee is recorded, and the guest is told.</p>
    </ActionForm>
  )
}

/** Declining a request, with a reason the guest reads. */
export function DeclineForm({ submit, onClose }: { submit: Submit, onClose: () => void }) {
  const [reason, setReason] = useState('')
  const [error, setError] = useState<FormError | null>(null)
  return (
    <ActionForm id="decline" title="Decline request" submitLabel="Decline request" busyLabel="Declining…" danger closeLabel="Keep it"
      onClose={onClose} error={error} onSubmit={async () => {
        const refused = await submit(reason.trim() ? { reason: reason.trim() } : {})
        setError(refused)
        return refused
      }}>
      <label for="decline-reason">Reason for the guest (optional)</label>
      <textarea id="decline-reason" rows={3} maxLength={1000} value={reason} onInput={(event) => setReason(event.currentTarget.value)} />
    </ActionForm>
  )
}
