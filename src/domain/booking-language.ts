import { ApiError } from '../errors/api-error.ts'
import type { CatalogInstance, CatalogTour } from '../schemas/catalog.ts'
import type { BookingRecord } from './booking.ts'
import { defaultLanguageOf } from './translation.ts'

/**
 * The language a booking is guided in (docs/languages.md): one of its tour's `languages`,
 * which are the languages the tour is guided in, not the instance's reading languages. Guest
 * emails and the manage page are written in it when the instance reads in it.
 */

/**
 * The language a new or changed booking of `tour` is guided in: `asked` when the tour offers
 * it (tags compare without case; the tour's spelling is kept), else 422 language_not_offered
 * naming `language`; without `asked`, `preferred` (a guest's negotiated reading language,
 * src/http/language.ts) when the tour offers it, else the tour's first language.
 */
export function guidedLanguage(tour: Pick<CatalogTour, 'title' | 'languages'>, asked?: string, preferred?: string | null): string {
  const offered = (tag: string) => tour.languages.find((language) => language.toLowerCase() === tag.toLowerCase())
  if (asked !== undefined) {
    const found = offered(asked)
    if (found !== undefined) return found
    const list = tour.languages.join(', ')
    throw new ApiError('language_not_offered', `${tour.title} is guided in ${list}, not in ${asked}`, {
      errors: [{ field: 'language', message: `must be one of the tour's languages: ${list}` }],
    })
  }
  return (preferred ? offered(preferred) : undefined) ?? tour.languages[0]
}

/**
 * The language a stored booking is guided in: its own, or for a booking made before bookings
 * kept one (migration 028), its tour's first language, or the instance's default language for
 * a tour no longer in the catalog.
 */
export function languageOfBooking(row: Pick<BookingRecord, 'language'>, tour: Pick<CatalogTour, 'languages'> | undefined,
  instance: Pick<CatalogInstance, 'languages'>): string {
  return row.language ?? tour?.languages[0] ?? defaultLanguageOf(instance)
}
