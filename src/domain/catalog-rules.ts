import { Temporal } from 'temporal-polyfill'
import type { CatalogInstance } from '../schemas/catalog.ts'
import { DECOY_FIELD_NAMES } from '../schemas/decoy-fields.ts'

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
  const tourIds = new Set<string>()
  instance.tours.forEach((tour, t) => {
    const at = `tours[${t}]`
    if (tourIds.has(tour.id)) issue(`${at}.id`, `"${tour.id}" is used twice`)
    tourIds.add(tour.id)
    if (tour.party.min > tour.party.max) issue(`${at}.party.min`, 'is above party.max')
    if (tour.party.max > tour.capacity) issue(`${at}.party.max`, 'is above capacity')
    if (tour.min_participants !== undefined && tour.min_participants > tour.capacity) issue(`${at}.min_participants`, 'is above capacity')
    if (tour.min_participants_deadline_hours !== undefined && tour.min_participants === undefined) {
      issue(`${at}.min_participants_deadline_hours`, 'is set without min_participants (remove it too, or set min_participants)')
    }
    tour.schedule.forEach((rule, r) => {
      if (rule.from > rule.until) issue(`${at}.schedule[${r}].from`, 'is after until')
    })
    const addonIds = new Set<string>()
    tour.addons.forEach((addon, a) => {
      if (addonIds.has(addon.id)) issue(`${at}.addons[${a}].id`, `"${addon.id}" is used twice`)
      addonIds.add(addon.id)
    })
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
