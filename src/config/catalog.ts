import { readFileSync } from 'node:fs'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { Temporal } from 'temporal-polyfill'
import { CatalogFile, type CatalogInstance } from '../schemas/catalog.ts'
import { DECOY_FIELD_NAMES } from '../schemas/decoy-fields.ts'
import { ConfigError } from './config-error.ts'

export const DEFAULT_HORIZON_DAYS = 365
export const DEFAULT_HOLD_MINUTES = 15

/** One tour operator served under /api/<prefix>. `ref` is its tenant id in every table. */
export interface Instance extends Omit<CatalogInstance, 'horizon_days' | 'hold_minutes' | 'decoys' | 'allowed_origins'> {
  horizonDays: number
  holdSeconds: number
  decoys: readonly string[]
  allowedOrigins: readonly string[]
}

const ajv = new Ajv({ allErrors: false, strict: false })
addFormats.default(ajv)
const validateCatalog = ajv.compile(CatalogFile)

/** A named zone spelt as the tz database does; fixed offsets like "+01:00" never follow DST and are refused. */
function isIanaTimeZone(name: string): boolean {
  try {
    return Temporal.Now.instant().toZonedDateTimeISO(name).timeZoneId === name && /^[A-Za-z]/.test(name)
  } catch {
    return false
  }
}

function fail(source: string, where: string, message: string): never {
  throw new ConfigError(`TOURDESK_CONFIG ${source}: ${where} ${message}`)
}

function checkInstance(source: string, index: number, raw: CatalogInstance): void {
  const at = `instances[${index}]`
  if (!isIanaTimeZone(raw.timezone)) fail(source, `${at}.timezone`, `"${raw.timezone}" is not an IANA time zone name (e.g. Europe/Lisbon)`)
  for (const decoy of raw.decoys ?? []) {
    if (!(DECOY_FIELD_NAMES as readonly string[]).includes(decoy)) {
      fail(source, `${at}.decoys`, `"${decoy}" is not one of ${DECOY_FIELD_NAMES.join(', ')}`)
    }
  }
  const tourIds = new Set<string>()
  raw.tours.forEach((tour, t) => {
    const tourAt = `${at}.tours[${t}]`
    if (tourIds.has(tour.id)) fail(source, `${tourAt}.id`, `"${tour.id}" is used twice`)
    tourIds.add(tour.id)
    if (tour.party.min > tour.party.max) fail(source, `${tourAt}.party`, 'min is above max')
    if (tour.party.max > tour.capacity) fail(source, `${tourAt}.party.max`, 'is above capacity')
    tour.schedule.forEach((rule, r) => {
      if (rule.from > rule.until) fail(source, `${tourAt}.schedule[${r}]`, 'from is after until')
    })
    const addonIds = new Set(tour.addons.map((a) => a.id))
    if (addonIds.size !== tour.addons.length) fail(source, `${tourAt}.addons`, 'has a duplicate id')
  })
  raw.promo_codes.forEach((promo, p) => {
    if (promo.valid_from > promo.valid_until) fail(source, `${at}.promo_codes[${p}]`, 'valid_from is after valid_until')
    if (promo.kind === 'percent' && promo.value > 100) fail(source, `${at}.promo_codes[${p}].value`, 'a percentage is at most 100')
    for (const id of promo.tour_ids ?? []) {
      if (!tourIds.has(id)) fail(source, `${at}.promo_codes[${p}].tour_ids`, `names unknown tour "${id}"`)
    }
  })
}

export function parseCatalog(text: string, source: string, holdSecondsOverride: number | null): Instance[] {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (err) {
    throw new ConfigError(`TOURDESK_CONFIG ${source} is not valid JSON: ${(err as Error).message}`)
  }
  if (!validateCatalog(data)) {
    const first = validateCatalog.errors![0]
    const unknown = first.params.additionalProperty as string | undefined
    if (unknown) fail(source, `${first.instancePath}/${unknown}`, 'is not a known field')
    fail(source, first.instancePath || '(top level)', first.message ?? 'is invalid')
  }
  const file = data as { instances: CatalogInstance[] }
  const prefixes = new Set<string>()
  const refs = new Set<string>()
  return file.instances.map((raw, i) => {
    checkInstance(source, i, raw)
    if (prefixes.has(raw.prefix)) fail(source, `instances[${i}].prefix`, `"${raw.prefix}" is used twice`)
    if (refs.has(raw.ref)) fail(source, `instances[${i}].ref`, `"${raw.ref}" is used twice`)
    prefixes.add(raw.prefix)
    refs.add(raw.ref)
    const { horizon_days, hold_minutes, decoys, allowed_origins, ...rest } = raw
    return {
      ...rest,
      horizonDays: horizon_days ?? DEFAULT_HORIZON_DAYS,
      holdSeconds: holdSecondsOverride ?? (hold_minutes ?? DEFAULT_HOLD_MINUTES) * 60,
      decoys: decoys ?? [...DECOY_FIELD_NAMES],
      allowedOrigins: allowed_origins ?? [],
    }
  })
}

export function loadCatalog(path: string, holdSecondsOverride: number | null): Instance[] {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    throw new ConfigError(`TOURDESK_CONFIG cannot be read: ${path} (${(err as NodeJS.ErrnoException).code})`)
  }
  return parseCatalog(text, path, holdSecondsOverride)
}
