import type { RouteOptions } from 'fastify'
import type { JsonSchema } from './openapi-schema.ts'

/**
 * The response headers openapi.json documents, each once under components.headers and
 * referenced from every answer that carries it. What each says is what the code sends:
 * rate-limit.ts, security-headers.ts, idempotency.ts, problem.ts and the routes.
 */
export const HEADER_COMPONENTS: Record<string, JsonSchema> = {
  'RateLimit': {
    description: 'The tightest of the caller\'s buckets for this class of request (IETF ratelimit-headers draft): r requests left, '
      + 't seconds until the bucket is full again. Sent on every answer while rate limits are on (TOURDESK_RATE_LIMITS)',
    schema: { type: 'string', maxLength: 64, pattern: '^"[a-z]+";r=[0-9]+;t=[0-9]+$', examples: ['"read";r=119;t=1'] },
  },
  'RateLimit-Policy': {
    description: 'The budget of this class of request: q requests in a burst, refilled over w seconds. Sent with RateLimit',
    schema: { type: 'string', maxLength: 64, pattern: '^"[a-z]+";q=[0-9]+;w=[0-9]+$', examples: ['"read";q=120;w=12'] },
  },
  'Access-Control-Allow-Origin': {
    description: "The request's Origin, only when the instance lists it in cors_origins (credentialed CORS); absent otherwise",
    schema: { type: 'string', maxLength: 2048, pattern: '^https?://[^/]+$', examples: ['https://www.alfama-tejo.example'] },
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again',
    schema: { type: 'integer', minimum: 0, maximum: 86400, format: 'int32', examples: [1] },
  },
  'Allow': {
    description: 'The methods the path takes',
    schema: { type: 'string', maxLength: 64, pattern: '^[A-Z]+(, [A-Z]+)*$', examples: ['GET, HEAD'] },
  },
  'WWW-Authenticate': {
    description: 'How to authenticate: an API key as a Bearer token, or a staff session',
    schema: { type: 'string', maxLength: 200, examples: ['Bearer realm="tourdesk"'] },
  },
  'Content-Language': {
    description: "The language of the answer's catalog texts: one of the instance's languages, chosen from lang and Accept-Language (docs/languages.md)",
    schema: { type: 'string', maxLength: 35, pattern: '^[a-z]{2,3}(-[A-Za-z0-9]+)*$', examples: ['pt'] },
  },
  'Vary': {
    description: 'The request headers the answer depends on: Accept-Language, and Origin while CORS is on (cors_origins)',
    schema: { type: 'string', maxLength: 200, examples: ['Accept-Language'] },
  },
  'Idempotent-Replayed': {
    description: 'true when this is the stored answer to an earlier request with the same Idempotency-Key',
    schema: { type: 'string', const: 'true' },
  },
}

/** A CSRF token (csrf.ts): an HMAC-SHA256, base64url. */
export const CSRF_TOKEN_SCHEMA: JsonSchema = { type: 'string', minLength: 43, maxLength: 43, pattern: '^[A-Za-z0-9_-]{43}$', examples: ['P5v3mQ0r2b8Xz1KcLw9tYh6Ue4Ns7Ad0Gf2Jk5Ri8Oc'] }

/** Route-declared headers (config.responseHeaders) by name: the shape of each value. */
const DECLARED_HEADER_SCHEMAS: Record<string, JsonSchema> = {
  'Set-Cookie': { type: 'string', maxLength: 300, pattern: '^[a-z_]+=[^;]*(; [A-Za-z-]+(=[^;]*)?)*$' },
  'X-CSRF-Token': CSRF_TOKEN_SCHEMA,
  'Content-Disposition': { type: 'string', maxLength: 200, pattern: '^attachment; filename="[^"]+"$' },
}
const ANY_HEADER: JsonSchema = { type: 'string', maxLength: 1024 }

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` })

/** Which API a document describes: only the guest API answers CORS (security-headers.ts). */
export type Surface = 'guest' | 'operator'

/** Headers of a success answer: the route's own, the replay marker of idempotent routes, and those every answer carries. */
export function successHeaders(route: RouteOptions, surface: Surface): Record<string, JsonSchema> {
  const headers: Record<string, JsonSchema> = {}
  for (const [name, description] of Object.entries(route.config?.responseHeaders ?? {})) {
    headers[name] = { description, schema: DECLARED_HEADER_SCHEMAS[name] ?? ANY_HEADER }
  }
  if (route.config?.idempotent) headers['Idempotent-Replayed'] = ref('Idempotent-Replayed')
  if (route.config?.language) Object.assign(headers, { 'Content-Language': ref('Content-Language'), 'Vary': ref('Vary') })
  return { ...headers, ...everyAnswerHeaders(surface) }
}

/** Headers of a problem answer with this status, for the codes it stands for. */
export function problemHeaders(status: number, codes: readonly string[], surface: Surface): Record<string, JsonSchema> {
  const headers: Record<string, JsonSchema> = {}
  if (status === 405) headers.Allow = ref('Allow')
  if (status === 401) headers['WWW-Authenticate'] = ref('WWW-Authenticate')
  if (status === 429 || status === 503) headers['Retry-After'] = ref('Retry-After')
  if (codes.includes('idempotency_in_flight')) headers['Retry-After'] = { ...ref('Retry-After'), description: 'With idempotency_in_flight: seconds to wait before retrying' }
  return { ...headers, ...everyAnswerHeaders(surface) }
}

function everyAnswerHeaders(surface: Surface): Record<string, JsonSchema> {
  const limits = { 'RateLimit': ref('RateLimit'), 'RateLimit-Policy': ref('RateLimit-Policy') }
  return surface === 'guest' ? { ...limits, 'Access-Control-Allow-Origin': ref('Access-Control-Allow-Origin') } : limits
}
