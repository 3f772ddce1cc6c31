import { Temporal } from 'temporal-polyfill'
import type { CatalogInstance, CatalogTour, CatalogUnit } from '../schemas/catalog.ts'
import { DECOY_FIELD_NAMES } from '../schemas/decoy-fields.ts'
import { languagesOf } from './translation.ts'
import { unitsOf } from './units.ts'

/** A catalog rule an instance breaks, named by its path in the catalog file (`tours[2].party.max`). */
export interface CatalogIssue {
  field: string
  message: string
}

/** A named zone spelt as the tz database does; fixed offsets like "+01:00" never follow DST and are refused. */
export function isIanaTimeZone(name: string): boolean {
  try {
    return Temporal.Now.instant().toZonedDateTimeISO(name).timeZoneId === name && /^[A-Za-z]/.test(name)
  } catch {
    return false
  }
}

/**
 * What an instance checked in part (an edit of one tour, a promo code, the policy or the
 * settings, which carries only the tours it edits) has besides: which of the tours its promo
 * codes name it has, and whether it offers one.
 */
export interface OtherTours {
  ids: ReadonlySet<string>
  anyOffered: boolean
  /** The languages the other tours have translations in (read only when the edit changes the instance's languages). */
  translatedLanguages?: ReadonlySet<string>
}

const NO_OTHER_TOURS: OtherTours = { ids: new Set(), anyOffered: false }

/**
 * The rules a schema-valid instance must also keep (docs/catalog.md, "Validation"): the one
 * place they are written, shared by the file loader, `tourdesk catalog import` and the
 * operator API. Fields are named relative to the instance (`tours[0].party`).
 */
export function catalogIssues(instance: CatalogInstance, others: OtherTours = NO_OTHER_TOURS): CatalogIssue[] {
  const issues: CatalogIssue[] = []
  const issue = (field: string, message: string) => issues.push({ field, message })
  if (!isIanaTimeZone(instance.timezone)) issue('timezone', `"${instance.timezone}" is not an IANA time zone name (e.g. Europe/Lisbon)`)
  for (const decoy of instance.decoys ?? []) {
    if (!(DECOY_FIELD_NAMES as readonly string[]).includes(decoy)) issue('decoys', `"${decoy}" is not one of ${DECOY_FIELD_NAMES.join(', ')}`)
  }
  issues.push(...languageIssues(instance, others))
  const tourIds = new Set<string>()
  instance.tours.forEach((tour, t) => {
    const at = `tours[${t}]`
    if (tourIds.has(tour.id)) issue(`${at}.id`, `"${tour.id}" is used twice`)
    tourIds.add(tour.id)
    if (tour.party.min > tour.party.max) issue(`${at}.party.min`, 'is above party.max')
    // A party counts people and capacity seats (src/domain/units.ts): only where every unit seats each person it counts can a party above the capacity never fit.
    if (tour.party.max > tour.capacity && unitsOf(tour).every((unit) => unit.seats >= unit.pax)) issue(`${at}.party.max`, 'is above capacity')
    if (tour.min_participants !== undefined && tour.min_participants > tour.capacity) issue(`${at}.min_participants`, 'is above capacity')
    if (tour.min_participants_deadline_hours !== undefined && tour.min_participants === undefined) {
      issue(`${at}.min_participants_deadline_hours`, 'is set without min_participants (remove it too, or set min_participants)')
    }
    tour.schedule.forEach((rule, r) => {
      if (rule.from > rule.until) issue(`${at}.schedule[${r}].from`, 'is after until')
    })
    if (tour.units !== undefined) issues.push(...unitIssues(tour, tour.units, at))
    const addonIds = new Set<string>()
    tour.addons.forEach((addon, a) => {
      if (addonIds.has(addon.id)) issue(`${at}.addons[${a}].id`, `"${addon.id}" is used twice`)
      addonIds.add(addon.id)
    })
    if (tour.translations !== undefined) issues.push(...tourTranslationIssues(instance, tour, at))
  })
  if (!others.anyOffered && !instance.tours.some((tour) => !tour.archived)) issue('tours', 'at least one tour must not be archived')
  const codes = new Set<string>()
  instance.promo_codes.forEach((promo, p) => {
    const at = `promo_codes[${p}]`
    if (codes.has(promo.code)) issue(`${at}.code`, `"${promo.code}" is used twice`)
    codes.add(promo.code)
    if (promo.valid_from > promo.valid_until) issue(`${at}.valid_from`, 'is after valid_until')
    if (promo.kind === 'percent' && promo.value > 100) issue(`${at}.value`, 'a percentage is at most 100')
    for (const id of promo.tour_ids ?? []) {
      if (!tourIds.has(id) && !others.ids.has(id)) issue(`${at}.tour_ids`, `names unknown tour "${id}"`)
    }
  })
  return issues
}

/** The rules of a tour's units (docs/units.md): ids unique, accompanied_by naming others of the tour, min ≤ max, a default first unit. */
function unitIssues(tour: CatalogTour, units: readonly CatalogUnit[], at: string): CatalogIssue[] {
  const issues: CatalogIssue[] = []
  const ids = new Set(units.map((unit) => unit.id))
  const seen = new Set<string>()
  units.forEach((unit, u) => {
    const here = `${at}.units[${u}]`
    if (seen.has(unit.id)) issues.push({ field: `${here}.id`, message: `"${unit.id}" is used twice` })
    seen.add(unit.id)
    if (unit.min_age !== undefined && unit.max_age !== undefined && unit.min_age > unit.max_age) issues.push({ field: `${here}.min_age`, message: 'is above max_age' })
    if (unit.max_quantity !== undefined && (unit.min_quantity ?? 1) > unit.max_quantity) issues.push({ field: `${here}.min_quantity`, message: 'is above max_quantity' })
    for (const other of unit.accompanied_by ?? []) {
      if (other === unit.id) issues.push({ field: `${here}.accompanied_by`, message: 'names the unit itself' })
      else if (!ids.has(other)) issues.push({ field: `${here}.accompanied_by`, message: `names unknown unit "${other}"` })
    }
  })
  const [first] = units
  // A party given without units is that many of the first unit (src/domain/units.ts): it must be one person on one seat, bookable alone.
  if ((first.seats ?? 1) !== 1) issues.push({ field: `${at}.units[0].seats`, message: 'must be 1: the first unit is the default one, one person on one seat' })
  if ((first.pax ?? 1) !== 1) issues.push({ field: `${at}.units[0].pax`, message: 'must be 1: the first unit is the default one, one person on one seat' })
  if ((first.accompanied_by ?? []).length > 0) issues.push({ field: `${at}.units[0].accompanied_by`, message: 'must be empty: the first unit is booked on its own' })
  if (first.price !== tour.price) issues.push({ field: `${at}.price`, message: `must be the first unit's price, ${first.price}: it is the price guests see first` })
  return issues
}

/**
 * The instance's languages are distinct in any case; translations are only in its languages
 * other than the default, whose texts are the fields themselves (docs/languages.md).
 */
function languageIssues(instance: CatalogInstance, others: OtherTours): CatalogIssue[] {
  const issues: CatalogIssue[] = []
  const seen = new Set<string>()
  for (const language of instance.languages ?? []) {
    if (seen.has(language.toLowerCase())) issues.push({ field: 'languages', message: `lists "${language}" twice (tags are compared without case)` })
    seen.add(language.toLowerCase())
  }
  for (const language of Object.keys(instance.cancellation_policy.translations ?? {})) {
    const wrong = translationLanguageIssue(instance, language)
    if (wrong) issues.push({ field: `cancellation_policy.translations.${language}`, message: wrong })
  }
  for (const language of others.translatedLanguages ?? []) {
    if (translationLanguageIssue(instance, language)) {
      issues.push({ field: 'languages', message: `must list "${language}" after the default: tours have translations in it (remove those first)` })
    }
  }
  return issues
}

/** Why translations cannot be in `language` here, or null when they can. */
function translationLanguageIssue(instance: CatalogInstance, language: string): string | null {
  const [defaultLanguage, ...others] = languagesOf(instance)
  if (language === defaultLanguage) return `is the default language ("${defaultLanguage}"), whose texts are the fields themselves`
  if (!others.includes(language)) return `is not one of the instance's languages (${languagesOf(instance).join(', ')}): add it to languages first`
  return null
}

/**
 * A tour's translations: in the instance's other languages. Translations of a unit or add-on
 * the tour does not have (any more) are kept and never read (src/domain/translation.ts reads
 * by the tour's own ids): replacing the implicit person unit with units, or removing an add-on,
 * must not make the operator edit every language first, and adding it back finds its words.
 */
function tourTranslationIssues(instance: CatalogInstance, tour: CatalogTour, at: string): CatalogIssue[] {
  const issues: CatalogIssue[] = []
  for (const language of Object.keys(tour.translations ?? {})) {
    const wrong = translationLanguageIssue(instance, language)
    if (wrong) issues.push({ field: `${at}.translations.${language}`, message: wrong })
  }
  return issues
}

/** The rules across the instances of one file: each prefix and ref names one instance. */
export function catalogFileIssues(instances: readonly CatalogInstance[]): CatalogIssue[] {
  const issues: CatalogIssue[] = []
  const prefixes = new Set<string>()
  const refs = new Set<string>()
  instances.forEach((instance, i) => {
    for (const issue of catalogIssues(instance)) issues.push({ field: `instances[${i}].${issue.field}`, message: issue.message })
    if (prefixes.has(instance.prefix)) issues.push({ field: `instances[${i}].prefix`, message: `"${instance.prefix}" is used twice` })
    if (refs.has(instance.ref)) issues.push({ field: `instances[${i}].ref`, message: `"${instance.ref}" is used twice` })
    prefixes.add(instance.prefix)
    refs.add(instance.ref)
  })
  return issues
}
