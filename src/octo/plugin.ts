import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { languagesOf } from '../domain/translation.ts'
import { resolveInstance } from '../http/instance.ts'
import { varyOn } from '../http/vary.ts'
import { enforceKeyRateLimit } from '../http/rate-limit.ts'
import type { AnswerReuse } from '../http/serialized-answer.ts'
import { requestedCapabilities } from './capabilities.ts'
import { handleOctoError } from './errors.ts'
import { contentLanguageOf, requireReseller } from './octo-request.ts'
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
    const capabilities = requestedCapabilities(request)
    reply.header('Octo-Capabilities', capabilities.join(', '))
    if (capabilities.includes('octo/content')) {
      // The texts' language follows Accept-Language: a shared cache keeps one answer per language.
      varyOn(reply, 'Accept-Language')
      if (reply.statusCode < 400) {
        reply.header('Content-Language', contentLanguageOf(request))
        reply.header('Available-Languages', languagesOf(request.catalog.instance).join(', '))
      }
    }
    done(null, payload)
  })
  await app.register(octoCatalogRoutes)
  await app.register(octoAvailabilityRoutes, { reuseAnswers })
  await app.register(octoBookingRoutes)
}
