import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { resolveInstance } from '../http/instance.ts'
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify'
import { readMissingBodyAsEmpty, rejectForbiddenBodyKeys, requiresBody } from '../http/json-body.ts'
import { buildOpenApiDocument, collectRoutes, servedDocument, type DocumentSpec } from '../http/openapi.ts'
import { hasIntegerQuery, parseStrictQueryIntegers } from '../http/query-integers.ts'
import { enforceRateLimit } from '../http/rate-limit.ts'
import { enforceAccess, requireAccessRule } from './access.ts'
import { sessionRoutes } from './routes/session.ts'
import { operatorBookingRoutes } from './routes/bookings.ts'
import { bookingEmailRoutes } from './routes/booking-emails.ts'
import { exportRoutes } from './routes/exports.ts'
import { departureRoutes } from './routes/departures.ts'
import { staffRoutes } from './routes/staff.ts'
import { apiKeyRoutes } from './routes/api-keys.ts'
import { auditRoutes } from './routes/audit.ts'
import { emailRoutes } from './routes/emails.ts'
import { eventRoutes } from './routes/events.ts'
import { privacyRoutes } from './routes/privacy.ts'
import { catalogRoutes } from './routes/catalog.ts'
import { webhookRoutes } from './routes/webhooks.ts'
import { streamRoutes } from './routes/stream.ts'

/** Every operator route lives under this, one instance per prefix (docs/operator-api.md, "Surfaces"). */
export const ADMIN_ROUTE_PREFIX = '/admin/api/:instance'

type Check = (request: FastifyRequest) => Promise<void>
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Each operator route gets the one access check (credential, role, then CSRF and Origin
 * for staff writes) after its body is parsed and before it is validated, the place the
 * guest API gives its 403s; a route that declares no access rule stops the start-up.
 */
function attachAdminChecks(route: RouteOptions): void {
  requireAccessRule(route)
  const checks: Check[] = []
  if (hasIntegerQuery(route.schema?.querystring)) checks.push(parseStrictQueryIntegers)
  checks.push(enforceAccess)
  if (![route.method].flat().every((m) => READ_METHODS.has(m))) checks.push(rejectForbiddenBodyKeys)
  if (route.schema?.body && !requiresBody(route.schema.body)) checks.push(readMissingBodyAsEmpty)
  route.preValidation = [...checks, ...[route.preValidation ?? []].flat()]
}

const OPERATOR_DOCUMENT: DocumentSpec = {
  routePrefix: ADMIN_ROUTE_PREFIX,
  surface: 'operator',
  title: 'tourdesk operator API',
  description: 'What the people who run the tours use: bookings, departures and manifests, the catalog (tours, promo codes, policy, settings), staff and API keys, the audit log. '
    + 'Authenticate with an API key (Authorization: Bearer tdk_…) or a staff session (the td_staff cookie from POST /session, with '
    + 'X-CSRF-Token on every write). Errors are RFC 9457 problem+json; x-error-codes lists every code.',
  internal: true,
  tags: {
    'session': { name: 'Staff session', description: 'Signing staff in and out' },
    'setup': { name: 'Setup', description: "Setting a new staff member's password from a setup link" },
    'me': { name: 'Me', description: 'The signed-in staff member or API key' },
    'bookings': { name: 'Bookings', description: 'Every booking, with what only the operator sees; confirming, declining, cancelling, check-in, moves, quarantine' },
    'exports': { name: 'Exports', description: 'Bookings as CSV' },
    'departures': { name: 'Departures', description: 'Departures with their manifests; capacity changes, extra and cancelled departures' },
    'staff': { name: 'Staff', description: 'Staff accounts and their roles' },
    'api-keys': { name: 'API keys', description: 'Keys for systems that use the operator API' },
    'audit': { name: 'Audit', description: 'Who changed what, and when' },
    'privacy': { name: 'Privacy', description: "Exporting and erasing one person's data" },
    'catalog': { name: 'Catalog', description: 'The whole catalog in the catalog file\'s format, edited live' },
    'tours': { name: 'Tours', description: 'Tours of the catalog, archived ones included; adding, changing, archiving' },
    'promo-codes': { name: 'Promo codes', description: 'Promo codes and their uses' },
    'policy': { name: 'Cancellation policy', description: 'The cancellation policy; each edit is a new version' },
    'settings': { name: 'Settings', description: "The instance's own settings: name, time zone, currency, hold time, origins, limits" },
    'events': { name: 'Events', description: 'What happened, in commit order, for 30 days' },
    'stream': { name: 'Event stream', description: 'The events as server-sent events, as they happen' },
    'emails': { name: 'Emails', description: 'Every email made for guests and staff, with its state' },
    'webhooks': { name: 'Webhooks', description: 'Endpoints that receive the events, signed (Standard Webhooks 1.0); their delivery log, test messages and replays' },
    'openapi': { name: 'Description', description: 'This OpenAPI document' },
  },
  securitySchemes: {
    apiKey: { type: 'http', scheme: 'bearer', description: 'An API key, tdk_ followed by at least 32 letters and digits' },
    staffSession: { type: 'apiKey', in: 'cookie', name: 'td_staff', description: 'A staff session from POST /session; writes also need X-CSRF-Token' },
  },
  // A public operation (sign-in, setup, this document) is open to anyone: the empty requirement says so.
  security: (route): Array<Record<string, string[]>> => route.config?.access === 'public' ? [{}] : [{ apiKey: [] }, { staffSession: [] }],
  securityErrors: (route) => {
    const access = route.config?.access
    if (access === 'public') return []
    const writes = [route.method].flat().some((m) => !READ_METHODS.has(m))
    // A reseller key is refused on every operator route (docs/resellers.md).
    return ['unauthenticated', 'reseller_key_refused' as const, ...(access === 'signed-in' ? [] : ['forbidden' as const]), ...(writes ? ['csrf_missing' as const, 'csrf_invalid' as const] : [])]
  },
}

/** The operator API, registered only when TOURDESK_ADMIN is on. */
export function adminApi(app: FastifyInstance): FastifyPluginAsyncTypebox {
  const routes = collectRoutes(app, ADMIN_ROUTE_PREFIX)
  app.decorate('operatorRoutes', routes)
  return async (admin) => {
    admin.decorateRequest('staff', null)
    admin.addHook('onRequest', resolveInstance)
    if (app.tourdesk.rateLimiter) admin.addHook('onRequest', enforceRateLimit)
    admin.addHook('onRoute', attachAdminChecks)
    await admin.register(sessionRoutes)
    await admin.register(operatorBookingRoutes)
    await admin.register(bookingEmailRoutes)
    await admin.register(exportRoutes)
    await admin.register(departureRoutes)
    await admin.register(staffRoutes)
    await admin.register(apiKeyRoutes)
    await admin.register(auditRoutes)
    await admin.register(eventRoutes)
    await admin.register(emailRoutes)
    await admin.register(privacyRoutes)
    await admin.register(catalogRoutes)
    await admin.register(webhookRoutes)
    await admin.register(streamRoutes)

    let document: Record<string, unknown> | undefined
    admin.get('/openapi.json', { config: { access: 'public', summary: 'This OpenAPI 3.1 description of the operator API' } }, async (request, reply) => {
      document ??= buildOpenApiDocument(routes, OPERATOR_DOCUMENT)
      reply.header('Cache-Control', 'public, max-age=300')
      return servedDocument(document, request, OPERATOR_DOCUMENT, `/admin/api/${request.catalog.instance.prefix}`)
    })
  }
}
