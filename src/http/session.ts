import { randomInt } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Temporal } from 'temporal-polyfill'
import { fromStoredInstant, toStoredInstant } from '../domain/instant-format.ts'
import { NEW_SESSION_HOURS, newSessionExpiry } from '../domain/session-lifetime.ts'
import type { FieldError } from '../errors/api-error.ts'

export const SESSION_COOKIE = 'sid'
const SESSION_ID = /^[a-z0-9]{12}$/
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'

function newSessionId(): string {
  let id = ''
  for (let i = 0; i < 12; i++) id += ALPHABET[randomInt(ALPHABET.length)]
  return id
}

/** The body names the session only on routes whose body schema has a `session` field. */
function bodySession(request: FastifyRequest): unknown {
  const schema = request.routeOptions.schema?.body as { properties?: Record<string, unknown> } | undefined
  if (schema?.properties?.session === undefined) return undefined
  const body = request.body as Record<string, unknown> | undefined
  return body !== null && typeof body === 'object' ? body.session : undefined
}

function querySession(request: FastifyRequest): unknown {
  return request.routeOptions.config.sessionFromQuery ? (request.query as Record<string, unknown> | undefined)?.session : undefined
}

/** The session a request names: body `session`, then X-Session, then `session` in the query (where allowed), then the cookie. */
function namedSessionId(request: FastifyRequest): string | undefined {
  const candidates = [bodySession(request), request.headers['x-session'], querySession(request), request.cookies[SESSION_COOKIE]]
  return candidates.find((c): c is string => typeof c === 'string' && c !== '')
}

/**
 * The X-Session header or `session` query parameter, when sent with a value that cannot be
 * a session id (the openapi.json pattern): a client bug worth a 400, not "no session". The
 * body's `session` is checked by the body schema; a malformed `sid` cookie is only ignored,
 * since a browser may carry a stale one the page cannot clear.
 */
export function malformedSessionParameter(request: FastifyRequest): FieldError | undefined {
  const message = 'must be 12 characters of a-z and 0-9'
  const header = request.headers['x-session']
  if (header !== undefined && !(typeof header === 'string' && SESSION_ID.test(header))) return { field: 'X-Session', message }
  const query = querySession(request)
  if (query !== undefined && !(typeof query === 'string' && SESSION_ID.test(query))) return { field: 'session', message }
  return undefined
}

export interface LiveSession {
  id: string
  expiresAt: Temporal.Instant
  /** The booking POST /booking/lookup made the session's booking; null while that is its own latest one. */
  lookedUpBookingId: string | null
}

/** The live session the request names, or null. */
export async function resolveSession(request: FastifyRequest): Promise<LiveSession | null> {
  const named = namedSessionId(request)
  if (named === undefined || !SESSION_ID.test(named)) return null
  const { store, clock } = request.server.httpParts
  const live = await store.sessions.findLive(request.catalog.instance.ref, named, toStoredInstant(clock.now()))
  return live ? { id: live.id, expiresAt: fromStoredInstant(live.expires_at), lookedUpBookingId: live.looked_up_booking_id } : null
}

/** How openapi.json describes the `sid` cookie a route sets: when it is sent, and for how long it lasts. */
export function sessionCookieHeader(when: string, lifetimeSeconds: number, why: string): string {
  return `${when}: ${SESSION_COOKIE}=<session id>; Max-Age=${lifetimeSeconds}; Path=/api/<instance prefix>; HttpOnly; SameSite=Lax, `
    + `and Secure when served over https. ${why}`
}

/** What the routes that may make a session (the index, POST /session) document of its cookie. */
export const newSessionCookieHeader = sessionCookieHeader('When the request named no live session, a new one', NEW_SESSION_HOURS * 3600,
  `A session that never holds a booking lasts ${NEW_SESSION_HOURS} hours; a hold makes it last longer (POST /booking).`)

/** The `sid` cookie, kept by the browser exactly as long as the server keeps the session. */
function setSessionCookie(request: FastifyRequest, reply: FastifyReply, session: LiveSession, now: Temporal.Instant): void {
  reply.setCookie(SESSION_COOKIE, session.id, {
    httpOnly: true,
    sameSite: 'lax',
    path: `/api/${request.catalog.instance.prefix}`,
    secure: request.protocol === 'https',
    maxAge: Math.round(now.until(session.expiresAt).total('seconds')),
  })
}

/** The request's live session, creating one (and setting the `sid` cookie) when it names none. */
export async function ensureSession(request: FastifyRequest, reply: FastifyReply): Promise<LiveSession> {
  const { store, clock } = request.server.httpParts
  if (request.session !== null) return request.session
  const now = clock.now()
  const session = { id: newSessionId(), expiresAt: newSessionExpiry(now), lookedUpBookingId: null }
  await store.sessions.create({ instance_id: request.catalog.instance.ref, id: session.id, created_at: toStoredInstant(now), expires_at: toStoredInstant(session.expiresAt) })
  request.session = session
  setSessionCookie(request, reply, session, now)
  return session
}

/**
 * After a hold or a lookup made the request's session last until `expiresAt`, the `sid`
 * cookie that named it is sent again with the new lifetime, or the browser would forget the
 * session (and the guest the booking) when the first day is up. A session named otherwise
 * (X-Session, the body) leaves the browser's cookie alone.
 */
export function renewSessionCookie(request: FastifyRequest, reply: FastifyReply, expiresAt: Temporal.Instant, now: Temporal.Instant): void {
  const session = request.session
  if (session === null || request.cookies[SESSION_COOKIE] !== session.id) return
  request.session = { ...session, expiresAt }
  setSessionCookie(request, reply, request.session, now)
}
