import type { Instance } from '../config/catalog.ts'
import { jsonEqual } from '../domain/json-equal.ts'
import { buildSearchIndex, type TourSearchIndex } from '../domain/tour-search.ts'
import { DEFAULT_RATE_LIMITS, type RateLimitPolicies } from '../http/rate-limit.ts'
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
  tourById: Map<string, { catalog: CatalogTour, record: Tour, archived: boolean }>
  /** Over `tours`: search answers are positions in it. */
  searchIndex: TourSearchIndex
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
    party: tour.party,
    capacity: tour.capacity,
    cutoff_minutes: tour.cutoff_minutes,
    confirmation: tour.confirmation,
    addons: tour.addons.map((a) => ({ id: a.id, name: a.name, description: a.description, price: money(a.price), per: a.per, max_quantity: a.max_quantity })),
    policy_id: instance.cancellation_policy.id,
  }
}

type TourEntry = InstanceCatalog['tourById'] extends Map<string, infer E> ? E : never

const searchedFieldsEqual = (a: CatalogTour, b: CatalogTour) =>
  a === b || (a.title === b.title && a.summary === b.summary && jsonEqual(a.tags, b.tags) && jsonEqual(a.meeting_point, b.meeting_point))

/**
 * Builds a version of the instance's catalog. Given the version before it, every tour that
 * the edit left as it was is taken over whole, the same objects: an edit of a large catalog
 * then costs a node the tours it changed, not the whole catalog again, and what is kept per
 * tour object (a day's expanded schedule) stays valid. The search index, too, is the one
 * before unless a searched field or the offered list changed. Nothing is taken over from a
 * version of another currency or policy, which every tour record names.
 */
export function buildInstanceCatalog(instance: Instance, version = 0, previous?: InstanceCatalog): InstanceCatalog {
  const before = previous && previous.instance.currency === instance.currency
    && previous.instance.cancellation_policy.id === instance.cancellation_policy.id ? previous : undefined
  const tourById = new Map<string, TourEntry>()
  const tours = instance.tours.map((tour) => {
    const kept = before?.tourById.get(tour.id)
    const entry = kept && jsonEqual(kept.catalog, tour) ? kept : { catalog: tour, record: tourRecord(instance, tour), archived: tour.archived === true }
    tourById.set(tour.id, entry)
    return entry.catalog
  })
  const current = { ...instance, tours }
  const offered = tours.filter((t) => !t.archived)
  const sameSearch = before !== undefined && before.tours.length === offered.length
    && offered.every((tour, i) => before.tours[i].id === tour.id && searchedFieldsEqual(before.tourById.get(tour.id)!.catalog, tour))
  return {
    instance: current,
    version,
    tours: offered.map((t) => tourById.get(t.id)!.record),
    tourById,
    searchIndex: sameSearch ? before.searchIndex : buildSearchIndex(offered),
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...current.rate_limits },
  }
}
