import { en, type PageWords } from './words/en.ts'

/** The languages the booking page's own words are written in; the first is the one it falls back to. */
export const PAGE_LANGUAGES = ['en', 'pt', 'es', 'fr', 'de'] as const
export type PageLanguage = (typeof PAGE_LANGUAGES)[number]

/**
 * One catalogue per language, each typed by the English one (web/src/words/en.ts). English is
 * in the page's script; each other language is a chunk of the bundle fetched when it is
 * chosen (src/web/page-bundle.ts), so five languages do not weigh five times on every guest.
 */
const CATALOGUES: Record<PageLanguage, () => Promise<PageWords>> = {
  en: async () => en,
  pt: async () => (await import('./words/pt.ts')).pt,
  es: async () => (await import('./words/es.ts')).es,
  fr: async () => (await import('./words/fr.ts')).fr,
  de: async () => (await import('./words/de.ts')).de,
}

/** A language's words; English when its chunk cannot be fetched (offline, a deploy replaced it). */
export async function loadWords(language: PageLanguage): Promise<{ language: PageLanguage, words: PageWords }> {
  try {
    return { language, words: await CATALOGUES[language]() }
  } catch {
    return { language: 'en', words: en }
  }
}

const primary = (tag: string) => tag.toLowerCase().split('-')[0]

function isPageLanguage(tag: string | null): tag is PageLanguage {
  return (PAGE_LANGUAGES as readonly string[]).includes(tag ?? '')
}

/**
 * The page's language: the one the guest chose with the switch, else the first of the
 * browser's languages the page speaks (`pt-PT` speaks `pt`), else English.
 */
export function chooseLanguage(stored: string | null, browser: readonly string[]): PageLanguage {
  if (isPageLanguage(stored)) return stored
  return browser.map(primary).find(isPageLanguage) ?? PAGE_LANGUAGES[0]
}

/**
 * The language a booking's manage link opens the page in, by the rule its emails follow
 * (src/notify/email-language.ts): the booking's language when the instance reads in it, else
 * the instance's default (`instanceLanguages[0]`), whichever first has the page's words
 * (`pt-BR` reads `pt`'s); null when neither has them, and the page keeps its own choice.
 */
export function bookingLanguage(booked: string, instanceLanguages: readonly string[]): PageLanguage | null {
  const wanted = instanceLanguages.find((tag) => tag.toLowerCase() === booked.toLowerCase())
  return [wanted, instanceLanguages[0]].map((tag) => (tag === undefined ? null : primary(tag))).find(isPageLanguage) ?? null
}

/**
 * The locale dates, times and money are written in: the browser's own tag for that language
 * when it has one (a `pt-PT` browser writes "181,50 €", `pt` alone would be Brazilian), else
 * the language itself (a `pt-PT` guest who switched to English reads English formats).
 */
export function localeFor(language: PageLanguage, browser: readonly string[]): string {
  return browser.find((tag) => primary(tag) === language) ?? language
}

/** A language's name in itself, as the switch offers it: "Português", "Deutsch". */
export function languageName(language: PageLanguage): string {
  const name = new Intl.DisplayNames([language], { type: 'language' }).of(language) ?? language
  return name.charAt(0).toLocaleUpperCase(language) + name.slice(1)
}
