import type { ComponentChildren, RefObject } from 'preact'
import { createContext } from 'preact'
import { useContext, useEffect, useRef, useState } from 'preact/hooks'
import { Problem } from '../api.ts'
import { fieldPath, type DraftProblem } from './catalog-model.ts'

/**
 * The catalog forms' inputs and how a refusal reaches them: every input names the field it
 * edits (`data-field`, the API's path such as `party.min` or `schedule.0.times`), so an error
 * of the API's `errors[]` is shown under the input it names, with aria-invalid and
 * aria-describedby, and focus goes to the first one.
 */

interface FormScope {
  /** Prefix of the form's input ids, unique on the page. */
  prefix: string
  /** Messages by the field path of the input they belong under. */
  errors: Record<string, string>
}

const FormContext = createContext<FormScope>({ prefix: 'form', errors: {} })

export const fieldId = (prefix: string, path: string) => `${prefix}-${path.replace(/[^a-zA-Z0-9]+/g, '-')}`

/** The ajv phrasing of a schema refusal, in the words a manager reads. */
function plainMessage(message: string): string {
  const text = message
    .replace(/^must match pattern .*$/, 'is not written the expected way')
    .replace(/^must match format "date"$/, 'must be a date (YYYY-MM-DD)')
    .replace(/^must be >= (-?\d+)$/, 'must be at least $1')
    .replace(/^must be <= (-?\d+)$/, 'must be at most $1')
    .replace(/^must be > (-?\d+)$/, 'must be more than $1')
    .replace(/^must be integer$/, 'must be a whole number')
    .replace(/^must be number$/, 'must be a number')
    .replace(/^must NOT have fewer than 1 characters$/, 'cannot be empty')
    .replace(/^must NOT have fewer than 1 items$/, 'needs at least one')
    .replace(/^must NOT have more than (\d+) characters$/, 'is longer than $1 characters')
    .replace(/^must NOT have duplicate items.*$/, 'lists the same item twice')
  return text.charAt(0).toUpperCase() + text.slice(1)
}

export interface FormErrors {
  fields: Record<string, string>
  /** The refusal's detail, when there is one to show above the form. */
  detail: string | null
  /** Errors that name no input of this form, with their field. */
  others: string[]
}

const NO_ERRORS: FormErrors = { fields: {}, detail: null, others: [] }

/**
 * A form's errors: `show` places a refusal's errors (or the form's own problems) under the
 * inputs they name and moves focus to the first of them, or to the summary when none is an
 * input of the form.
 */
export function useFormErrors() {
  const form = useRef<HTMLFormElement>(null)
  const summary = useRef<HTMLDivElement>(null)
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS)
  const [shown, setShown] = useState(0)

  useEffect(() => {
    if (shown === 0) return
    const invalid = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')
    if (invalid) invalid.focus()
    else summary.current?.focus()
  }, [shown])

  /** Where each error belongs: the input it names, the closest input above it (schedule.0.times for schedule.0.times.1), or the first below it (party.min for party). */
  function place(problems: DraftProblem[]): { fields: Record<string, string>, others: string[] } {
    const inputs = [...form.current?.querySelectorAll<HTMLElement>('[data-field]') ?? []]
    const paths = [...new Set(inputs.map((input) => input.dataset.field!))]
    const labels = new Map(inputs.map((input) => [input.dataset.field!, input.dataset.label ?? input.dataset.field!]))
    const fields: Record<string, string> = {}
    const others: string[] = []
    for (const problem of problems) {
      const path = fieldPath(problem.field)
      const target = paths.includes(path) ? path
        : paths.filter((p) => path.startsWith(`${p}.`)).sort((a, b) => b.length - a.length)[0]
          ?? paths.find((p) => p.startsWith(`${path}.`))
      // Paths named in a message ("is above party.max") read as the inputs' labels.
      let message = plainMessage(problem.message)
      for (const [p, label] of labels) message = message.replace(new RegExp(`\\b${p.replace(/\./g, '\\.')}\\b`, 'g'), `“${label}”`)
      if (target === undefined) {
        others.push(`${problem.field || 'The request'}: ${message}`)
        continue
      }
      const item = path.startsWith(`${target}.`) ? /^(\d+)/.exec(path.slice(target.length + 1)) : null
      const text = item ? `Item ${Number(item[1]) + 1}: ${message}` : message
      fields[target] = fields[target] ? `${fields[target]} ${text}` : text
    }
    return { fields, others }
  }

  return {
    form,
    summary,
    errors,
    clear: () => setErrors(NO_ERRORS),
    /** The form's own problems, found before asking the API. */
    showProblems(problems: DraftProblem[]) {
      setErrors({ ...place(problems), detail: 'Some fields need a change before this can be saved.' })
      setShown((n) => n + 1)
    },
    /** A refusal of the API: its field errors under their inputs, anything else in the summary. */
    showRefusal(err: unknown) {
      if (err instanceof Problem && err.errors.length > 0) {
        setErrors({ ...place(err.errors), detail: err.code === 'catalog_invalid' ? 'That breaks a catalog rule; nothing was saved.' : 'Some fields are not accepted; nothing was saved.' })
      } else {
        setErrors({ fields: {}, others: [], detail: err instanceof Error ? err.message : String(err) })
      }
      setShown((n) => n + 1)
    },
  }
}

/** The form's scope: its id prefix and its errors, for the inputs inside. */
export function FormFields({ prefix, errors, children }: { prefix: string, errors: FormErrors, children: ComponentChildren }) {
  return <FormContext.Provider value={{ prefix, errors: errors.fields }}>{children}</FormContext.Provider>
}

/** What went wrong, above the form's buttons: the refusal's detail and any error that names no input here. */
export function ErrorSummary({ errors, summaryRef }: { errors: FormErrors, summaryRef: RefObject<HTMLDivElement | null> }) {
  if (!errors.detail && errors.others.length === 0) return null
  return (
    <div class="message catalog-errors" data-tone="error" role="alert" tabIndex={-1} ref={summaryRef}>
      {errors.detail && <p>{errors.detail}</p>}
      {errors.others.length > 0 && <ul>{errors.others.map((text) => <li key={text}>{text}</li>)}</ul>}
    </div>
  )
}

interface Described { id: string, hint?: ComponentChildren, error?: string }

/** The attributes that tie an input to its hint and error. */
function describedBy({ id, hint, error }: Described) {
  const ids = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ')
  return { 'aria-describedby': ids || undefined, 'aria-invalid': error ? 'true' as const : undefined }
}

function Notes({ id, hint, error }: Described) {
  return (
    <>
      {error && <p class="field-error" id={`${id}-error`}>{error}</p>}
      {hint && <p class="field-hint" id={`${id}-hint`}>{hint}</p>}
    </>
  )
}

interface TextFieldProps {
  path: string
  label: string
  value: string
  onInput: (value: string) => void
  hint?: ComponentChildren
  type?: 'text' | 'number' | 'date' | 'time'
  inputMode?: 'text' | 'numeric' | 'decimal'
  multiline?: boolean
  rows?: number
  readOnly?: boolean
  autoComplete?: string
  /** Shown before the input, e.g. the currency symbol. */
  prefix?: string
  class?: string
  /** The language of the text typed, when not the page's (a translation): spelling and speech follow it. */
  lang?: string
}

/** A labelled input (or textarea) for one field; the API's error for the field appears under it. */
export function TextField({ path, label, value, onInput, hint, type = 'text', inputMode, multiline, rows = 3, readOnly, autoComplete = 'off', prefix: unit, class: className, lang }: TextFieldProps) {
  const { prefix, errors } = useContext(FormContext)
  const id = fieldId(prefix, path)
  const error = errors[path]
  const common = {
    id, name: path, 'data-field': path, 'data-label': label, value, readOnly, autoComplete, lang,
    ...describedBy({ id, hint, error }),
    onInput: (event: Event) => onInput((event.currentTarget as HTMLInputElement).value),
  }
  return (
    <div class={`field${className ? ` ${className}` : ''}`}>
      <label for={id}>{label}</label>
      {multiline ? <textarea {...common} rows={rows} /> : unit
        ? <span class="with-unit"><span class="unit" aria-hidden="true">{unit}</span><input {...common} type={type as 'text'} inputMode={inputMode} /></span>
        : <input {...common} type={type as 'text'} inputMode={inputMode} step={type === 'number' ? 'any' : undefined} />}
      <Notes id={id} hint={hint} error={error} />
    </div>
  )
}

/** A labelled select for one field; the API's error for the field appears under it. */
export function SelectField({ path, label, value, options, onChange, hint }: {
  path: string
  label: string
  value: string
  options: { value: string, label: string }[]
  onChange: (value: string) => void
  hint?: ComponentChildren
}) {
  const { prefix, errors } = useContext(FormContext)
  const id = fieldId(prefix, path)
  const error = errors[path]
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} name={path} data-field={path} data-label={label} value={value} {...describedBy({ id, hint, error })}
        onChange={(event) => onChange((event.currentTarget as HTMLSelectElement).value)}>
        {options.map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
      </select>
      <Notes id={id} hint={hint} error={error} />
    </div>
  )
}

interface ChoicesProps {
  path: string
  legend: string
  kind: 'radio' | 'checkbox'
  options: { value: string, label: string }[]
  selected: string[]
  onChange: (selected: string[]) => void
  hint?: ComponentChildren
  class?: string
}

/** A group of radio buttons or checkboxes for one field; its error appears under the group and is tied to each choice. */
export function Choices({ path, legend, kind, options, selected, onChange, hint, class: className }: ChoicesProps) {
  const { prefix, errors } = useContext(FormContext)
  const id = fieldId(prefix, path)
  const error = errors[path]
  const toggle = (value: string, checked: boolean) => {
    if (kind === 'radio') onChange([value])
    else onChange(checked ? [...selected, value] : selected.filter((v) => v !== value))
  }
  return (
    <fieldset class={`field choices${className ? ` ${className}` : ''}`}>
      <legend>{legend}</legend>
      <div class="choice-list">
        {options.map((option) => (
          <label class="choice" key={option.value} for={`${id}-${option.value}`}>
            <input type={kind} id={`${id}-${option.value}`} name={`${prefix}-${path}`} value={option.value} data-field={path} data-label={legend}
              checked={selected.includes(option.value)} {...describedBy({ id, hint, error })}
              onChange={(event) => toggle(option.value, (event.currentTarget as HTMLInputElement).checked)} />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
      <Notes id={id} hint={hint} error={error} />
    </fieldset>
  )
}

/** The outcome of the last save, next to the form's buttons. */
export function SavedNote({ text }: { text: ComponentChildren }) {
  return <div class="message catalog-saved">{text}</div>
}

/**
 * The end of an edit form: what went wrong, the outcome of the last save while the draft is
 * still the one it saved, and the form's buttons (the children).
 */
export function FormEnd<Draft>({ errors, summaryRef, saved, draft, children }: {
  errors: FormErrors
  summaryRef: RefObject<HTMLDivElement | null>
  saved: { text: ComponentChildren, draft: Draft } | null
  draft: Draft
  children: ComponentChildren
}) {
  return (
    <div class="form-end">
      <ErrorSummary errors={errors} summaryRef={summaryRef} />
      {saved?.draft === draft && <SavedNote text={saved.text} />}
      <div class="actions">{children}</div>
    </div>
  )
}
