import type { ComponentChildren, Ref } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { Problem } from '../api.ts'
import type { Loaded } from '../load.tsx'
import { Link } from '../router.tsx'
import { useOffice } from '../session.tsx'
import type { Formats } from '../../src/format.ts'
import { offsetMinutes } from '../dates.ts'

/** Pieces every settings page uses: the way back, times in the operator's zone, field errors, a secret shown once, a confirmed action, paged lists. */

export type RoleName = 'guide' | 'viewer' | 'staff' | 'manager'
export const ROLES: { role: RoleName, name: string, may: string }[] = [
  { role: 'guide', name: 'Guide', may: 'departures and manifests, check-in' },
  { role: 'viewer', name: 'Viewer', may: 'reads bookings, the audit log and exports' },
  { role: 'staff', name: 'Staff', may: 'runs bookings and departures' },
  { role: 'manager', name: 'Manager', may: 'everything: catalog, settings, webhooks, keys and staff' },
]
export const roleName = (role: string) => ROLES.find((r) => r.role === role)?.name ?? role

/** The heading of a settings page, with the way back to the index above it. */
export function SettingsHeading({ children, subtitle, headingRef }: { children: ComponentChildren, subtitle?: ComponentChildren, headingRef?: Ref<HTMLHeadingElement> }) {
  return (
    <>
      <p class="back"><Link to="settings">← Settings</Link></p>
      <h1 tabIndex={-1} ref={headingRef}>{children}{subtitle && <span class="subtitle">{subtitle}</span>}</h1>
    </>
  )
}

/** An instant as a short date and time in the operator's zone, e.g. "1 Jun 2026, 09:00". */
export function when(formats: Formats, instant: string): string {
  return new Intl.DateTimeFormat(formats.locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: formats.operatorZone }).format(new Date(instant))
}

/** An instant as the value of an `<input type="datetime-local">` showing the operator's clock. */
export function localInputValue(zone: string, at: number): string {
  return new Date(at + offsetMinutes(at, zone) * 60_000).toISOString().slice(0, 16)
}

/** A datetime-local value ("2026-06-01T09:00") read as the operator's clock in `zone`: the instant, RFC 3339 in UTC. */
export function instantOfLocal(local: string, zone: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(local)
  if (!match) return null
  const [year, month, day, hour, minute] = match.slice(1).map(Number)
  const wall = Date.UTC(year, month - 1, day, hour, minute)
  // Twice: the offset at the first guess may differ from the offset at the answer (a change of clocks in between).
  const guess = wall - offsetMinutes(wall, zone) * 60_000
  return new Date(wall - offsetMinutes(guess, zone) * 60_000).toISOString()
}

/** What the validator says, in words for people; the messages that only repeat "or null" are left out. */
function plainMessage(message: string): string | null {
  if (message === 'must be null' || message.startsWith('must match a schema in')) return null
  if (/must match format "email"/.test(message)) return 'is not an email address'
  const bound = /^must be (<=|>=|<|>) (\S+)$/.exec(message)
  if (bound) return `must be ${{ '<=': 'at most', '>=': 'at least', '<': 'less than', '>': 'more than' }[bound[1]]} ${bound[2]}`
  const length = /^must NOT have (fewer|more) than (\d+) (characters|items)$/.exec(message)
  if (length) return `needs ${length[1] === 'fewer' ? 'at least' : 'at most'} ${length[2]} ${length[3]}`
  if (message === 'must be integer') return 'must be a whole number'
  return message
}

/**
 * A refusal's field errors by the top-level field they name (`operator_emails.1` → `operator_emails`),
 * each a sentence. `describe` words an error of a field's part, e.g. the second address of a list.
 */
export function fieldErrorsOf(err: unknown, describe: (field: string, message: string) => string = (_f, m) => m): Record<string, string> {
  const errors: Record<string, string> = {}
  if (!(err instanceof Problem)) return errors
  for (const { field, message } of err.errors) {
    const plain = plainMessage(message)
    const top = field.split(/[.[]/)[0]
    if (plain === null || errors[top]) continue
    errors[top] = describe(field, plain)
  }
  return errors
}

/** What a refusal says to the user: its detail, or the network's failure. */
export const refusalText = (err: unknown) => (err instanceof Error ? err.message : String(err))

/** The attributes that tie an input to its hint and its error. */
export function described(id: string, errors: Record<string, string>, field: string, hint = false): Record<string, string | boolean | undefined> {
  const ids = [hint ? `${id}-hint` : '', errors[field] ? `${id}-error` : ''].filter(Boolean).join(' ')
  return { 'aria-describedby': ids || undefined, 'aria-invalid': errors[field] ? true : undefined }
}

/** The error next to a field, tied to it by aria-describedby (see described). */
export function FieldError({ id, errors, field }: { id: string, errors: Record<string, string>, field: string }) {
  return errors[field] ? <p class="field-error" id={`${id}-error`}>{errors[field]}</p> : null
}

/** After a refusal with field errors: focus on the first field it names (whose error is read out with it). */
export function focusFirstInvalid(form: HTMLElement | null): void {
  form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
}

/**
 * How a form that makes something sends: what is missing or refused goes next to its field
 * (focus to the first), a refusal none of `fields` takes is said in a sentence, and the form is
 * busy while the request is out. `describe` words a field's refusal (see fieldErrorsOf).
 */
export function useMakeForm(fields: string[], describe: (field: string, message: string) => string) {
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const form = useRef<HTMLFormElement>(null)
  useEffect(() => focusFirstInvalid(form.current), [errors])

  /** Shows the `missing` messages (by field) if there are any, else runs the request. */
  async function send(missing: Record<string, string>, request: () => Promise<void>): Promise<void> {
    setFailure(null)
    setErrors(missing)
    if (Object.keys(missing).length > 0) return
    setBusy(true)
    try {
      await request()
    } catch (err) {
      const found = fieldErrorsOf(err, describe)
      setErrors(found)
      if (!fields.some((field) => field in found)) setFailure(refusalText(err))
    } finally {
      setBusy(false)
    }
  }

  return { form, errors, failure, busy, send }
}

/** The choice of a role, each named with what it may do. */
export function RoleField({ id, value, onChange, errors }: { id: string, value: RoleName, onChange: (role: RoleName) => void, errors: Record<string, string> }) {
  return (
    <>
      <label for={id}>Role</label>
      <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value as RoleName)} {...described(id, errors, 'role')}>
        {ROLES.map((r) => <option value={r.role} key={r.role}>{r.name}: {r.may}</option>)}
      </select>
      <FieldError id={id} errors={errors} field="role" />
    </>
  )
}

/**
 * A secret (or one-time link) shown this once: a warning that it will not be shown again, the
 * value in a read-only field, and a copy button. Focus comes to its heading when it appears.
 */
export function ShownOnce({ id, title, label, value, warning, onDone }: {
  id: string, title: string, label: string, value: string, warning: ComponentChildren, onDone: () => void
}) {
  const { announce } = useOffice()
  const heading = useRef<HTMLHeadingElement>(null)
  const field = useRef<HTMLInputElement>(null)
  useEffect(() => heading.current?.focus(), [value])

  async function copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(value)
      announce(`${label} copied.`)
    } catch {
      field.current?.select()
      field.current?.focus()
      announce(`${label} selected: press Ctrl+C (⌘C on a Mac) to copy it.`)
    }
  }

  return (
    <section class="shown-once" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} tabIndex={-1} ref={heading}>{title}</h2>
      <p class="once-warning" id={`${id}-warning`}><strong>It will not be shown again.</strong> {warning}</p>
      <label for={id}>{label}</label>
      <div class="once-value">
        <input id={id} class="secret" readOnly value={value} ref={field} aria-describedby={`${id}-warning`}
          spellcheck={false} autocomplete="off" onFocus={(event) => event.currentTarget.select()} />
        <button type="button" class="button" onClick={copy}>Copy</button>
      </div>
      <button type="button" class="button quiet" onClick={onDone}>Done, I have kept it</button>
    </section>
  )
}

/**
 * A button whose action needs a second, explicit yes: it opens a question with the action and
 * a way out; focus goes to the way out (the harmless choice), and back to the button when kept.
 */
export function Confirmed({ id, label, accessibleLabel, question, yes, onYes, busy = false, tone = 'danger' }: {
  id: string, label: string, accessibleLabel?: string, question: ComponentChildren, yes: string, onYes: () => Promise<void> | void, busy?: boolean, tone?: 'danger' | 'plain'
}) {
  const [asking, setAsking] = useState(false)
  const keep = useRef<HTMLButtonElement>(null)
  useEffect(() => { if (asking) keep.current?.focus() }, [asking])
  if (!asking) {
    return <button type="button" class="button quiet" id={id} aria-label={accessibleLabel} disabled={busy} onClick={() => setAsking(true)}>{label}</button>
  }
  return (
    <div class="confirm" role="group" aria-labelledby={`${id}-question`}>
      <p id={`${id}-question`}>{question}</p>
      <div class="actions">
        <button type="button" class={tone === 'danger' ? 'button danger' : 'button'} disabled={busy} onClick={async () => {
          await onYes()
          setAsking(false)
        }}>{yes}</button>
        <button type="button" class="button quiet" ref={keep} onClick={() => {
          setAsking(false)
          requestAnimationFrame(() => document.getElementById(id)?.focus())
        }}>Cancel</button>
      </div>
    </div>
  )
}

export interface Page<T> { items: T[], next: string | null }

/**
 * A cursor-paged list (docs/operator-api.md, "Conventions"): the first page, and more on request. reload()
 * reads the first page again and keeps what is shown meanwhile.
 */
export function usePages<T>(read: (cursor: string | null) => Promise<Page<T>>, deps: unknown[]) {
  const [state, setState] = useState<Loaded<Page<T>>>({ kind: 'loading' })
  const [more, setMore] = useState<{ busy: boolean, error: string | null }>({ busy: false, error: null })
  const generation = useRef(0)

  async function load(): Promise<void> {
    const mine = ++generation.current
    try {
      const page = await read(null)
      if (mine === generation.current) setState({ kind: 'ready', data: page })
    } catch (err) {
      if (mine === generation.current) setState({ kind: 'failed', message: refusalText(err) })
    }
  }

  async function loadMore(): Promise<void> {
    if (state.kind !== 'ready' || state.data.next === null) return
    const mine = generation.current
    setMore({ busy: true, error: null })
    try {
      const page = await read(state.data.next)
      if (mine === generation.current) setState({ kind: 'ready', data: { items: [...state.data.items, ...page.items], next: page.next } })
      setMore({ busy: false, error: null })
    } catch (err) {
      setMore({ busy: false, error: refusalText(err) })
    }
  }

  useEffect(() => {
    setState({ kind: 'loading' })
    void load()
  }, deps)
  return { state, reload: load, loadMore, more }
}

/** The button under a paged list that reads the next page, and what went wrong if it could not. */
export function MoreButton({ next, more, loadMore, what }: { next: string | null, more: { busy: boolean, error: string | null }, loadMore: () => Promise<void>, what: string }) {
  if (next === null) return null
  return (
    <div class="more">
      <button type="button" class="button quiet" disabled={more.busy} onClick={loadMore}>{more.busy ? 'Loading…' : `Show older ${what}`}</button>
      {more.error && <p class="message" data-tone="error" role="alert">Could not load more: {more.error}</p>}
    </div>
  )
}
