import { randomInt } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Temporal } from 'temporal-polyfill'
import { toStoredInstant } from '../domain/instant-format.ts'

export const SESSION_COOKIE = 'sid'
export const SESSION_DAYS = 30
const SESSION_ID = /^[a-z0-9]{12}$/
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'

function newSessionId(): string {
  let id = ''
  for (let i = 0; i < 12; i++) id += ALPHABET[randomInt(ALPHABET.length)]
  return id
}

/** The session a request names: body `session`, then X-Session, then `session` in the query (where allowed), then the cookie. */
function namedSessionId(request: FastifyRequest): string | undefined {
  const body = request.body as Record<string, unknown> | undefined
  const query = request.query as Record<string, unknown> | undefined
  const candidates = [
    body !== null && typeof body === 'object' ? body.session : undefined,
    request.headers['x-session'],
    request.routeOptions.config.sessionFromQuery ? query?.session : undefined,
    request.cookies[SESSION_COOKIE],
  ]
  return candidates.find((c): c is string => typeof c === 'string' && c !== '')
}

export interface LiveSession {
  id: string
  expiresAt: Temporal.Instant
}

/** The live session the request names, or null. */
export async function resolveSession(request: FastifyRequest): Promise<LiveSession | null> {
  const named = namedSessionId(request)
  if (named === undefined || !SESSION_ID.test(named)) return null
  const { store, clock } = request.server.tourdesk
  const live = await store.sessions.findLive(request.catalog.instance.ref, named, toStoredInstant(clock.now()))
  return live ? { id: live.id, expiresAt: Temporal.Instant.from(live.expires_at) } : null
}

/** The request's live session, creating one (and setting the `sid` cookie) when it names none. */
export async function ensureSession(request: FastifyRequest, reply: FastifyReply): Promise<LiveSession> {
  const { store, clock } = request.server.tourdesk
  if (request.session !== null) return request.session
  const now = clock.now()
  const expiresAt = now.add({ hours: 24 * SESSION_DAYS })
  const id = newSessionId()
  await store.sessions.create({ instance_id: request.catalog.instance.ref, id, created_at: toStoredInstant(now), expires_at: toStoredInstant(expiresAt) })
  request.session = { id, expiresAt }
  reply.setCookie(SESSION_COOKIE, id, {
    httpOnly: true,
    sameSite: 'lax',
    path: `/api/${request.catalog.instance.prefix}`,
    secure: request.protocol === 'https',
    maxAge: SESSION_DAYS * 24 * 3600,
  })
  return { id, expiresAt }
}
