import type { AdminApi } from '../api.ts'
import type { CatalogAddon, CatalogPolicy, CatalogPromoCode, CatalogTour, ScheduleRule } from '../../../src/schemas/catalog.ts'
import { integerOf, rowKey, type DraftProblem } from './catalog-drafts.ts'
import { unitDraft, unitsOf, type UnitDraft } from './catalog-units-model.ts'
import { translationsOf } from './translation-model.ts'

/**
 * The catalog as the back office edits it: the operator API's records (the catalog file's
 * format, src/schemas/catalog.ts), the drafts its forms hold (what the manager typed, as
 * text), and the conversions between the two.
 */

export type { CatalogPolicy, CatalogPromoCode, CatalogTour, DraftProblem, UnitDraft }
export { integerOf, rowKey }
export type OperatorTour = CatalogTour & { archived: boolean }
export type OperatorPromoCode = CatalogPromoCode & { uses: number }

/** What every catalog edit answers besides the part it edited (src/schemas/admin/catalog.ts). */
export interface EditSummary {
  dry_run: boolean
  catalog_version: number
  changes: { action: string, target: { type: string, id: string }, fields: string[], unit_changes?: string[] }[]
  orphaned_departures: { tour_id: string, start: string, seats_taken: number }[]
  capacity_kept: { tour_id: string, start: string, capacity: number, seats_taken: number, reason: string }[]
}

/** Every tour, archived ones included, in list order (every page of GET /tours). */
export async function allTours(api: AdminApi): Promise<OperatorTour[]> {
  const tours: OperatorTour[] = []
  let cursor: string | null = null
  do {
    const page: { tours: OperatorTour[], next_cursor: string | null } = await api.get(`/tours?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
    tours.push(...page.tours)
    cursor = page.next_cursor
  } while (cursor)
  return tours
}

/** Every promo code, in list order. */
export async function allPromoCodes(api: AdminApi): Promise<OperatorPromoCode[]> {
  const codes: OperatorPromoCode[] = []
  let cursor: string | null = null
  do {
    const page: { promo_codes: OperatorPromoCode[], next_cursor: string | null } = await api.get(`/promo-codes?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
    codes.push(...page.promo_codes)
    cursor = page.next_cursor
  } while (cursor)
  return codes
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Money as managers see and type it: major units in their own locale ("19.00", "19,00"),
 * kept by the API in the instance currency's minor units (1900).
 */
export class Money {
  readonly digits: number
  readonly symbol: string
  private readonly decimal: string
  private readonly group: string
  private readonly plain: Intl.NumberFormat

  constructor(readonly locale: string, readonly currency: string) {
    const format = new Intl.NumberFormat(locale, { style: 'currency', currency })
    this.digits = format.resolvedOptions().maximumFractionDigits ?? 2
    const parts = format.formatToParts(12345.5)
    this.symbol = parts.find((p) => p.type === 'currency')?.value ?? currency
    this.decimal = parts.find((p) => p.type === 'decimal')?.value ?? '.'
    this.group = parts.find((p) => p.type === 'group')?.value ?? ','
    this.plain = new Intl.NumberFormat(locale, { minimumFractionDigits: this.digits, maximumFractionDigits: this.digits, useGrouping: false })
  }

  /** Minor units as an input shows them: 1900 → "19.00" (or "19,00"). */
  text(minor: number): string {
    return this.plain.format(minor / 10 ** this.digits)
  }

  /**
   * What was typed, in minor units, or null when it is not an amount of this currency.
   * Group separators count only where they group thousands, so "19.50" is 19.50 even where
   * "." groups thousands; a minus sign is kept (the API says what it thinks of it).
   */
  parse(typed: string): number | null {
    let text = typed.replace(/[\s\u00a0\u202f]/g, '').replace(this.symbol, '').replace(this.currency, '').replace('\u2212', '-')
    if (this.group.trim()) text = text.replace(new RegExp(`${escapeRegExp(this.group)}(?=\\d{3}(?!\\d))`, 'g'), '')
    if (this.decimal !== '.') text = text.replace(this.decimal, '.')
    const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(text)
    if (!match) return null
    const [, sign, whole, fraction = ''] = match
    if (fraction.length > this.digits) return null
    const minor = Number(whole) * 10 ** this.digits + Number(fraction.padEnd(this.digits, '0') || '0')
    return sign ? -minor : minor
  }
}


/** A decimal number as typed (a comma may be the decimal point); null when empty, the text when it is no number. */
export function decimalOf(text: string): number | string | null {
  const trimmed = text.trim()
  if (trimmed === '') return null
  const value = Number(trimmed.replace(',', '.'))
  return Number.isFinite(value) ? value : trimmed
}

/** Words separated by commas or spaces: "en, pt" → ["en", "pt"]. */
export const wordsOf = (text: string) => text.split(/[\s,]+/).filter(Boolean)
/** Items separated by commas: "river, sunset views" → ["river", "sunset views"]. */
export const itemsOf = (text: string) => text.split(',').map((item) => item.trim()).filter(Boolean)

/** An errors[].field as the forms name their inputs: `schedule[0].from` → `schedule.0.from`. */
export const fieldPath = (field: string) => field.replace(/\[(\d+)\]/g, '.$1').replace(/^\//, '').replaceAll('/', '.')

const DATE = /^\d{4}-\d{2}-\d{2}$/
const TIME = /^([01][0-9]|2[0-3]):[0-5][0-9]$/

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const


export interface AddonDraft { key: number, id: string, name: string, description: string, price: string, per: 'booking' | 'person', max_quantity: string }
export interface RuleDraft { key: number, from: string, until: string, weekdays: string[], times: string }

/** A tour as its form holds it: every value as typed. */
export interface TourDraft {
  id: string
  title: string
  summary: string
  description: string
  duration_minutes: string
  meeting_point: { name: string, address: string, lat: string, lng: string }
  languages: string
  tags: string
  price: string
  /** Its price categories; none: every guest pays `price` (the implicit "person"). */
  units: UnitDraft[]
  party: { min: string, max: string }
  capacity: string
  cutoff_minutes: string
  confirmation: 'instant' | 'on_request'
  addons: AddonDraft[]
  schedule: RuleDraft[]
  blackouts: string
  min_participants: string
  min_participants_deadline_hours: string
}

const numberText = (value: number | undefined | null) => (value === undefined || value === null ? '' : String(value))

export function ruleDraft(rule: ScheduleRule): RuleDraft {
  return { key: rowKey(), from: rule.from, until: rule.until, weekdays: [...rule.weekdays], times: rule.times.join(', ') }
}

export function addonDraft(addon: CatalogAddon, money: Money): AddonDraft {
  return { key: rowKey(), id: addon.id, name: addon.name, description: addon.description, price: money.text(addon.price), per: addon.per, max_quantity: String(addon.max_quantity) }
}

export function tourDraft(tour: CatalogTour, money: Money): TourDraft {
  return {
    id: tour.id,
    title: tour.title,
    summary: tour.summary,
    description: tour.description,
    duration_minutes: String(tour.duration_minutes),
    meeting_point: { name: tour.meeting_point.name, address: tour.meeting_point.address, lat: String(tour.meeting_point.lat), lng: String(tour.meeting_point.lng) },
    languages: tour.languages.join(', '),
    tags: tour.tags.join(', '),
    price: money.text(tour.price),
    units: (tour.units ?? []).map((unit) => unitDraft(unit, money)),
    party: { min: String(tour.party.min), max: String(tour.party.max) },
    capacity: String(tour.capacity),
    cutoff_minutes: String(tour.cutoff_minutes),
    confirmation: tour.confirmation,
    addons: tour.addons.map((addon) => addonDraft(addon, money)),
    schedule: tour.schedule.map(ruleDraft),
    blackouts: tour.blackouts.join(', '),
    min_participants: numberText(tour.min_participants),
    min_participants_deadline_hours: numberText(tour.min_participants_deadline_hours),
  }
}

/** A new tour's starting point: one rule from today for a year, every day at 10:00. */
export function newTourDraft(today: string): TourDraft {
  const [y, m, d] = today.split('-')
  return {
    id: '', title: '', summary: '', description: '', duration_minutes: '120',
    meeting_point: { name: '', address: '', lat: '', lng: '' },
    languages: 'en', tags: '', price: '', units: [], party: { min: '1', max: '10' }, capacity: '10', cutoff_minutes: '60', confirmation: 'instant',
    addons: [],
    schedule: [{ key: rowKey(), from: today, until: `${Number(y) + 1}-${m}-${d}`, weekdays: [...WEEKDAYS], times: '10:00' }],
    blackouts: '', min_participants: '', min_participants_deadline_hours: '',
  }
}

/** A tour id from its title, as a manager would write it: "Belém by Bike" → "belem-by-bike". */
export function slugOf(title: string): string {
  return title.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64)
}


/**
 * The tour a draft describes, in the API's format, and the amounts that could not be read.
 * Everything else is sent as typed: the API checks it, and its errors name the fields.
 */
export function tourOf(draft: TourDraft, money: Money): { tour: Record<string, unknown>, problems: DraftProblem[] } {
  const problems: DraftProblem[] = []
  const amount = (field: string, text: string) => {
    const minor = money.parse(text)
    if (minor === null) problems.push({ field, message: `Write an amount in ${money.currency}, such as ${money.text(Math.round(19.5 * 10 ** money.digits))}.` })
    return minor
  }
  const units = unitsOf(draft.units, money)
  const tour: Record<string, unknown> = {
    id: draft.id.trim(),
    title: draft.title.trim(),
    summary: draft.summary.trim(),
    description: draft.description.trim(),
    duration_minutes: integerOf(draft.duration_minutes),
    meeting_point: {
      name: draft.meeting_point.name.trim(), address: draft.meeting_point.address.trim(),
      lat: decimalOf(draft.meeting_point.lat), lng: decimalOf(draft.meeting_point.lng),
    },
    languages: wordsOf(draft.languages),
    tags: itemsOf(draft.tags),
    // With units the tour's price is its first unit's (src/domain/catalog-rules.ts): the form keeps them equal.
    price: draft.units.length > 0 ? units.units![0].price : amount('price', draft.price),
    units: units.units,
    party: { min: integerOf(draft.party.min), max: integerOf(draft.party.max) },
    capacity: integerOf(draft.capacity),
    cutoff_minutes: integerOf(draft.cutoff_minutes),
    confirmation: draft.confirmation,
    addons: draft.addons.map((addon, i) => ({
      id: addon.id.trim(), name: addon.name.trim(), description: addon.description.trim(),
      price: amount(`addons.${i}.price`, addon.price), per: addon.per, max_quantity: integerOf(addon.max_quantity),
    })),
    schedule: draft.schedule.map((rule) => ({ from: rule.from, until: rule.until, weekdays: WEEKDAYS.filter((d) => rule.weekdays.includes(d)), times: wordsOf(rule.times) })),
    blackouts: wordsOf(draft.blackouts),
    min_participants: integerOf(draft.min_participants),
    min_participants_deadline_hours: integerOf(draft.min_participants_deadline_hours),
  }
  return { tour, problems: [...problems, ...units.problems] }
}

/** The body of POST /tours: the whole tour, the optional minimum to run and units left out when empty. */
export function newTourBody(tour: Record<string, unknown>): Record<string, unknown> {
  const body = { ...tour }
  if (body.units === null) delete body.units
  if (body.min_participants === null) delete body.min_participants
  if (body.min_participants_deadline_hours === null) delete body.min_participants_deadline_hours
  return body
}

/** The body of PATCH /tours/{id}: the top-level fields that differ from the tour as loaded (null removes the minimum to run, or the units). */
export function changedFields(original: Record<string, unknown>, edited: Record<string, unknown>): Record<string, unknown> {
  const changed: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(edited)) {
    if (field === 'id') continue
    if (JSON.stringify(value ?? null) !== JSON.stringify(original[field] ?? null)) changed[field] = value
  }
  return changed
}

/** The schedule part of a draft, when every rule can be expanded (dates and times well formed); null otherwise. */
export function scheduleOf(draft: TourDraft): Pick<CatalogTour, 'schedule' | 'blackouts' | 'duration_minutes'> | null {
  const duration = integerOf(draft.duration_minutes)
  const blackouts = wordsOf(draft.blackouts)
  const schedule = draft.schedule.map((rule) => ({ from: rule.from, until: rule.until, weekdays: WEEKDAYS.filter((d) => rule.weekdays.includes(d)), times: wordsOf(rule.times) }))
  const valid = schedule.every((rule) => DATE.test(rule.from) && DATE.test(rule.until) && rule.times.every((t) => TIME.test(t)))
    && blackouts.every((date) => DATE.test(date))
  if (!valid) return null
  return { schedule, blackouts, duration_minutes: typeof duration === 'number' && duration > 0 ? duration : 1 }
}

/** A promo code as its form holds it. */
export interface PromoDraft {
  code: string
  kind: 'percent' | 'fixed'
  value: string
  valid_from: string
  valid_until: string
  tour_ids: string[]
  max_uses: string
}

export function promoDraft(promo: CatalogPromoCode, money: Money): PromoDraft {
  return {
    code: promo.code, kind: promo.kind, value: promo.kind === 'fixed' ? money.text(promo.value) : String(promo.value),
    valid_from: promo.valid_from, valid_until: promo.valid_until, tour_ids: promo.tour_ids ?? [], max_uses: numberText(promo.max_uses),
  }
}

/** The promo code a draft describes; tour_ids and max_uses null when not given (every tour, no limit). */
export function promoOf(draft: PromoDraft, money: Money): { promo: Record<string, unknown>, problems: DraftProblem[] } {
  const problems: DraftProblem[] = []
  let value: number | string | null = integerOf(draft.value)
  if (draft.kind === 'fixed') {
    value = money.parse(draft.value)
    if (value === null) problems.push({ field: 'value', message: `Write an amount in ${money.currency}, such as ${money.text(5 * 10 ** money.digits)}.` })
  }
  return {
    promo: {
      code: draft.code.trim().toUpperCase(), kind: draft.kind, value, valid_from: draft.valid_from, valid_until: draft.valid_until,
      tour_ids: draft.tour_ids.length > 0 ? draft.tour_ids : null, max_uses: integerOf(draft.max_uses),
    },
    problems,
  }
}

/** The cancellation terms as their form holds them. */
export interface PolicyDraft {
  summary: string
  tiers: { key: number, hours_before_start: string, fee_percent: string }[]
  no_show_fee_percent: string
  /** The summary by each of the instance's other languages (empty: missing). */
  translations: Record<string, string>
}

export function policyDraft(policy: CatalogPolicy, otherLanguages: readonly string[]): PolicyDraft {
  return {
    summary: policy.summary,
    tiers: policy.tiers.map((tier) => ({ key: rowKey(), hours_before_start: String(tier.hours_before_start), fee_percent: String(tier.fee_percent) })),
    no_show_fee_percent: String(policy.no_show_fee_percent),
    translations: Object.fromEntries(otherLanguages.map((language) => [language, policy.translations?.[language]?.summary ?? ''])),
  }
}

/** The body of PUT /policy, which replaces the terms whole: the translations go with them, or they would be dropped. */
export function policyTermsOf(draft: PolicyDraft, policy: CatalogPolicy): Record<string, unknown> {
  const translations = translationsOf(policy.translations, Object.fromEntries(Object.entries(draft.translations).map(([language, summary]) => [language, { summary }])))
  return {
    summary: draft.summary.trim(),
    tiers: draft.tiers.map((tier) => ({ hours_before_start: integerOf(tier.hours_before_start), fee_percent: integerOf(tier.fee_percent) })),
    no_show_fee_percent: integerOf(draft.no_show_fee_percent),
    ...(translations === null ? {} : { translations }),
  }
}
