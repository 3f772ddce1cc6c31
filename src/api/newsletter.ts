import { randomUUID } from 'node:crypto'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { toStoredInstant } from '../domain/instant-format.ts'
import { fillsDecoy } from '../http/decoys.ts'
import { NewsletterReceipt, NewsletterRequest } from '../schemas/forms.ts'

export const newsletterRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/newsletter', {
    schema: { body: NewsletterRequest, response: { 200: NewsletterReceipt } },
    config: {
      rateClass: 'forms',
      session: 'read',
      summary: 'Sign up to the newsletter; the answer never tells whether the address was already subscribed',
      description: 'Subscribes the address, keeping when and where it was given. The answer is the same for a new address, one already '
        + 'subscribed and a sign-up that fills a decoy field (which subscribes nothing).',
    },
  }, async (request) => {
    const { instance } = request.catalog
    const body = request.body
    await app.tourdesk.store.forms.recordNewsletterSignup({
      id: randomUUID(),
      instance_id: instance.ref,
      email: body.email.trim().toLowerCase(),
      name: body.name?.trim() || null,
      session_id: request.session?.id ?? null,
      promo_code: body.promo_code?.trim() || null,
      referral_code: body.referral_code?.trim() || null,
      source: request.headers.origin ?? 'api',
      spam: fillsDecoy(instance, body) ? 1 : 0,
      consented_at: toStoredInstant(app.tourdesk.clock.now()),
    })
    return { status: 'subscribed' as const }
  })
}
