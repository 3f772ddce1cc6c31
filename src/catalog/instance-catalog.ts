import type { Instance } from './catalog-file.ts'
import { jsonEqual } from '../domain/json-equal.ts'
import { buildSearchIndex, reviseSearchIndex, translatedSearchFields, type SearchRevision, type TourSearchIndex } from '../domain/tour-search.ts'
import { languagesOf } from '../domain/translation.ts'
import { DEFAULT_RATE_LIMITS, type RateLimitPolicies } from '../domain/token-bucket.ts'
import { unitsOf } from '../domain/units.ts'
import type { CatalogTour } from '../schemas/catalog.ts'
import type { Tour } from '../schemas/tour.ts'

/**
 * One version of an instance's catalog with what every request needs precomputed: tour
 * records and the search index. Never changed once built: an edit builds the next version,
 * so a request sees one version throughout (a hold never mixes two prices), and every cache
 * built from a catalog is kept per version (keyed by this object, or by `version`).
 */
export interface InstanceCatalog {
  instance: Instance
  /** The instance's catalog version (catalog_instances.catalog_version). */
  version: number
  /** The tours guests see, in list order; archived tours are left out. */
  tours: Tour[]
  /** Every tour, archived ones included: their bookings and departures stand. */
  tourById: Map<string, TourEntry>
  /**
   * Where each tour of `instance.tours` stands in the database's list (catalog_tours.position):
   * a reload puts the tours an edit wrote among the others by it (mergeWrittenTours).
   */
  tourPositions: readonly number[]
  /** Over every tour; it lists `tours`: search answers are positions in it. */
  searchIndex: TourSearchIndex
  /**
   * By each of the instance's languages but the default, an index of the tours' translations
   * into it, in the same slots and positions as `searchIndex`, searched beside it
   * (src/catalog/translated-catalog.ts).
   */
  translationIndexes: ReadonlyMap<string, TourSearchIndex>
  /** `tours` in another language, made the first time a guest reads them in it (src/catalog/translated-catalog.ts). */
  toursByLanguage: Map<string, Tour[]>
  rateLimits: RateLimitPolicies
}

export function tourRecord(instance: Instance, tour: CatalogTour): Tour {
  const money = (amount: number) => ({ amount, currency: instance.currency })
  return {
    id: tour.id,
    title: tour.title,
    summary: tour.summary,
    description: tour.description,
    duration_minutes: tour.duration_minutes,
    meeting_point: tour.meeting_point,
    languages: tour.languages,
    tags: tour.tags,
    price: money(tour.price),
    units: unitsOf(tour).map((unit) => ({ ...unit, price: money(unit.price) })),
    party: tour.party,
    capacity: tour.capacity,
    cutoff_minutes: tour.cutoff_minutes,
    confirmation: tour.confirmation,
    addons: tour.addons.map((a) => ({ id: a.id, name: a.name, description: a.description, price: money(a.price), per: a.per, max_quantity: a.max_quantity })),
    policy_id: instance.cancellation_policy.id,
  }
}

export interface TourEntry {
  catalog: CatalogTour
  record: Tour
  archived: boolean
  /** The tour's slot in the search index, kept from version to version. */
  searchSlot: number
  /** `record` in other languages, made the first time a guest reads it in one; kept with the entry, which is kept only while the tour is unchanged. */
  recordByLanguage: Map<string, Tour>
}

const searchedFieldsEqual = (a: CatalogTour, b: CatalogTour) => a === b || (a.title === b.title && a.summary === b.summary
  && jsonEqual(a.tags, b.tags) && jsonEqual(a.meeting_point, b.meeting_point) && jsonEqual(a.translations ?? null, b.translations ?? null))

const sameSlots = (a: Int32Array, b: Int32Array) => a.length === b.length && a.every((position, slot) => position === b[slot])

/**
 * Builds a version of the instance's catalog. Given the version before it, every tour that
 * the edit left as it was is taken over whole, the same objects: an edit of a large catalog
 * then costs a node the tours it changed, not the whole catalog again, and what is kept per
 * tour object (a day's expanded schedule) stays valid. The search index is revised for the
 * tours whose searched fields changed, or taken over when none did and the list kept its
 * order. No tour record is taken over from a version of another currency or policy, which
 * every tour record names. `tourPositions` defaults to the tours' indices.
 */
export function buildInstanceCatalog(instance: Instance, version = 0, previous?: InstanceCatalog, tourPositions?: readonly number[]): InstanceCatalog {
  const sameRecords = previous !== undefined && previous.instance.currency === instance.currency
    && previous.instance.cancellation_policy.id === instance.cancellation_policy.id
  const tourById = new Map<string, TourEntry>()
  const revisions: SearchRevision[] = []
  let slots = previous ? previous.searchIndex.positions.length : instance.tours.length
  const tours = instance.tours.map((tour, index) => {
    const kept = previous?.tourById.get(tour.id)
    let entry: TourEntry
    if (!kept) {
      const searchSlot = previous ? slots++ : index
      if (previous) revisions.push({ slot: searchSlot, before: null, after: tour })
      entry = { catalog: tour, record: tourRecord(instance, tour), archived: tour.archived === true, searchSlot, recordByLanguage: new Map() }
    } else if (sameRecords && jsonEqual(kept.catalog, tour)) {
      entry = kept
    } else {
      const catalog = jsonEqual(kept.catalog, tour) ? kept.catalog : tour
      if (!searchedFieldsEqual(kept.catalog, catalog)) revisions.push({ slot: kept.searchSlot, before: kept.catalog, after: catalog })
      entry = { catalog, record: tourRecord(instance, catalog), archived: catalog.archived === true, searchSlot: kept.searchSlot, recordByLanguage: new Map() }
    }
    tourById.set(tour.id, entry)
    return entry.catalog
  })
  for (const [id, entry] of previous?.tourById ?? []) {
    if (!tourById.has(id)) revisions.push({ slot: entry.searchSlot, before: entry.catalog, after: null })
  }
  const current = { ...instance, tours }
  const offered = tours.filter((t) => !t.archived)
  const positions = new Int32Array(slots).fill(-1)
  offered.forEach((tour, position) => {
    positions[tourById.get(tour.id)!.searchSlot] = position
  })
  const searchIndex = !previous ? buildSearchIndex(tours, positions)
    : revisions.length === 0 && sameSlots(positions, previous.searchIndex.positions) ? previous.searchIndex
      : reviseSearchIndex(previous.searchIndex, revisions, positions)
  return {
    instance: current,
    version,
    tours: offered.map((t) => tourById.get(t.id)!.record),
    tourById,
    tourPositions: tourPositions ?? tours.map((_, index) => index),
    searchIndex,
    translationIndexes: translationIndexesOf(current, tourById, revisions, positions, previous),
    toursByLanguage: new Map(),
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...current.rate_limits },
  }
}

/**
 * The index of each language's translations, revised from the version before as the
 * default's is (the same revisions, read in that language), or made whole for a language the
 * version before did not have.
 */
function translationIndexesOf(instance: Instance, tourById: ReadonlyMap<string, TourEntry>, revisions: readonly SearchRevision[],
  positions: Int32Array, previous: InstanceCatalog | undefined): Map<string, TourSearchIndex> {
  const indexes = new Map<string, TourSearchIndex>()
  for (const language of languagesOf(instance).slice(1)) {
    const before = previous?.translationIndexes.get(language)
    if (before && revisions.length === 0 && sameSlots(positions, before.positions)) {
      indexes.set(language, before)
    } else if (before) {
      indexes.set(language, reviseSearchIndex(before, revisions.map(({ slot, before: was, after }) => ({
        slot, before: was && translatedSearchFields(was, language), after: after && translatedSearchFields(after, language),
      })), positions))
    } else {
      const bySlot = Array.from({ length: positions.length }, () => translatedSearchFields({}, language))
      for (const entry of tourById.values()) bySlot[entry.searchSlot] = translatedSearchFields(entry.catalog, language)
      indexes.set(language, buildSearchIndex(bySlot, positions))
    }
  }
  return indexes
}

/**
 * The tours after an edit, in list order, from the version before and the tours the edit
 * wrote (`written`, in list order, with where they stand now): every other tour stays where
 * it stood, as an edit that moves a tour writes it. Not for an edit that deleted a tour,
 * which the version before cannot tell.
 */
export function mergeWrittenTours(previous: InstanceCatalog, written: readonly CatalogTour[], positions: ReadonlyMap<string, number>): { tours: CatalogTour[], tourPositions: number[] } {
  const tours: CatalogTour[] = []
  const tourPositions: number[] = []
  const take = (tour: CatalogTour, position: number) => {
    tours.push(tour)
    tourPositions.push(position)
  }
  let w = 0
  previous.instance.tours.forEach((tour, index) => {
    if (positions.has(tour.id)) return
    const position = previous.tourPositions[index]
    for (; w < written.length && positions.get(written[w].id)! < position; w++) take(written[w], positions.get(written[w].id)!)
    take(tour, position)
  })
  for (; w < written.length; w++) take(written[w], positions.get(written[w].id)!)
  return { tours, tourPositions }
}
