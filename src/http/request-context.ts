import type { Clock } from '../domain/clock.ts'
import type { BookingService } from '../services/bookings.ts'
import type { InstanceCatalog } from '../services/instance-catalog.ts'
import type { Store } from '../store/store.ts'
import type { ErrorCode } from './error-codes.ts'
import type { RateClass, RateLimiter } from './rate-limit.ts'
import type { LiveSession } from './session.ts'

/** What the app is built from; tests build it with their own store, catalog and clock. */
export interface AppContext {
  store: Store
  clock: Clock
  catalogs: Map<string, InstanceCatalog>
  secret: string
  bookings: BookingService
  /** null when TOURDESK_RATE_LIMITS=off. */
  rateLimiter: RateLimiter | null
}

declare module 'fastify' {
  interface FastifyInstance {
    tourdesk: AppContext
  }
  interface FastifyRequest {
    catalog: InstanceCatalog
    session: LiveSession | null
  }
  interface FastifyContextConfig {
    /** How the route uses the visitor's session: read it, or create one when there is none. */
    session?: 'read' | 'ensure'
    /** Also take the session from the `session` query parameter. */
    sessionFromQuery?: boolean
    csrf?: boolean
    idempotent?: boolean
    /** Which rate-limit budget the route spends; GETs default to read, writes to booking. */
    rateClass?: RateClass
    /** Error codes this route can answer besides the ones every route can. */
    errors?: ErrorCode[]
    /** Headers the route's success answer carries, by name, with what each holds (for openapi.json). */
    responseHeaders?: Record<string, string>
    summary?: string
  }
}
