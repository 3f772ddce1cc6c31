import type { AppContext } from '../context.ts'
import type { ErrorCode } from '../errors/codes.ts'
import type { InstanceCatalog } from '../services/instance-catalog.ts'
import type { RateClass } from './rate-limit.ts'
import type { LiveSession } from './session.ts'

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
