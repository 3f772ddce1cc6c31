import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { formatInZone } from '../domain/instant-format.ts'
import { fillsDecoy } from '../http/decoys.ts'
import { ContactReceipt, ContactRequest } from '../schemas/forms.ts'

export const contactRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/contact', {
    schema: { body: ContactRequest, response: { 200: ContactReceipt } },
    config: {
      rateClass: 'forms',
      session: 'read',
      summary: 'Send the operator a message; answered the same way whether or not it is kept as spam',
      description: 'Keeps the message for the operator. One that fills a decoy field is kept as spam and never delivered, with the same answer.',
    },
  }, async (request) => {
    const { instance } = request.catalog
    const now = app.tourdesk.clock.now()
    const sender = { sessionId: request.session?.id ?? null, spam: fillsDecoy(instance, request.body) }
    const id = await app.tourdesk.forms.contact(request.catalog, sender, request.body, now)
    return { id, status: 'received' as const, received_at: formatInZone(now, instance.timezone) }
  })
}
