import { randomUUID } from 'node:crypto'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { formatInZone, toStoredInstant } from '../domain/instant-format.ts'
import { fillsDecoy } from '../http/decoys.ts'
import { ContactReceipt, ContactRequest } from '../schemas/forms.ts'

const blankToNull = (value: string | undefined) => value?.trim() ? value.trim() : null

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
    const id = randomUUID()
    const body = request.body
    await app.tourdesk.store.forms.insertContactMessage({
      id,
      instance_id: instance.ref,
      session_id: request.session?.id ?? null,
      name: blankToNull(body.name),
      email: blankToNull(body.email),
      message: body.message,
      promo_code: blankToNull(body.promo_code),
      referral_code: blankToNull(body.referral_code),
      spam: fillsDecoy(instance, body) ? 1 : 0,
      received_at: toStoredInstant(now),
    })
    return { id, status: 'received' as const, received_at: formatInZone(now, instance.timezone) }
  })
}
