import { searchTours } from '../domain/tour-search.ts'
import { defaultLanguageOf, policyInLanguage, tourInLanguage } from '../domain/translation.ts'
import type { CatalogPolicy } from '../schemas/catalog.ts'
import type { Tour } from '../schemas/tour.ts'
import { tourRecord, type InstanceCatalog, type TourEntry } from './instance-catalog.ts'

/**
 * A version of an instance's catalog read in one of its languages (docs/languages.md): the
 * tour records with their texts translated field by field (src/domain/translation.ts), made
 * the first time a guest reads them in that language and kept with the version (or, for one
 * tour, with its entry, which a later version takes over while the tour is unchanged), and
 * search over the default's texts and the language's. In the default language every answer
 * is the version's own, as it was before translations existed.
 */

/** The tour's record in `language`. */
export function tourRecordIn(catalog: InstanceCatalog, entry: TourEntry, language: string): Tour {
  if (language === defaultLanguageOf(catalog.instance) || entry.catalog.translations?.[language] === undefined) return entry.record
  let record = entry.recordByLanguage.get(language)
  if (!record) {
    record = tourRecord(catalog.instance, tourInLanguage(entry.catalog, language))
    entry.recordByLanguage.set(language, record)
  }
  return record
}

/** The tours guests see, in list order, in `language`. */
export function toursIn(catalog: InstanceCatalog, language: string): Tour[] {
  if (language === defaultLanguageOf(catalog.instance)) return catalog.tours
  let tours = catalog.toursByLanguage.get(language)
  if (!tours) {
    tours = catalog.tours.map((tour) => tourRecordIn(catalog, catalog.tourById.get(tour.id)!, language))
    catalog.toursByLanguage.set(language, tours)
  }
  return tours
}

/** Positions in `tours` of the tours matching `q`, best first: words of the default's texts or of `language`'s. */
export function searchToursIn(catalog: InstanceCatalog, q: string, language: string): number[] {
  const translated = catalog.translationIndexes.get(language)
  return searchTours(translated ? [catalog.searchIndex, translated] : catalog.searchIndex, q)
}

/** The instance's cancellation policy with its summary in `language`. */
export function policyIn(catalog: InstanceCatalog, language: string): CatalogPolicy {
  return policyInLanguage(catalog.instance.cancellation_policy, language)
}
