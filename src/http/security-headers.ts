import type { FastifyReply, FastifyRequest } from 'fastify'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { varyOn } from './vary.ts'

const EXPOSED = 'X-CSRF-Token, RateLimit, RateLimit-Policy, Retry-After, Idempotent-Replayed, Allow'
const ACCEPTED = 'Content-Type, X-CSRF-Token, X-Session, Idempotency-Key'

/**
 * Headers every answer carries, including the ones written before any route runs
 * (client-errors.ts): a JSON API is never rendered, framed or sniffed as something else.
 */
export const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-site',
} as const

export function addSecurityHeaders(reply: FastifyReply): void {
  reply.header('X-Content-Type-Options', SECURITY_HEADERS['X-Content-Type-Options'])
  // The booking page sets its own, looser policy; everything else is JSON that is never rendered.
  if (!reply.hasHeader('Content-Security-Policy')) reply.header('Content-Security-Policy', SECURITY_HEADERS['Content-Security-Policy'])
  reply.header('Referrer-Policy', SECURITY_HEADERS['Referrer-Policy'])
  reply.header('Cross-Origin-Resource-Policy', SECURITY_HEADERS['Cross-Origin-Resource-Policy'])
}

/**
 * Credentialed CORS for an origin the instance lists in `cors_origins`: the onSend hook of
 * the guest API only (app.ts). The operator API and the back office never answer CORS: a
 * listed origin on the same site as the service would otherwise read a signed-in staff
 * member's answers, since the SameSite=Strict staff cookie goes to same-site requests.
 */
export function addCorsHeaders(request: FastifyRequest, reply: FastifyReply): void {
  const corsOrigins = request.catalog?.instance.cors_origins
  if (!corsOrigins?.length) return
  // The answer depends on Origin whenever CORS is on, so a shared cache must key on it even
  // for requests that get no CORS headers.
  varyOn(reply, 'Origin')
  const origin = request.headers.origin
  if (origin && corsOrigins.includes(origin)) {
    reply.header('Access-Control-Allow-Origin', origin)
    reply.header('Access-Control-Allow-Credentials', 'true')
    reply.header('Access-Control-Expose-Headers', EXPOSED)
  }
}

/**
 * Answers a CORS preflight for an instance that lists the asking origin in `cors_origins`.
 * CORS is off by default: without that list a preflight gets 405 like any OPTIONS request.
 */
export function answerPreflight(request: FastifyRequest, reply: FastifyReply, catalog: InstanceCatalog | undefined, allow: string): boolean {
  const origin = request.headers.origin
  if (request.method !== 'OPTIONS' || !origin || !catalog?.instance.cors_origins?.includes(origin)) return false
  reply.code(204)
    .header('Access-Control-Allow-Origin', origin)
    .header('Access-Control-Allow-Credentials', 'true')
    .header('Access-Control-Allow-Methods', allow)
    .header('Access-Control-Allow-Headers', ACCEPTED)
    .header('Access-Control-Max-Age', '600')
    .header('Vary', 'Origin')
    .send()
  return true
}
