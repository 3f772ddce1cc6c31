import type { FastifyRequest } from 'fastify'
import { ApiError } from '../errors/api-error.ts'
import { csrfTokenMatches } from './csrf.ts'
import { originAllowed } from './origin.ts'
import { malformedSessionParameter, resolveSession } from './session.ts'

/**
 * Runs before body validation (the contract ranks 403 above 400 validation_failed): finds
 * the visitor's session and, on routes that ask for it, checks Origin and the CSRF token;
 * then refuses an X-Session header or `session` parameter that cannot be a session id.
 */
export async function sessionAndCsrfGuard(request: FastifyRequest): Promise<void> {
  const config = request.routeOptions.config
  const changesState = request.method === 'POST' || request.method === 'DELETE'
  if (changesState && !originAllowed(request)) {
    throw new ApiError('origin_not_allowed', `Requests from ${request.headers.origin} are not accepted`)
  }
  if (!config.session) return
  request.session = await resolveSession(request)
  if (config.csrf) checkCsrfToken(request)
  // After the CSRF check: the contract ranks 403 above 400 validation_failed.
  const malformed = malformedSessionParameter(request)
  if (malformed) throw new ApiError('validation_failed', `${malformed.field} ${malformed.message}`, { errors: [malformed] })
}

function checkCsrfToken(request: FastifyRequest): void {
  const token = request.headers['x-csrf-token']
  if (typeof token !== 'string' || token === '') {
    throw new ApiError('csrf_missing', 'Send the X-CSRF-Token header; POST /session gives the token')
  }
  const { secret } = request.server.httpParts
  if (request.session === null || !csrfTokenMatches(secret, request.catalog.instance.ref, request.session.id, token)) {
    throw new ApiError('csrf_invalid', 'X-CSRF-Token does not belong to this session; get a new one from POST /session')
  }
}
