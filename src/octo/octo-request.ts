import type { FastifyRequest } from 'fastify'
import { negotiateLanguage } from '../domain/language-negotiation.ts'
import { languagesOf } from '../domain/translation.ts'
import type { Reseller } from '../services/reseller-bookings.ts'
import { requestedCapabilities } from './capabilities.ts'
import type { OctoView } from './catalog-view.ts'
import { OctoError } from './errors.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The reseller key of an OCTo request, set by its credential check. */
    reseller: Reseller | null
  }
}

/** The one credential check of every OCTo route: a live reseller key, else 401 (none, unknown, revoked) or 403 (a staff key). */
export async function requireReseller(request: FastifyRequest): Promise<void> {
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1]
  const found = bearer === undefined ? null : await request.server.tourdesk.resellerKeys.identify(request.catalog.instance.ref, bearer, request.server.tourdesk.clock.now())
  if (found === null) {
    throw new OctoError(401, 'UNAUTHORIZED', 'Send a reseller API key as Authorization: Bearer <key>; this one is missing, unknown or revoked', {},
      { 'WWW-Authenticate': 'Bearer realm="tourdesk-octo"' })
  }
  if (found === 'not-reseller') throw new OctoError(403, 'FORBIDDEN', 'This API key is not a reseller key: the OCTo API takes reseller keys only')
  request.reseller = found
}

/** Each request's view, made once: a route asks for it several times (the product check, the answer). */
const views = new WeakMap<FastifyRequest, OctoView>()

/** How this request's answers are written: the caller's terms and the capabilities it asked for. */
export function octoView(request: FastifyRequest): OctoView {
  let view = views.get(request)
  if (!view) {
    const capabilities = requestedCapabilities(request)
    view = {
      catalog: request.catalog, reseller: request.reseller!, pricing: capabilities.includes('octo/pricing'),
      contentLanguage: capabilities.includes('octo/content') ? contentLanguageOf(request) : null,
    }
    views.set(request, view)
  }
  return view
}

/** The instance's language an octo/content answer is written in: the best Accept-Language asks for, else the default (src/domain/language-negotiation.ts). */
export function contentLanguageOf(request: FastifyRequest): string {
  return negotiateLanguage(languagesOf(request.catalog.instance), { acceptLanguage: request.headers['accept-language'] })
}

