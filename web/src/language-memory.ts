import type { PageLanguage } from './page-language.ts'

/** Where the guest's choice of the page's language switch is kept, for every instance of this origin. */
const STORAGE_KEY = 'tourdesk.page-language'

/** The language the guest chose on an earlier visit, if any (and if storage can be read). */
export function storedLanguage(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY)
  } catch {
    return null
  }
}

export function storeLanguage(language: PageLanguage): void {
  try {
    localStorage.setItem(STORAGE_KEY, language)
  } catch {
    // storage blocked: the choice lasts until the page is left
  }
}
