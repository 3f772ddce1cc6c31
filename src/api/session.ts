import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { formatInZone } from '../domain/instant-format.ts'
import { csrfToken } from '../http/csrf.ts'
import { ensureSession, newSessionCookieHeader } from '../http/session.ts'
import { NoBody } from '../schemas/common.ts'
import { SessionGrant } from '../schemas/session.ts'

export const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/session', {
    schema: { body: NoBody, response: { 200: SessionGrant } },
    config: {
      session: 'ensure',
      summary: 'Get (or keep) a session and its CSRF token, for clients that are not browsers',
      description: 'Answers the live session the request names, unchanged (no rotation), or else a new one, with its CSRF token and '
        + 'when it expires: 24 hours after it was made while it has never held a booking, 30 days after its latest hold once it has. '
        + 'Send the session as X-Session and the token as X-CSRF-Token.',
      responseHeaders: {
        'X-CSRF-Token': 'The CSRF token, the same as csrf_token in the body',
        'Set-Cookie': newSessionCookieHeader,
      },
    },
  }, async (request, reply) => {
    const session = await ensureSession(request, reply)
    const token = csrfToken(app.tourdesk.secret, request.catalog.instance.ref, session.id)
    reply.header('X-CSRF-Token', token).header('Cache-Control', 'no-store')
    return { session: session.id, csrf_token: token, expires_at: formatInZone(session.expiresAt, request.catalog.instance.timezone) }
  })
}
