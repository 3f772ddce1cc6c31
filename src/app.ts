import { randomUUID } from 'node:crypto'
import { resolveInstance } from './http/instance.ts'
import { keptCompilers } from './http/schema-compilers.ts'
import fastifyCookie from '@fastify/cookie'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { LogController, type FastifyServerOptions } from 'fastify'
import { availabilityRoutes } from './api/availability.ts'
import { bookingRoutes } from './api/booking.ts'
import { checkoutRoutes } from './api/checkout.ts'
import { contactRoutes } from './api/contact.ts'
import { indexRoutes } from './api/index-document.ts'
import { newsletterRoutes } from './api/newsletter.ts'
import { openApiRoutes } from './api/openapi-document.ts'
import { policyRoutes } from './api/policies.ts'
import { refuseResellerKey } from './api/reseller-key-refusal.ts'
import { sessionRoutes } from './api/session.ts'
import { tourRoutes } from './api/tours.ts'
import type { DatabaseTarget } from './config/env.ts'
import { ApiError } from './errors/api-error.ts'
import { answerClientError, answerOutsideRoutes, rejectMissingHost } from './http/client-errors.ts'
import { registerJsonBodyParser } from './http/json-body.ts'
import { answerRouterError, registerRoutingErrors } from './http/method-not-allowed.ts'
import { collectInstanceRoutes, INSTANCE_ROUTE_PREFIX } from './http/openapi.ts'
import { loggedRequest } from './http/logged-url.ts'
import { processPipelinedInOrder } from './http/pipelining.ts'
import { closeUnusedConnectionsOnClose } from './http/unused-connections.ts'
import { handleError } from './http/problem.ts'
import { databaseReadiness } from './http/readiness.ts'
import { addCorsHeaders, addSecurityHeaders } from './http/security-headers.ts'
import { enforceRateLimit } from './http/rate-limit.ts'
import { attachRouteChecks } from './http/route-checks.ts'
import { attachLanguageNegotiation } from './http/language.ts'
import type { AppContext } from './context.ts'
import { bookingPageRoutes } from './web/booking-page.ts'
import { entryPageRoutes } from './web/entry-pages.ts'
import { emailActionRoutes } from './web/email-action-page.ts'
import { backOfficeRoutes } from './web/admin-page.ts'
import { ADMIN_ROUTE_PREFIX, adminApi } from './admin/plugin.ts'
import { OCTO_ROUTE_PREFIX, octoApi } from './octo/plugin.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** The services, built once by src/context.ts; routes and hooks reach them through request.server. */
    tourdesk: AppContext
  }
}

export const BODY_LIMIT_BYTES = 64 * 1024
/**
 * Slow clients (slowloris) must not hold connections for ever: a request's headers must
 * arrive within 10 s and the whole request within 30 s, checked every second. Without
 * these, Node allows 60 s for headers, checked every 30 s, and a request whose body
 * trickles in a byte at a time has no limit at all (fastify's requestTimeout is 0).
 * `npm run drill` measures the effect (drill/slow-clients.ts).
 */
export const HEADERS_TIMEOUT_MS = 10_000
export const REQUEST_TIMEOUT_MS = 30_000
const CONNECTION_CHECK_INTERVAL_MS = 1_000

/** Builds the HTTP app; it can be built many times (tests build one per case). */
export interface AppOptions {
  /** A pino logger made by the caller; without it the app logs nothing. */
  loggerInstance?: FastifyServerOptions['loggerInstance']
  /** Log every request and its answer; errors (5xx) are logged either way. */
  requestLog?: boolean
  /** Keep serialized tour lists and availability answers for reuse (default true). */
  reuseAnswers?: boolean
  /** Fastify's trustProxy: whose X-Forwarded-For names the client address. */
  trustProxy?: FastifyServerOptions['trustProxy']
  /** Serve the operator API under /admin (TOURDESK_ADMIN, default on). */
  admin?: boolean
  /** Where the database is; on SQLite, /readyz also checks that its disk has room (readiness.ts). */
  database?: DatabaseTarget
}

export async function buildApp(context: AppContext, options: AppOptions = {}) {
  const app = Fastify({
    // Every line that shows a request shows its URL with the tokens in it redacted (logged-url.ts).
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance.child({}, { serializers: { req: loggedRequest } }) } : { logger: false }),
    logController: new LogController({ disableRequestLogging: !options.requestLog }),
    trustProxy: options.trustProxy ?? false,
    bodyLimit: BODY_LIMIT_BYTES,
    requestTimeout: REQUEST_TIMEOUT_MS,
    // requireHostHeader: a request without Host is refused by rejectMissingHost, as a problem.
    http: { headersTimeout: HEADERS_TIMEOUT_MS, connectionsCheckingInterval: CONNECTION_CHECK_INTERVAL_MS, requireHostHeader: false },
    genReqId: () => randomUUID(),
    clientErrorHandler: answerClientError,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    frameworkErrors: answerRouterError,
    ajv: { customOptions: { coerceTypes: false, useDefaults: true, removeAdditional: false, allErrors: false } },
    schemaController: { compilersFactory: keptCompilers },
  }).withTypeProvider<TypeBoxTypeProvider>()

  answerOutsideRoutes(app.server)
  app.decorate('tourdesk', context)
  const { store, clock, catalogs, secret, rateLimiter } = context
  app.decorate('httpParts', { store, clock, catalogs, secret, rateLimiter })
  app.decorateRequest('catalog', null as never)
  app.decorateRequest('session', null)
  app.decorateRequest('language', null)
  registerJsonBodyParser(app)
  app.setErrorHandler(handleError)
  const readiness = databaseReadiness({ store, clock, catalogs }, options.database)
  app.addHook('onError', (_request, _reply, error, done) => {
    readiness.noteFailure(error)
    done()
  })
  processPipelinedInOrder(app)
  closeUnusedConnectionsOnClose(app)
  app.addHook('onRequest', rejectMissingHost)
  app.addHook('onSend', (_request, reply, _payload, done) => {
    addSecurityHeaders(reply)
    // No answer leaves before the writes it reports are on disk (see Database.durable).
    const flushing = context.store.durable()
    if (flushing) flushing.then(() => done(), done)
    else done()
  })
  registerRoutingErrors(app)
  const instanceRoutes = collectInstanceRoutes(app)

  await app.register(fastifyCookie)
  await app.register(async (api) => {
    api.addHook('onRequest', resolveInstance)
    api.addHook('onRequest', refuseResellerKey)
    if (context.rateLimiter) api.addHook('onRequest', enforceRateLimit)
    api.addHook('onRoute', attachRouteChecks)
    api.addHook('onRoute', attachLanguageNegotiation)
    api.addHook('onSend', (request, reply, payload, done) => {
      addCorsHeaders(request, reply)
      done(null, payload)
    })
    await api.register(indexRoutes)
    const reuse = { reuseAnswers: options.reuseAnswers ?? true }
    await api.register(tourRoutes, reuse)
    await api.register(availabilityRoutes, reuse)
    await api.register(sessionRoutes)
    await api.register(bookingRoutes)
    await api.register(checkoutRoutes)
    await api.register(contactRoutes)
    await api.register(newsletterRoutes)
    await api.register(policyRoutes)
    await api.register(openApiRoutes(instanceRoutes))
  }, { prefix: INSTANCE_ROUTE_PREFIX })

  if (options.admin ?? true) {
    await app.register(adminApi(app), { prefix: ADMIN_ROUTE_PREFIX })
    await app.register(emailActionRoutes)
    await app.register(backOfficeRoutes)
  }

  await app.register(octoApi, { prefix: OCTO_ROUTE_PREFIX, reuseAnswers: options.reuseAnswers ?? true })
  await app.register(bookingPageRoutes)
  await app.register(entryPageRoutes({ admin: options.admin ?? true }))

  app.get('/healthz', async () => ({ status: 'ok' }))
  app.get('/readyz', async () => {
    if (!await readiness.ready()) {
      throw new ApiError('unavailable', 'The database is not reachable or does not take writes', { headers: { 'Retry-After': '1' } })
    }
    return { status: 'ready' }
  })
  return app
}
export type App = Awaited<ReturnType<typeof buildApp>>
