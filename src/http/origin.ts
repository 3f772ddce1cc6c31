import type { FastifyRequest } from 'fastify'

/**
 * A state-changing request from a browser carries Origin; it must be this service itself or
 * one of the instance's allowed origins. Requests without Origin (curl, servers) pass.
 */
export function originAllowed(request: FastifyRequest): boolean {
  const origin = request.headers.origin
  if (origin === undefined) return true
  if (origin === `${request.protocol}://${request.host}`) return true
  const { allowedOrigins, cors_origins } = request.catalog.instance
  return allowedOrigins.includes(origin) || (cors_origins ?? []).includes(origin)
}
