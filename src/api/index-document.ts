import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ensureSession, newSessionCookieHeader } from '../http/session.ts'
import { API_VERSION } from '../http/openapi.ts'
import { IndexDocument } from '../schemas/index-document.ts'

const ENDPOINTS = [
  'GET /tours?q=',
  'GET /tours/{id}',
  'GET /availability?tour=&date=&party=&days=',
  'POST /session',
  'GET|POST|DELETE /booking',
  'POST /checkout',
  'POST /newsletter',
  'POST /contact',
  'GET /policies',
  'GET /openapi.json',
]

export const indexRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/', {
    schema: { response: { 200: IndexDocument } },
    config: {
      session: 'ensure',
      summary: 'Instance index: name, ref, time zone, a session, and every endpoint',
      description: "A client's first call: the instance's name, reference, time zone and currency, and the full path of every "
        + 'endpoint. A visitor that names no live session gets a new one, returned as session and set as the sid cookie.',
      responseHeaders: { 'Set-Cookie': newSessionCookieHeader },
    },
  }, async (request, reply) => {
    const { instance } = request.catalog
    const session = await ensureSession(request, reply)
    reply.header('Cache-Control', 'no-store')
    const base = `/api/${instance.prefix}`
    return {
      name: instance.name,
      ref: instance.ref,
      session: session.id,
      timezone: instance.timezone,
      currency: instance.currency,
      api_version: API_VERSION,
      endpoints: ENDPOINTS.map((e) => e.replace(' /', ` ${base}/`)),
    }
  })
}
