import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { resolveInstance } from '../http/instance.ts'
import { enforceKeyRateLimit } from '../http/rate-limit.ts'
import type { AnswerReuse } from '../http/serialized-answer.ts'
import { requestedCapabilities } from './capabilities.ts'
import { handleOctoError } from './errors.ts'
import { requireReseller } from './octo-request.ts'
import { octoAvailabilityRoutes } from './routes/availability.ts'
import { octoBookingRoutes } from './routes/bookings.ts'
import { octoCatalogRoutes } from './routes/catalog.ts'

/** The OCTo supplier API of each instance (docs/resellers.md): its own surface, its own credentials and error shape. */
export const OCTO_ROUTE_PREFIX = '/octo/:instance'

export const octoApi: FastifyPluginAsyncTypebox<AnswerReuse> = async (app, { reuseAnswers }) => {
  app.decorateRequest('reseller', null)
  app.setErrorHandler(handleOctoError)
  app.addHook('onRequest', resolveInstance)
  app.addHook('onRequest', requireReseller)
  // After the credential check: each reseller key spends from its own bucket (the octo class).
  if (app.tourdesk.rateLimiter) app.addHook('onRequest', (request, reply) => enforceKeyRateLimit(request, reply, request.reseller!.keyId))
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('Octo-Capabilities', requestedCapabilities(request).join(', '))
    done(null, payload)
  })
  await app.register(octoCatalogRoutes)
  await app.register(octoAvailabilityRoutes, { reuseAnswers })
  await app.register(octoBookingRoutes)
}
