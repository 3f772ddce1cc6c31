import type { Instance } from '../config/catalog.ts'
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

export function buildInstanceCatalog(instance: Instance, version = 0): InstanceCatalog {
  const tourById = new Map(instance.tours.map((t) => [t.id, { catalog: t, record: tourRecord(instance, t), archived: t.archived === true }]))
  const offered = instance.tours.filter((t) => !t.archived)
  return {
    instance,
    version,
    tours: offered.map((t) => tourById.get(t.id)!.record),
    tourById,
    searchIndex: buildSearchIndex(offered),
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...instance.rate_limits },
  }
}
