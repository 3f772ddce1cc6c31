import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { NoBody } from '../../schemas/common.ts'
import { ErasureAnswer, PersonalData, PrivacyQuery } from '../../schemas/admin/privacy.ts'
import { erasedCounts } from '../../services/privacy-requests.ts'
import { actorOf } from '../../services/staff-auth.ts'
import { personalDataView } from '../privacy-view.ts'

const AUDITED = 'Audited: the entry names the address only by a keyed hash (HMAC-SHA256 with the server secret) and records the counts, never the data.'

/** Privacy requests about one email address (docs/operator-api.md, "Audit, privacy and access"); managers only. */
export const privacyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { privacy, clock } = app.tourdesk

  app.get('/privacy', {
    schema: { querystring: PrivacyQuery, response: { 200: PersonalData } },
    config: {
      access: 'access.manage',
      summary: 'Everything stored about an email address',
      description: `Contact messages, newsletter sign-ups and subscription, bookings, and kept Idempotency-Key answers of sessions that booked with it, in this instance. ${AUDITED}`,
    },
  }, async (request, reply) => {
    const data = await privacy.exportData(request.catalog.instance.ref, request.query.email, { actor: actorOf(request.staff!), requestId: request.id }, clock.now())
    reply.header('Cache-Control', 'no-store')
    return personalDataView(data, request.catalog)
  })

  app.delete('/privacy', {
    schema: { querystring: PrivacyQuery, body: NoBody, response: { 200: ErasureAnswer } },
    config: {
      access: 'access.manage',
      summary: 'Erase what is stored about an email address; answers the counts',
      description: 'Deletes its contact messages, sign-ups, subscription and kept answers; its bookings stay (they hold seats and the operator\'s records) '
        + `but lose the contact: name and email become "erased", the phone, internal_note and the reseller's notes are removed, and their version grows. Repeating it answers zeros. ${AUDITED}`,
    },
  }, async (request) => {
    const counts = await privacy.erase(request.catalog.instance.ref, request.query.email, { actor: actorOf(request.staff!), requestId: request.id }, clock.now())
    return erasedCounts(counts)
  })
}
