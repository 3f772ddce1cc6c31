import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError, type FieldError } from '../errors/api-error.ts'
import { ERROR_CODES } from '../errors/codes.ts'

export const PROBLEM_CONTENT_TYPE = 'application/problem+json'

export function problemBody(error: ApiError, requestId: string): Record<string, unknown> {
  const { headers: _headers, ...extra } = error.extra
  return {
    type: `https://tourdesk.dev/problems/${error.code}`,
    title: ERROR_CODES[error.code].title,
    status: error.status,
    detail: error.message,
    code: error.code,
    request_id: requestId,
    ...extra,
  }
}

export function sendProblem(reply: FastifyReply, error: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(error.extra.headers ?? {})) reply.header(name, value)
  return reply.code(error.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problemBody(error, reply.request.id)))
}

type ValidationIssue = NonNullable<FastifyError['validation']>[number]

/**
 * The issues without a union's own complaints about a value that has an error inside it: of
 * `{"translations": {"pt": {"title": <201 characters>}}}` against "a translations object or
 * null", the cause is translations.pt.title; "translations must be null" and "must match a
 * schema in anyOf" would only send a form's reader to the wrong field. A value of neither shape
 * has no inner error, and keeps them all.
 */
function withoutUnionNoise(issues: readonly ValidationIssue[]): ValidationIssue[] {
  return issues.filter((issue) => {
    const union = issue.keyword === 'anyOf' || (issue.keyword === 'type' && /\/anyOf\/\d+\/type$/.test(issue.schemaPath))
    return !(union && issues.some((other) => other.instancePath.startsWith(`${issue.instancePath}/`)))
  })
}

function fieldErrors(error: FastifyError): FieldError[] {
  const context = error.validationContext ?? 'body'
  return withoutUnionNoise(error.validation ?? []).map((issue) => {
    const params = issue.params as Record<string, unknown>
    const path = issue.instancePath.split('/').filter(Boolean).join('.')
    const child = (params.missingProperty ?? params.additionalProperty ?? params.propertyName) as string | undefined
    const field = [path, child].filter(Boolean).join('.') || context
    const message = params.additionalProperty ? 'is not a known field'
      : params.missingProperty ? 'is required'
        : issue.message ?? 'is invalid'
    return { field, message }
  })
}

/** Turns whatever was thrown into the ApiError the client sees. Anything unexpected is `internal`, without details. */
export function toApiError(error: FastifyError | Error): ApiError {
  if (error instanceof ApiError) return error
  const fastifyError = error as FastifyError
  if (fastifyError.validation) {
    const errors = fieldErrors(fastifyError)
    return new ApiError('validation_failed', errors.map((e) => `${e.field} ${e.message}`).join('; '), { errors })
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('payload_too_large', 'The body is larger than 64 KiB')
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('unsupported_media_type', 'Send the body as Content-Type: application/json')
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('bad_request', 'The body length does not match Content-Length')
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('invalid_json', 'The body is empty; send a JSON object')
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('invalid_json', 'The body is not valid JSON')
  }
  if (fastifyError.statusCode === 400 && error instanceof SyntaxError) {
    return new ApiError('invalid_json', 'The body is not valid JSON')
  }
  if (fastifyError.statusCode === 413) return new ApiError('payload_too_large', 'The body is larger than 64 KiB')
  if (fastifyError.statusCode === 415) return new ApiError('unsupported_media_type', 'Send the body as Content-Type: application/json')
  if (fastifyError.statusCode === 503) return new ApiError('unavailable', 'The service is temporarily unavailable; retry shortly')
  return new ApiError('internal', 'Something went wrong on our side; the request may be retried')
}

export function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (request.server.httpParts.store.isUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable')
    return sendProblem(reply, new ApiError('unavailable', 'The service cannot reach its database; retry shortly', { headers: { 'Retry-After': '1' } }))
  }
  const apiError = toApiError(error)
  if (apiError.status >= 500) request.log.error({ err: error }, 'request failed')
  return sendProblem(reply, apiError)
}
