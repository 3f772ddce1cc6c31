import type { RouteOptions } from 'fastify'
import type { ErrorCode } from '../errors/codes.ts'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import type { StaffIdentity } from '../services/staff-auth.ts'
import type { Access } from '../domain/roles.ts'
import type { RateClass } from '../domain/token-bucket.ts'
import type { Clock } from '../domain/clock.ts'
import type { Store } from '../store/store.ts'
import type { RateLimiter } from './rate-limit.ts'
import type { LiveSession } from './session.ts'

/**
 * What this floor's hooks and helpers use of the services (sessions, kept answers, rate limits,
 * CSRF, the instance a path names): src/app.ts hands them over as `app.httpParts`, so src/http/
 * never reaches for the whole context, which belongs to the floor above.
 */
export interface HttpParts {
  store: Store
  clock: Clock
  catalogs: { get(prefix: string): InstanceCatalog | undefined }
  secret: string
  rateLimiter: RateLimiter | null
}

declare module 'fastify' {
  interface FastifyInstance {
    httpParts: HttpParts
    /** The operator API's routes as registered (empty when TOURDESK_ADMIN is off). */
    operatorRoutes?: RouteOptions[]
  }
  interface FastifyRequest {
    catalog: InstanceCatalog
    session: LiveSession | null
    /** The staff member or API key behind an operator API request (set by enforceAccess). */
    staff: StaffIdentity | null
    /** The language a guest read is answered in (src/http/language.ts); null on routes without `language`. */
    language: string | null
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
    /** Operator routes: who may call it (src/admin/access.ts); every operator route must say. */
    access?: Access
    /** The success answer is CSV (`only`), or CSV instead of JSON when Accept asks for it (`alternative`). */
    csv?: 'only' | 'alternative'
    /** The success answer is a text/event-stream that takes Last-Event-ID. */
    eventStream?: boolean
    /** Longer explanation for the API document. */
    description?: string
    /** The answer carries catalog texts in the reader's language: takes `lang` and Accept-Language, answers Content-Language (src/http/language.ts). */
    language?: boolean
  }
}
