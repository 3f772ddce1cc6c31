import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError, type FieldError } from '../errors/api-error.ts'
import { toApiError } from '../http/problem.ts'

/** OCTo's error names (node_modules/@octocloud/types/src/openapi.yaml, the Error* schemas) and the id field each carries. */
export type OctoErrorName = 'INVALID_PRODUCT_ID' | 'INVALID_OPTION_ID' | 'INVALID_UNIT_ID' | 'INVALID_AVAILABILITY_ID' | 'INVALID_BOOKING_UUID'
  | 'BAD_REQUEST' | 'UNPROCESSABLE_ENTITY' | 'UNAUTHORIZED' | 'FORBIDDEN' | 'NOT_FOUND' | 'TOO_MANY_REQUESTS' | 'INTERNAL_SERVER_ERROR'

/** An answer in OCTo's error shape: `{error, errorMessage}` and, for an invalid id, the id as it was sent. */
export class OctoError extends Error {
  constructor(readonly status: number, readonly error: OctoErrorName, message: string, readonly fields: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {}) {
    super(message)
  }
}

export const invalidProduct = (productId: unknown) => new OctoError(400, 'INVALID_PRODUCT_ID', 'The productId was missing or invalid', { productId })
export const invalidOption = (optionId: unknown) => new OctoError(400, 'INVALID_OPTION_ID', 'The optionId was missing or invalid', { optionId })
export const invalidUnit = (unitId: unknown) => new OctoError(400, 'INVALID_UNIT_ID', 'The unitId was missing or invalid', { unitId })
export const invalidAvailability = (availabilityId: unknown, why = 'The availabilityId was missing or invalid') =>
  new OctoError(400, 'INVALID_AVAILABILITY_ID', why, { availabilityId })
export const invalidUuid = (uuid: unknown) => new OctoError(400, 'INVALID_BOOKING_UUID', 'The uuid was already used, missing or invalid', { uuid })
export const badRequest = (message: string) => new OctoError(400, 'BAD_REQUEST', message)
export const unprocessable = (message: string) => new OctoError(400, 'UNPROCESSABLE_ENTITY', message)

/**
 * What a refusal of a shared service (an ApiError, docs/guest-api.md's codes) is in OCTo's
 * words: a slot that cannot be sold or a refused unit mix is UNPROCESSABLE_ENTITY, a request
 * that does not fit the booking's state BAD_REQUEST. A fault of ours stays a 500.
 */
function fromApiError(error: ApiError): OctoError {
  const headers = Object.fromEntries(Object.entries(error.extra.headers ?? {}))
  switch (error.code) {
    case 'unauthenticated': return new OctoError(401, 'UNAUTHORIZED', error.message, {}, headers)
    case 'forbidden': case 'reseller_key_refused': return new OctoError(403, 'FORBIDDEN', error.message)
    case 'not_found': return new OctoError(404, 'NOT_FOUND', error.message)
    case 'rate_limited': return new OctoError(429, 'TOO_MANY_REQUESTS', error.message, {}, headers)
    case 'tour_not_found': return invalidProduct(null)
    case 'invalid_unit': return invalidUnit((error.extra.errors as FieldError[] | undefined)?.[0]?.field.replace(/^units\./, '') ?? null)
    case 'slot_not_found': return new OctoError(400, 'INVALID_AVAILABILITY_ID', error.message, { availabilityId: null })
    case 'insufficient_capacity': case 'cutoff_passed': case 'date_out_of_range': case 'party_out_of_range': case 'party_mismatch':
    case 'unit_not_allowed': case 'hold_expired':
      return unprocessable(error.message)
  }
  if (error.status >= 500) return new OctoError(error.status, 'INTERNAL_SERVER_ERROR', 'There was an un-recoverable error, please try again', {}, headers)
  return badRequest(error.message)
}

/** The OCTo surface's error handler: every refusal in OCTo's shape, schema validation failures as BAD_REQUEST, never problem+json. */
export function handleOctoError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  let octo: OctoError
  if (error instanceof OctoError) octo = error
  else if (request.server.httpParts.store.isUnavailable(error)) {
    octo = new OctoError(503, 'INTERNAL_SERVER_ERROR', 'The service cannot reach its database; retry shortly', {}, { 'Retry-After': '1' })
  } else octo = fromApiError(toApiError(error))
  if (octo.status >= 500) request.log.error({ err: error }, 'OCTo request failed')
  for (const [name, value] of Object.entries(octo.headers)) reply.header(name, value)
  return reply.code(octo.status).type('application/json').send(JSON.stringify({ error: octo.error, errorMessage: octo.message, ...octo.fields }))
}
