import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import { negotiateLanguage } from '../domain/language-negotiation.ts'
import { languagesOf } from '../domain/translation.ts'
import { varyOn } from './vary.ts'

/**
 * The language of a guest read (docs/languages.md), for the routes whose answers carry
 * catalog texts (route config `language`): chosen once, before the handler, from `?lang=`
 * and Accept-Language among the instance's languages (src/domain/language-negotiation.ts),
 * and said in the answer's Content-Language; Vary names Accept-Language, so that a shared
 * cache keeps one answer per language.
 */
export function attachLanguageNegotiation(route: RouteOptions): void {
  if (!route.config?.language) return
  route.preHandler = [chooseLanguage, ...[route.preHandler ?? []].flat()]
  route.onSend = [...[route.onSend ?? []].flat(), sendLanguageHeaders]
}

async function chooseLanguage(request: FastifyRequest): Promise<void> {
  const { lang } = (request.query ?? {}) as { lang?: string }
  request.language = negotiateLanguage(languagesOf(request.catalog.instance), { lang, acceptLanguage: request.headers['accept-language'] })
}

async function sendLanguageHeaders(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  varyOn(reply, 'Accept-Language')
  // A problem is written in English whatever the reader asked for: only a success says its language.
  if (request.language !== null && reply.statusCode < 400) reply.header('Content-Language', request.language)
  return payload
}
