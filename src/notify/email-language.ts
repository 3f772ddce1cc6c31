import type { CatalogInstance } from '../schemas/catalog.ts'
import { defaultLanguageOf, languagesOf } from '../domain/translation.ts'
import { de } from './email-texts/de.ts'
import { en, type EmailTexts } from './email-texts/en.ts'
import { es } from './email-texts/es.ts'
import { fr } from './email-texts/fr.ts'
import { pt } from './email-texts/pt.ts'

/** The languages the emails are written in, one catalogue each (docs/languages.md, "Emails and calendar files"). */
export const EMAIL_TEXTS: Readonly<Record<string, EmailTexts>> = { en, pt, es, fr, de }

/**
 * The language one email is written in: `tag` picks the catalog's texts (tour titles, meeting
 * points, unit and add-on names, src/domain/translation.ts), `texts` the message's own words,
 * `locale` how Intl writes its dates, times and money.
 */
export interface EmailLanguage {
  tag: string
  texts: EmailTexts
  locale: string
  /** The instance's default language: the catalog's own fields are in it, with no translation to look up. */
  isDefault: boolean
}

/** The catalogue of a tag, by its primary language when none has the tag itself (pt-BR reads pt). */
function textsOf(tag: string): EmailTexts | undefined {
  const lower = tag.toLowerCase()
  return EMAIL_TEXTS[lower] ?? EMAIL_TEXTS[lower.split('-')[0]]
}

/** A tag naming a region (pt-BR, en-US) is its own locale; a bare one takes its catalogue's (pt is written for Lisbon: pt-PT). */
const localeOf = (tag: string, texts: EmailTexts) => (tag.includes('-') ? tag : texts.locale)

const resolved = new Map<string, EmailLanguage>()

/**
 * What a guest's email about a booking is written in: the booking's language when the instance
 * has it and there is a catalogue of it, else the instance's default, else (a default no
 * catalogue speaks) English words around the default's catalog texts, as before languages.
 */
export function guestEmailLanguage(instance: Pick<CatalogInstance, 'languages'>, bookingLanguage: string | null | undefined): EmailLanguage {
  const languages = languagesOf(instance)
  const key = `${languages.join(',')}|${bookingLanguage ?? ''}`
  let language = resolved.get(key)
  if (!language) {
    const defaultTag = languages[0]
    const wanted = bookingLanguage ? languages.find((tag) => tag.toLowerCase() === bookingLanguage.toLowerCase()) : undefined
    const tag = [wanted, defaultTag].find((candidate) => candidate !== undefined && textsOf(candidate) !== undefined)
    const texts = tag === undefined ? undefined : textsOf(tag)
    language = tag === undefined || texts === undefined
      ? { tag: defaultTag, texts: en, locale: en.locale, isDefault: true }
      : { tag, texts, locale: localeOf(tag, texts), isDefault: tag === defaultTag }
    resolved.set(key, language)
  }
  return language
}

/**
 * What the operator's emails are written in: English words, as the back office's, around the
 * catalog's own texts (the default language), with dates and money as before languages.
 */
export function operatorEmailLanguage(instance: Pick<CatalogInstance, 'languages'>): EmailLanguage {
  return { tag: defaultLanguageOf(instance), texts: en, locale: en.locale, isDefault: true }
}

// Making an Intl formatter costs far more than using one: one per locale and zone, and per locale and currency, kept.
const dateFormats = new Map<string, Intl.DateTimeFormat>()
const zoneFormats = new Map<string, Intl.DateTimeFormat>()
const moneyFormats = new Map<string, Intl.NumberFormat>()
const percentFormats = new Map<string, Intl.NumberFormat>()
const languageNames = new Map<string, Intl.DisplayNames>()

function formatOf(formats: Map<string, Intl.DateTimeFormat>, locale: string, timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone}`
  let format = formats.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { timeZone, ...options })
    formats.set(key, format)
  }
  return format
}

/**
 * "Lisbon time" in English, "Hora da Europa Ocidental" in Portuguese: the operator's zone as
 * the language names it at `at` (Intl's name follows the zone's history: Lisbon kept Central
 * European time in the 1970s).
 */
export function zoneName(timeZone: string, language: EmailLanguage, at: Date): string {
  const city = timeZone.includes('/') && !timeZone.startsWith('Etc/') ? timeZone.slice(timeZone.lastIndexOf('/') + 1).replaceAll('_', ' ') : null
  const generic = () => formatOf(zoneFormats, language.locale, timeZone, { timeZoneName: 'longGeneric' })
    .formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? timeZone
  return language.texts.zone({ city, generic }) ?? timeZone
}

/** "Fri, 12 Jun 2026, 19:30 (Lisbon time)": a stored instant in the operator's zone, the zone named, in the email's language. */
export function localStart(stored: string, timeZone: string, language: EmailLanguage): string {
  const at = new Date(stored)
  const format = formatOf(dateFormats, language.locale, timeZone,
    { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
  return `${format.format(at)} (${zoneName(timeZone, language, at)})`
}

/** An amount in minor units ("€7.00", "7,00 €"). */
export function money(amount: number, currency: string, language: EmailLanguage): string {
  const key = `${language.locale}|${currency}`
  let format = moneyFormats.get(key)
  if (!format) {
    format = new Intl.NumberFormat(language.locale, { style: 'currency', currency })
    moneyFormats.set(key, format)
  }
  return format.format(amount / 100)
}

/** A whole percentage ("50%", "50 %"). */
export function percent(value: number, language: EmailLanguage): string {
  let format = percentFormats.get(language.locale)
  if (!format) {
    format = new Intl.NumberFormat(language.locale, { style: 'percent', maximumFractionDigits: 2 })
    percentFormats.set(language.locale, format)
  }
  return format.format(value / 100)
}

/** A language's name in the email's language: "Portuguese", "português". */
export function languageName(tag: string, language: EmailLanguage): string {
  let names = languageNames.get(language.locale)
  if (!names) {
    names = new Intl.DisplayNames(language.locale, { type: 'language', fallback: 'code' })
    languageNames.set(language.locale, names)
  }
  return names.of(tag) ?? tag
}

/** Whether two languages write an email's facts alike: the same words, locale and catalog texts. */
export const sameWriting = (a: EmailLanguage, b: EmailLanguage) => a.texts === b.texts && a.locale === b.locale && a.tag === b.tag
