import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Policies } from '../schemas/policy.ts'

export const policyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/policies', {
    schema: { response: { 200: Policies } },
    config: {
      summary: 'Cancellation policy, payment terms and hold length',
      description: 'The cancellation tiers (the fee by the notice given), the no-show fee, when and how payment is taken (on arrival), '
        + 'and how long a hold keeps its seats.',
    },
  }, async (request) => {
    const { instance } = request.catalog
    return {
      cancellation: instance.cancellation_policy,
      payment: { when: 'on_arrival' as const, methods: instance.payment_methods },
      hold_minutes: instance.holdSeconds / 60,
    }
  })
}
