import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError } from '../errors/api-error.ts'
import { sendProblem } from './problem.ts'
import { addSecurityHeaders, answerPreflight } from './security-headers.ts'

/**
 * Answers requests no route matched: 405 with Allow when the path exists under another
 * method (TRACE and PROPFIND included), else 404 not_found. Paths are learned from the
 * routes as they are registered, so there is no second list to keep in step.
 */
export function registerRoutingErrors(app: FastifyInstance): void {
  const routes: { source: string, pattern: RegExp, methods: Set<string> }[] = []

  app.addHook('onRoute', (route) => {
    const source = `^${route.url.replace(/\/$/, '').replace(/:[^/]+/g, '[^/]+')}/?$`
    let entry = routes.find((r) => r.source === source)
    if (!entry) {
      entry = { source, pattern: new RegExp(source), methods: new Set() }
      routes.push(entry)
    }
    for (const method of [route.method].flat()) entry.methods.add(method)
  })

  const answer = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0]
    const [, root, prefix] = path.split('/')
    const catalog = root === 'api' ? app.httpParts.catalogs.get(prefix) : undefined
    const knownInstance = root !== 'api' || catalog !== undefined
    const match = knownInstance ? routes.find((r) => r.pattern.test(path)) : undefined
    if (match) {
      const allow = [...match.methods].sort().join(', ')
      if (answerPreflight(request, reply, catalog, allow)) return reply
      return sendProblem(reply, new ApiError('method_not_allowed', `${request.method} is not allowed here; use ${allow}`, { headers: { Allow: allow } }))
    }
    return sendProblem(reply, new ApiError('not_found', `Nothing is at ${path}`))
  }
  // Fastify's not-found route would read the body first; answering on arrival keeps routing
  // ahead of 413, 415, 400 and 403 as docs/guest-api.md ("Errors") orders them.
  // A callback hook, not an async one: it runs on every request, and nearly all go on.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.is404) answer(request, reply)
    else done()
  })
}

/**
 * The router's own refusals, a path segment that is not valid percent-encoding or is longer
 * than the router takes, answered as problems instead of Fastify's default JSON. They never
 * reach a route, so no onSend hook adds the security headers: they are added here.
 */
export async function answerRouterError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const apiError = error.code === 'FST_ERR_BAD_URL' ? new ApiError('bad_request', 'The path is not valid percent-encoding')
    : error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? new ApiError('bad_request', 'A path segment is too long')
      : new ApiError('internal', 'Something went wrong on our side; the request may be retried')
  addSecurityHeaders(reply)
  return sendProblem(reply, apiError)
}
