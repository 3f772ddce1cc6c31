import type { RouteOptions } from 'fastify'
import type { ErrorCode } from '../errors/codes.ts'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import type { StaffIdentity } from '../services/staff-auth.ts'
import type { Access } from '../domain/roles.ts'
import type { RateClass } from '../domain/token-bucket.ts'
import type { LiveSession } from './session.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** The operator API's routes as registered (empty when TOURDESK_ADMIN is off). */
    operatorRoutes?: RouteOptions[]
  }
  interface FastifyRequest {
    catalog: InstanceCatalog
    session: LiveSession | null
    /** The staff member or API key behind an operator API request (set by enforceAccess). */
    staff: StaffIdentity | null
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
  }
}
