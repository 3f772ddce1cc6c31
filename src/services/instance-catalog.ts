import type { Instance } from '../config/catalog.ts'
import { buildSearchIndex, type TourSearchIndex } from '../domain/tour-search.ts'
import { DEFAULT_RATE_LIMITS, type RateLimitPolicies } from '../http/rate-limit.ts'
import type { CatalogTour } from '../schemas/catalog.ts'
import type { Tour } from '../schemas/tour.ts'

/** An instance with what every request needs precomputed once: tour records and the search index. */
export interface InstanceCatalog {
  instance: Instance
  tours: Tour[]
  tourById: Map<string, { catalog: CatalogTour, record: Tour }>
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

export function buildInstanceCatalog(instance: Instance): InstanceCatalog {
  const tours = instance.tours.map((t) => tourRecord(instance, t))
  return {
    instance,
    tours,
    tourById: new Map(instance.tours.map((t, i) => [t.id, { catalog: t, record: tours[i] }])),
    searchIndex: buildSearchIndex(instance.tours),
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...instance.rate_limits },
  }
}
