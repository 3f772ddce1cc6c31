import type { FastifyInstance, RouteOptions } from 'fastify'
import { componentName } from '../schemas/named.ts'
import { Problem } from '../schemas/problem.ts'
import { codesOfSurface, ERROR_CODES, type ErrorCode } from '../errors/codes.ts'
import { requiresBody } from './json-body.ts'
import { SESSION_COOKIE, SESSION_DAYS } from './session.ts'

export const API_VERSION = '1.4.0'
export const INSTANCE_ROUTE_PREFIX = '/api/:instance'

type JsonSchema = Record<string, unknown>

/**
 * What Node's HTTP layer can refuse before any route runs, whatever the route (client-errors.ts):
 * bad_request, a request line, header block or path that cannot be parsed, or HTTP/1.1
 * without Host; request_timeout, headers not complete within 10 s or the request within 30 s;
 * expectation_failed, an Expect other than 100-continue; headers_too_large, over 16 KiB.
 */
const EVERY_ROUTE: ErrorCode[] = ['bad_request', 'request_timeout', 'expectation_failed', 'headers_too_large', 'not_found', 'method_not_allowed', 'rate_limited', 'internal', 'unavailable']
/** The Origin check and the JSON body reader run on every POST and DELETE, whether or not the route takes a body. */
const STATE_CHANGING: ErrorCode[] = ['payload_too_large', 'unsupported_media_type', 'invalid_json', 'origin_not_allowed']
const STATE_CHANGING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
/** A body, query or path schema rejects what it does not accept. */
const WITH_SCHEMA: ErrorCode[] = ['validation_failed']

/** Copies a schema, writing every named sub-schema as a $ref to its component. */
function toDocumentSchema(schema: unknown, components: Record<string, JsonSchema>, isRoot = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => toDocumentSchema(s, components))
  if (schema === null || typeof schema !== 'object') return schema
  const name = componentName(schema)
  if (name && !isRoot) {
    if (!(name in components)) {
      components[name] = {}
      components[name] = toDocumentSchema(schema, components, true) as JsonSchema
    }
    return { $ref: `#/components/schemas/${name}` }
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === 'properties'
    ? Object.fromEntries(Object.entries(v as object).map(([p, s]) => [p, toDocumentSchema(s, components)]))
    : toDocumentSchema(v, components)]))
}

function parameters(route: RouteOptions, components: Record<string, JsonSchema>): JsonSchema[] {
  const out: JsonSchema[] = []
  const add = (location: 'query' | 'path', schema: unknown) => {
    const object = schema as { properties?: Record<string, JsonSchema>, required?: string[] } | undefined
    for (const [name, property] of Object.entries(object?.properties ?? {})) {
      if (location === 'path' && name === 'instance') continue
      const { description, ...rest } = property
      out.push({ name, in: location, required: location === 'path' || (object?.required ?? []).includes(name), description, schema: toDocumentSchema(rest, components) })
    }
  }
  add('path', route.schema?.params)
  add('query', route.schema?.querystring)
  const config = route.config ?? {}
  if (config.csrf) out.push({ name: 'X-CSRF-Token', in: 'header', required: true, description: 'Token from POST /session, bound to the session', schema: { type: 'string' } })
  if (config.idempotent) out.push({ name: 'Idempotency-Key', in: 'header', required: false, description: `Makes retries safe: the first answer is replayed for ${24} hours`, schema: { type: 'string', minLength: 1, maxLength: 255 } })
  const malformed = 'a value of another shape is 400 validation_failed; a well-formed id of no live session names no session'
  if (config.session) out.push({ name: 'X-Session', in: 'header', required: false, description: `Session id, instead of the sid cookie; ${malformed}`, schema: { type: 'string', pattern: '^[a-z0-9]{12}$' } })
  if (config.sessionFromQuery) out.push({ name: 'session', in: 'query', required: false, description: `Session id (after X-Session, before the sid cookie); ${malformed}`, schema: { type: 'string', pattern: '^[a-z0-9]{12}$' } })
  return out
}

/** The headers of a success answer: the ones the route declares, and the sid cookie where a session may be created. */
function successHeaders(route: RouteOptions): Record<string, JsonSchema> | undefined {
  const headers: Record<string, JsonSchema> = {}
  for (const [name, description] of Object.entries(route.config?.responseHeaders ?? {})) headers[name] = { description, schema: { type: 'string' } }
  if (route.config?.session === 'ensure') {
    headers['Set-Cookie'] = {
      description: `When the request named no live session: ${SESSION_COOKIE}=<session id>; Max-Age=${SESSION_DAYS * 24 * 3600}; `
        + 'Path=/api/<instance prefix>; HttpOnly; SameSite=Lax, and Secure when served over https',
      schema: { type: 'string' },
    }
  }
  return Object.keys(headers).length > 0 ? headers : undefined
}

function errorResponses(route: RouteOptions, extra: ErrorCode[]): Record<string, JsonSchema> {
  const codes = new Set<ErrorCode>([...EVERY_ROUTE, ...extra, ...(route.config?.errors ?? [])])
  if ([route.method].flat().some((m) => STATE_CHANGING_METHODS.has(m))) STATE_CHANGING.forEach((c) => codes.add(c))
  // A route that reads the session also refuses a malformed X-Session or session parameter.
  if (route.schema?.body || route.schema?.querystring || route.schema?.params || route.config?.session) WITH_SCHEMA.forEach((c) => codes.add(c))
  const byStatus = new Map<number, ErrorCode[]>()
  for (const code of codes) byStatus.set(ERROR_CODES[code].status, [...(byStatus.get(ERROR_CODES[code].status) ?? []), code])
  return Object.fromEntries([...byStatus].sort(([a], [b]) => a - b).map(([status, list]) => [String(status), {
    description: list.map((c) => `\`${c}\`: ${ERROR_CODES[c].title}`).join('; '),
    headers: status === 405 ? { Allow: { schema: { type: 'string' } } } : status === 429 ? { 'Retry-After': { schema: { type: 'integer' } } }
      : status === 401 ? { 'WWW-Authenticate': { schema: { type: 'string' } } } : undefined,
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    'x-error-codes': list,
  }]))
}

/** What sets one API's document apart: where its routes live, which error codes it speaks, how callers authenticate. */
export interface DocumentSpec {
  routePrefix: string
  surface: 'guest' | 'operator'
  title: string
  description: string
  /** OpenAPI security schemes, and the requirement applied to each operation that is not public. */
  securitySchemes?: Record<string, JsonSchema>
  security?: (route: RouteOptions) => Array<Record<string, string[]>> | undefined
  /** Error codes an operation can answer because of how it is secured. */
  securityErrors?: (route: RouteOptions) => ErrorCode[]
}

const GUEST_DOCUMENT: DocumentSpec = {
  routePrefix: INSTANCE_ROUTE_PREFIX,
  surface: 'guest',
  title: 'tourdesk booking API',
  description: 'Tours, availability, held bookings and checkout for one tour operator. Errors are RFC 9457 problem+json; x-error-codes lists every code.',
}

/** The OpenAPI 3.1 document of one API's routes, built from the schemas that validate and serialize them. */
export function buildOpenApiDocument(routes: RouteOptions[], spec: DocumentSpec = GUEST_DOCUMENT): JsonSchema {
  const components: Record<string, JsonSchema> = {}
  const paths: Record<string, Record<string, JsonSchema>> = {}
  for (const route of routes) {
    const path = route.url.slice(spec.routePrefix.length).replace(/:([a-z_]+)/g, '{$1}') || '/'
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue
      const responses = route.schema?.response as Record<string, unknown> | undefined
      const successStatus = Object.keys(responses ?? {}).find((status) => status.startsWith('2')) ?? '200'
      const success = responses?.[successStatus]
      const extraErrors = spec.securityErrors?.(route) ?? []
      paths[path] ??= {}
      paths[path][method.toLowerCase()] = {
        operationId: `${method.toLowerCase()}${path.replace(/[{}]/g, '').split(/[/_.-]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('') || 'Index'}`,
        summary: route.config?.summary,
        description: route.config?.description,
        security: spec.security?.(route),
        parameters: parameters(route, components),
        requestBody: route.schema?.body ? { required: requiresBody(route.schema.body), content: { 'application/json': { schema: toDocumentSchema(route.schema.body, components) } } } : undefined,
        responses: {
          [successStatus]: { description: 'Success', headers: successHeaders(route), content: { 'application/json': { schema: toDocumentSchema(success ?? {}, components) } } },
          ...errorResponses(route, extraErrors),
        },
      }
    }
  }
  toDocumentSchema(Problem, components)
  return JSON.parse(JSON.stringify({
    openapi: '3.1.0',
    info: { title: spec.title, version: API_VERSION, description: spec.description },
    paths,
    components: { schemas: components, securitySchemes: spec.securitySchemes },
    'x-error-codes': Object.fromEntries(codesOfSurface(spec.surface).map((code) => [code, { status: ERROR_CODES[code].status, title: ERROR_CODES[code].title }])),
  }))
}

/** Collects the routes registered under `prefix` (a route and its trailing-slash twin counted once). */
export function collectRoutes(app: FastifyInstance, prefix: string): RouteOptions[] {
  const routes: RouteOptions[] = []
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(prefix) && !route.url.endsWith('/')) routes.push(route)
  })
  return routes
}

export function collectInstanceRoutes(app: FastifyInstance): RouteOptions[] {
  return collectRoutes(app, INSTANCE_ROUTE_PREFIX)
}
