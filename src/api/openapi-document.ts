import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { RouteOptions } from 'fastify'
import { buildOpenApiDocument, INSTANCE_ROUTE_PREFIX, servedDocument, type DocumentSpec } from '../http/openapi.ts'
import { DECOY_FIELD_NAMES } from '../schemas/decoy-fields.ts'

/** Whether a route's body can name the session itself (the `session` field), so no header or cookie is needed. */
const bodyNamesSession = (route: RouteOptions) =>
  (route.schema?.body as { properties?: Record<string, unknown> } | undefined)?.properties?.session !== undefined

export const GUEST_DOCUMENT: DocumentSpec = {
  routePrefix: INSTANCE_ROUTE_PREFIX,
  surface: 'guest',
  title: 'tourdesk booking API',
  description: 'Tours, availability, held bookings and checkout for one tour operator; payment is taken on arrival. '
    + 'A session (the sid cookie, X-Session or a session body field) holds at most one booking; POST and DELETE /booking and POST '
    + "/booking/lookup also need the session's X-CSRF-Token. A session that never holds a booking lasts 24 hours, one that does 30 days from its latest hold.\n\n"
    + `Spam decoys: ${DECOY_FIELD_NAMES.join(', ')} are accepted on every form but never filled by people. A submission that fills `
    + 'one is answered as if it were real and quarantined (a hold takes no seat, a booking is not requested, a message is not '
    + 'delivered, an address is not subscribed). Never send them.\n\n'
    + 'Errors are RFC 9457 problem+json; x-error-codes lists every code.',
  internal: false,
  tags: {
    '': { name: 'Index', description: 'The instance: name, time zone, a session, every endpoint' },
    'tours': { name: 'Tours', description: 'The catalog: tours with prices, meeting points and add-ons' },
    'availability': { name: 'Availability', description: "Departures and the seats left, in the operator's time zone" },
    'session': { name: 'Session', description: 'A session and its CSRF token, for clients that are not browsers' },
    'booking': { name: 'Booking', description: "The session's booking: hold, read, release or cancel, or look up a checked-out one by its code and email or manage link" },
    'checkout': { name: 'Checkout', description: 'Turning a hold into a booking request, with the guest\'s contact details' },
    'contact': { name: 'Contact', description: 'Messages to the operator' },
    'newsletter': { name: 'Newsletter', description: "Sign-ups to the operator's newsletter" },
    'policies': { name: 'Policies', description: 'Cancellation and payment terms' },
    'openapi': { name: 'Description', description: 'This OpenAPI document' },
  },
  securitySchemes: {
    sessionCookie: {
      type: 'apiKey', in: 'cookie', name: 'sid',
      description: 'The session the index and POST /session set as a cookie. Whoever has it reads and changes its booking: keep it private',
    },
    sessionHeader: {
      type: 'apiKey', in: 'header', name: 'X-Session',
      description: 'The session id from POST /session, for clients without cookies. A request names its session by the session body '
        + 'field first, then X-Session, then ?session= (GET /booking), then the sid cookie',
    },
    csrfToken: {
      type: 'apiKey', in: 'header', name: 'X-CSRF-Token',
      description: "The token POST /session grants with the session; POST and DELETE /booking and POST /booking/lookup refuse a request without it (403 csrf_missing) or with another session's (403 csrf_invalid)",
    },
  },
  security: (route): Array<Record<string, string[]>> => {
    if (route.config?.csrf) {
      return [{ sessionCookie: [], csrfToken: [] }, { sessionHeader: [], csrfToken: [] }, ...(bodyNamesSession(route) ? [{ csrfToken: [] }] : [])]
    }
    // Reading a session is optional: a route that needs none works without (and the index and POST /session make one).
    if (route.config?.session) return [{ sessionCookie: [] }, { sessionHeader: [] }, {}]
    return [{}]
  },
  // No route needs a key, but a reseller's key sent to any of them is refused (src/api/reseller-key-refusal.ts).
  securityErrors: () => ['reseller_key_refused'],
}

/** Serves the document of the instance routes, with this instance's base URL as its server. */
export function openApiRoutes(routes: RouteOptions[]): FastifyPluginAsyncTypebox {
  return async (app) => {
    let document: Record<string, unknown> | undefined
    app.get('/openapi.json', {
      config: {
        summary: 'This OpenAPI 3.1 description',
        description: 'Generated from the schemas that validate requests and serialize answers, so it is what the service does. '
          + 'The same for every instance but its server, which is the base URL this request reached.',
      },
    }, async (request, reply) => {
      document ??= buildOpenApiDocument(routes, GUEST_DOCUMENT)
      reply.header('Cache-Control', 'public, max-age=300')
      return servedDocument(document, request, GUEST_DOCUMENT, `/api/${request.catalog.instance.prefix}`)
    })
  }
}
