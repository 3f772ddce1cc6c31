import type { CatalogAddon, CatalogInstance, CatalogPolicy, CatalogTour, CatalogUnit } from '../schemas/catalog.ts'
import { DEFAULT_LANGUAGES } from '../schemas/language.ts'
import { IMPLICIT_UNIT_ID, unitsOf } from './units.ts'

/**
 * Catalog texts in the guest's language (docs/languages.md). Every text is written in the
 * instance's default language, the first of its `languages`; `translations.<language>` may
 * give any of them in another. A text the translation leaves out is read in the default,
 * field by field: a Portuguese tour with a translated title and an untranslated description
 * reads its title in Portuguese and its description in the default language.
 */

/** The instance's languages, its default first: `["en"]` when the catalog lists none. */
export function languagesOf(instance: Pick<CatalogInstance, 'languages'>): readonly string[] {
  return instance.languages ?? DEFAULT_LANGUAGES
}

export function defaultLanguageOf(instance: Pick<CatalogInstance, 'languages'>): string {
  return languagesOf(instance)[0]
}

/** A name and description, as units and add-ons have. */
export interface NameTexts {
  name: string
  description: string
}

/** Every translatable text of a tour, in one language. */
export interface TourTexts {
  title: string
  summary: string
  description: string
  meeting_point: { name: string }
  /** By unit id, the implicit "person" of a tour without units included. */
  units: Record<string, NameTexts>
  /** By add-on id. */
  addons: Record<string, NameTexts>
}

/** The tour's texts in `language`, each from its translation when it has one, else the default's. */
export function tourTexts(tour: CatalogTour, language: string): TourTexts {
  const translation = tour.translations?.[language]
  const named = (base: NameTexts, given: { name?: string, description?: string } | undefined): NameTexts => ({
    name: given?.name ?? base.name, description: given?.description ?? base.description,
  })
  return {
    title: translation?.title ?? tour.title,
    summary: translation?.summary ?? tour.summary,
    description: translation?.description ?? tour.description,
    meeting_point: { name: translation?.meeting_point?.name ?? tour.meeting_point.name },
    units: Object.fromEntries(unitsOf(tour).map((unit) => [unit.id, named(unit, translation?.units?.[unit.id])])),
    addons: Object.fromEntries(tour.addons.map((addon) => [addon.id, named(addon, translation?.addons?.[addon.id])])),
  }
}

/**
 * The tour with its texts in `language` and without translations: what the guest's tour
 * record is made from. The tour itself when it has no translation in that language (the
 * default's, or one not translated). A tour without units that translates its implicit
 * "person" gets it written out, so that the unit's name can be the translated one.
 */
export function tourInLanguage(tour: CatalogTour, language: string): CatalogTour {
  if (tour.translations?.[language] === undefined) return tour
  const texts = tourTexts(tour, language)
  const { translations: _translations, ...fields } = tour
  const units: CatalogUnit[] | undefined = tour.units !== undefined || tour.translations[language].units?.[IMPLICIT_UNIT_ID] === undefined
    ? tour.units
    : unitsOf(tour).map(({ id, type, price }) => ({ id, type, price, name: '' }))
  return {
    ...fields,
    title: texts.title,
    summary: texts.summary,
    description: texts.description,
    meeting_point: { ...tour.meeting_point, name: texts.meeting_point.name },
    ...(units === undefined ? {} : { units: units.map((unit) => ({ ...unit, ...texts.units[unit.id] })) }),
    addons: tour.addons.map((addon): CatalogAddon => ({ ...addon, ...texts.addons[addon.id] })),
  }
}

/** The policy with its summary in `language` (the default's when it has no translation in it), without translations. */
export function policyInLanguage(policy: CatalogPolicy, language: string): CatalogPolicy {
  const { translations, ...terms } = policy
  return { ...terms, summary: translations?.[language]?.summary ?? policy.summary }
}

/**
 * A booking line's unit or add-on name in `language`: the tour's translation of it, else the
 * name it was booked under (the default's, as it was then), so a booking's emails keep the
 * words it was made with where no translation gives others.
 */
export function bookedName(tour: CatalogTour | undefined, language: string, kind: 'units' | 'addons', id: string, booked: string): string {
  return tour?.translations?.[language]?.[kind]?.[id]?.name ?? booked
}
