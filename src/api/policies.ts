import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { policyIn } from '../catalog/translated-catalog.ts'
import { LanguageQuery } from '../schemas/language.ts'
import { Policies } from '../schemas/policy.ts'

export const policyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/policies', {
    schema: { querystring: LanguageQuery, response: { 200: Policies } },
    config: {
      language: true,
      summary: 'Cancellation policy, payment terms and hold length',
      description: 'The cancellation tiers (the fee by the notice given), the no-show fee, when and how payment is taken (on arrival), '
        + "and how long a hold keeps its seats; the policy's summary in the reader's language (lang, else Accept-Language).",
    },
  }, async (request) => {
    const { instance } = request.catalog
    return {
      cancellation: policyIn(request.catalog, request.language!),
      payment: { when: 'on_arrival' as const, methods: instance.payment_methods },
      hold_minutes: instance.holdSeconds / 60,
    }
  })
}
