import { useEffect, useRef, useState } from 'preact/hooks'
import { LoadState, useLoad } from '../load.tsx'
import { useOffice } from '../session.tsx'
import { described, FieldError, fieldErrorsOf, focusFirstInvalid, refusalText, SettingsHeading } from './settings-parts.tsx'

/** The settings this page edits (GET|PATCH /settings); null: unset, the default applies (docs/catalog.md). */
interface NotificationFields {
  operator_emails: string[] | null
  email_from: string | null
  reminder_hours: number | null
  emails_per_recipient_per_hour: number | null
  request_decision_hours: number | null
  newsletter_double_opt_in: boolean | null
}
type Field = keyof NotificationFields
type Draft = Record<Field, string>

const LABELS: Record<Field, string> = {
  operator_emails: 'Operator addresses',
  email_from: 'Sender (From)',
  reminder_hours: 'Reminder before the start, in hours',
  emails_per_recipient_per_hour: 'Most emails to one address in an hour',
  request_decision_hours: 'Hours to decide a request',
  newsletter_double_opt_in: 'Newsletter sign-ups',
}

function draftOf(s: NotificationFields): Draft {
  const text = (value: number | string | null) => value === null ? '' : String(value)
  return {
    operator_emails: (s.operator_emails ?? []).join('\n'),
    email_from: text(s.email_from),
    reminder_hours: text(s.reminder_hours),
    emails_per_recipient_per_hour: text(s.emails_per_recipient_per_hour),
    request_decision_hours: text(s.request_decision_hours),
    newsletter_double_opt_in: s.newsletter_double_opt_in === null ? '' : s.newsletter_double_opt_in ? 'on' : 'off',
  }
}

const addressesOf = (text: string) => text.split(/[\s,;]+/).filter(Boolean)
/** A whole number as a number; anything else as typed, for the service to name what is wrong with it. */
const hoursOf = (text: string) => text.trim() === '' ? null : /^-?\d+$/.test(text.trim()) ? Number(text.trim()) : text.trim()

function patchOf(draft: Draft): Record<Field, unknown> {
  const addresses = addressesOf(draft.operator_emails)
  return {
    operator_emails: addresses.length === 0 ? null : addresses,
    email_from: draft.email_from.trim() === '' ? null : draft.email_from.trim(),
    reminder_hours: hoursOf(draft.reminder_hours),
    emails_per_recipient_per_hour: hoursOf(draft.emails_per_recipient_per_hour),
    request_decision_hours: hoursOf(draft.request_decision_hours),
    newsletter_double_opt_in: draft.newsletter_double_opt_in === '' ? null : draft.newsletter_double_opt_in === 'on',
  }
}

/** Who gets the operator's emails, the sender, guest reminders, the sending cap, how long requests wait, newsletter opt-in. */
export function NotificationSettings() {
  const { api, announce } = useOffice()
  const [state, reload] = useLoad(() => api.get<NotificationFields>('/settings'), [])
  const [draft, setDraft] = useState<Draft | null>(null)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const form = useRef<HTMLFormElement>(null)

  useEffect(() => {
    if (state.kind === 'ready') setDraft(draftOf(state.data))
  }, [state])
  useEffect(() => focusFirstInvalid(form.current), [errors])

  async function save(event: SubmitEvent): Promise<void> {
    event.preventDefault()
    if (!draft || state.kind !== 'ready') return
    const wanted = patchOf(draft)
    const current = patchOf(draftOf(state.data))
    const changed = Object.fromEntries((Object.keys(wanted) as Field[]).filter((f) => JSON.stringify(wanted[f]) !== JSON.stringify(current[f])).map((f) => [f, wanted[f]]))
    setErrors({})
    setFailure(null)
    if (Object.keys(changed).length === 0) return announce('Nothing to save: no setting was changed.')
    setBusy(true)
    try {
      await api.patch('/settings', changed)
      await reload()
      announce('Notification settings saved.')
    } catch (err) {
      const addresses = addressesOf(draft.operator_emails)
      const found = fieldErrorsOf(err, (field, message) => {
        const index = /^operator_emails\.(\d+)$/.exec(field)
        if (index) return `Address ${Number(index[1]) + 1} (${addresses[Number(index[1])] ?? ''}) ${message}.`
        const top = field.split('.')[0] as Field
        return `${LABELS[top] ?? field} ${message}.`
      })
      setErrors(found)
      // An error the form cannot place next to a field is said under it.
      if ((Object.keys(found) as string[]).every((f) => !(f in LABELS))) setFailure(refusalText(err))
    } finally {
      setBusy(false)
    }
  }

  const set = (field: Field) => (event: Event) => setDraft({ ...draft!, [field]: (event.currentTarget as HTMLInputElement).value })
  return (
    <>
      <SettingsHeading>Notifications</SettingsHeading>
      <p class="hint">Emails to you and to guests. A field left empty uses its default.</p>
      <LoadState state={state} what="the settings" retry={reload} />
      {state.kind === 'ready' && draft && (
        <form class="settings-form" ref={form} noValidate onSubmit={save}>
          <fieldset>
            <legend>Emails to you</legend>
            <label for="operator-emails">{LABELS.operator_emails}</label>
            <p class="field-hint" id="operator-emails-hint">One address a line. They get new requests (with confirm and decline links), new bookings, guests’ cancellations, contact messages and departures at risk. Empty: every active manager gets them.</p>
            <textarea id="operator-emails" name="operator_emails" rows={3} value={draft.operator_emails} onInput={set('operator_emails')}
              autocomplete="off" spellcheck={false} {...described('operator-emails', errors, 'operator_emails', true)} />
            <FieldError id="operator-emails" errors={errors} field="operator_emails" />
          </fieldset>

          <fieldset>
            <legend>Emails to guests</legend>
            <label for="email-from">{LABELS.email_from}</label>
            <p class="field-hint" id="email-from-hint">An address, or a name and address such as <span class="code">Alfama Tours &lt;hello@example.com&gt;</span>. Empty: the business name at no-reply@ this site.</p>
            <input id="email-from" name="email_from" type="text" value={draft.email_from} onInput={set('email_from')} autocomplete="off"
              {...described('email-from', errors, 'email_from', true)} />
            <FieldError id="email-from" errors={errors} field="email_from" />

            <label for="reminder-hours">{LABELS.reminder_hours}</label>
            <p class="field-hint" id="reminder-hours-hint">0 to 336. 0 sends no reminder. Empty: 24.</p>
            <input id="reminder-hours" name="reminder_hours" type="number" inputMode="numeric" min={0} max={336} step={1} class="short"
              value={draft.reminder_hours} onInput={set('reminder_hours')} {...described('reminder-hours', errors, 'reminder_hours', true)} />
            <FieldError id="reminder-hours" errors={errors} field="reminder_hours" />

            <label for="recipient-cap">{LABELS.emails_per_recipient_per_hour}</label>
            <p class="field-hint" id="recipient-cap-hint">1 to 1000; the rest are kept in the email log as not sent. Empty: 5.</p>
            <input id="recipient-cap" name="emails_per_recipient_per_hour" type="number" inputMode="numeric" min={1} max={1000} step={1} class="short"
              value={draft.emails_per_recipient_per_hour} onInput={set('emails_per_recipient_per_hour')}
              {...described('recipient-cap', errors, 'emails_per_recipient_per_hour', true)} />
            <FieldError id="recipient-cap" errors={errors} field="emails_per_recipient_per_hour" />

            <label for="double-opt-in">{LABELS.newsletter_double_opt_in}</label>
            <p class="field-hint" id="double-opt-in-hint">With a confirmation email, an address is subscribed only once its link is opened.</p>
            <select id="double-opt-in" name="newsletter_double_opt_in" value={draft.newsletter_double_opt_in} onChange={set('newsletter_double_opt_in')}
              {...described('double-opt-in', errors, 'newsletter_double_opt_in', true)}>
              <option value="">Default: confirm by email when email sending is set up</option>
              <option value="on">Confirm by email</option>
              <option value="off">Subscribe at once</option>
            </select>
            <FieldError id="double-opt-in" errors={errors} field="newsletter_double_opt_in" />
          </fieldset>

          <fieldset>
            <legend>Requests</legend>
            <label for="decision-hours">{LABELS.request_decision_hours}</label>
            <p class="field-hint" id="decision-hours-hint">1 to 720. A request nobody confirms or declines in this time (or by the departure’s cutoff) is declined and the guest told. Empty: 24.</p>
            <input id="decision-hours" name="request_decision_hours" type="number" inputMode="numeric" min={1} max={720} step={1} class="short"
              value={draft.request_decision_hours} onInput={set('request_decision_hours')} {...described('decision-hours', errors, 'request_decision_hours', true)} />
            <FieldError id="decision-hours" errors={errors} field="request_decision_hours" />
          </fieldset>

          {failure && <p class="message" data-tone="error" role="alert">{failure}</p>}
          <button type="submit" class="button" disabled={busy}>{busy ? 'Saving…' : 'Save notification settings'}</button>
        </form>
      )}
    </>
  )
}
