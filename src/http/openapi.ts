import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify'
import { codesOfSurface, ERROR_CODES, type ErrorCode } from '../errors/codes.ts'
import { Problem } from '../schemas/problem.ts'
import { requiresBody } from './json-body.ts'
import { CSRF_TOKEN_SCHEMA, HEADER_COMPONENTS, problemHeaders, successHeaders, type Surface } from './openapi-headers.ts'
import { exampleOf, toDocumentSchema, type JsonSchema } from './openapi-schema.ts'

export const API_VERSION = '1.4.0'
export const INSTANCE_ROUTE_PREFIX = '/api/:instance'

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

const SESSION_ID_SCHEMA = { type: 'string', minLength: 12, maxLength: 12, pattern: '^[a-z0-9]{12}$', examples: ['k3v9x2m7q1pz'] }

function parameters(route: RouteOptions, components: Record<string, JsonSchema>): JsonSchema[] {
  const out: JsonSchema[] = []
  const add = (location: 'query' | 'path', schema: unknown) => {
    const object = schema as { properties?: Record<string, JsonSchema>, required?: string[] } | undefined
    for (const [name, property] of Object.entries(object?.properties ?? {})) {
      if (location === 'path' && name === 'instance') continue
      const { description, ...rest } = property
      out.push({
        name, in: location, required: location === 'path' || (object?.required ?? []).includes(name), description,
        schema: toDocumentSchema(rest, components), example: exampleOf(property),
      })
    }
  }
  add('path', route.schema?.params)
  add('query', route.schema?.querystring)
  const config = route.config ?? {}
  if (config.csrf) {
    out.push({
      name: 'X-CSRF-Token', in: 'header', required: true, description: 'Token from POST /session, bound to the session',
      schema: CSRF_TOKEN_SCHEMA, example: exampleOf(CSRF_TOKEN_SCHEMA),
    })
  }
  if (config.idempotent) {
    out.push({
      name: 'Idempotency-Key', in: 'header', required: false, description: `Makes retries safe: the first answer is replayed for ${24} hours`,
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' }, example: 'hold-2026-06-02-ana',
    })
  }
  if (config.language) {
    out.push({
      name: 'Accept-Language', in: 'header', required: false,
      description: "The reader's languages (RFC 9110 §12.5.4), weighed by q; the answer's texts are in the best the instance has, else its default. "
        + 'lang wins over it; a malformed value is read as absent',
      schema: { type: 'string', maxLength: 1024 }, example: 'pt-PT,pt;q=0.9,en;q=0.8',
    })
  }
  const malformed = 'a value of another shape is 400 validation_failed; a well-formed id of no live session names no session'
  if (config.session) out.push({ name: 'X-Session', in: 'header', required: false, description: `Session id, instead of the sid cookie; ${malformed}`, schema: SESSION_ID_SCHEMA })
  if (config.sessionFromQuery) out.push({ name: 'session', in: 'query', required: false, description: `Session id (after X-Session, before the sid cookie); ${malformed}`, schema: SESSION_ID_SCHEMA })
  if (config.eventStream) {
    out.push({
      name: 'Last-Event-ID', in: 'header', required: false, description: 'The id of the last event received: the stream resumes after it (browsers send it when they reconnect)',
      schema: EVENT_ID_SCHEMA, example: exampleOf(EVENT_ID_SCHEMA),
    })
  }
  return out
}

/** An example problem for a response that stands for `codes`: the first of them, as problem.ts writes it. */
function problemExample(status: number, codes: readonly ErrorCode[]): JsonSchema {
  const code = codes[0]
  return {
    type: `https://tourdesk.dev/problems/${code}`, title: ERROR_CODES[code].title, status,
    detail: ERROR_CODES[code].title, code, request_id: 'req-1a2b',
  }
}

function errorResponses(route: RouteOptions, extra: ErrorCode[], surface: Surface): Record<string, JsonSchema> {
  const codes = new Set<ErrorCode>([...EVERY_ROUTE, ...extra, ...(route.config?.errors ?? [])])
  if ([route.method].flat().some((m) => STATE_CHANGING_METHODS.has(m))) STATE_CHANGING.forEach((c) => codes.add(c))
  // Every route that keeps Idempotency-Key answers (src/http/idempotency.ts) may meet one a privacy erasure emptied.
  if (codes.has('idempotency_in_flight')) codes.add('idempotent_answer_erased')
  // A route that reads the session also refuses a malformed X-Session or session parameter.
  if (route.schema?.body || route.schema?.querystring || route.schema?.params || route.config?.session) WITH_SCHEMA.forEach((c) => codes.add(c))
  const byStatus = new Map<number, ErrorCode[]>()
  for (const code of codes) byStatus.set(ERROR_CODES[code].status, [...(byStatus.get(ERROR_CODES[code].status) ?? []), code])
  return Object.fromEntries([...byStatus].sort(([a], [b]) => a - b).map(([status, list]) => [String(status), {
    description: list.map((c) => `\`${c}\`: ${ERROR_CODES[c].title}`).join('; '),
    headers: problemHeaders(status, list, surface),
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' }, example: problemExample(status, list) } },
    'x-error-codes': list,
  }]))
}

const CSV_MEDIA = { 'text/csv': { schema: { type: 'string', description: 'RFC 4180 CSV with a header row' } } }

const EVENT_ID_SCHEMA = { type: 'string', pattern: '^evt_[0-9a-f]{32}$', maxLength: 36, examples: ['evt_0190a4c2e7b87c3d9f1e2a3b4c5d6e7f'] }
const EVENT_STREAM_MEDIA = {
  'text/event-stream': {
    schema: { type: 'string', description: 'Server-sent events: each message has id (the event id) and data (one OperatorEvent as JSON); lines starting with a colon are heartbeats' },
  },
}

/** The media types of a success answer: JSON, CSV alone, either by the Accept header (route config `csv`), or server-sent events. */
function successContent(route: RouteOptions, json: () => JsonSchema): JsonSchema {
  if (route.config?.eventStream) return EVENT_STREAM_MEDIA
  if (route.config?.csv === 'only') return CSV_MEDIA
  return { 'application/json': json(), ...(route.config?.csv === 'alternative' ? CSV_MEDIA : {}) }
}

/** What sets one API's document apart: where its routes live, which error codes it speaks, how callers authenticate. */
export interface DocumentSpec {
  routePrefix: string
  surface: Surface
  title: string
  description: string
  /** Whether the API is for the operator's own people and systems (x-internal of its server) rather than the public. */
  internal: boolean
  /**
   * The tag of each resource, by the first segment of its paths ('' for the root), with what
   * the resource is. Every operation is tagged with its resource; one missing here is tagged
   * with the segment itself, undescribed, which the linters report.
   */
  tags: Record<string, { name: string, description: string }>
  /** OpenAPI security schemes, and the requirement applied to each operation. */
  securitySchemes?: Record<string, JsonSchema>
  security?: (route: RouteOptions) => Array<Record<string, string[]>> | undefined
  /** Error codes an operation can answer because of how it is secured. */
  securityErrors?: (route: RouteOptions) => ErrorCode[]
}

const resourceOf = (path: string) => path.split('/')[1].replace(/\.json$/, '')

/**
 * Documents made in this process, by spec and by what their routes declare: the same routes
 * make the same document. A node builds its app once, but the tests build one per case
 * (test/helpers/build.ts), and making the guest document again cost about 15 ms of CPU in
 * each, a tenth of test/api/booking.test.ts's whole CPU time. The key holds every field the
 * document reads from a route (its method, URL, schema and config); a few kept per spec.
 */
const madeDocuments = new Map<DocumentSpec, Map<string, JsonSchema>>()
const DOCUMENTS_KEPT_PER_SPEC = 4

/** The OpenAPI 3.1 document of one API's routes, built from the schemas that validate and serialize them. */
export function buildOpenApiDocument(routes: RouteOptions[], spec: DocumentSpec): JsonSchema {
  const key = JSON.stringify(routes.map((route) => [route.method, route.url, route.schema, route.config]))
  let made = madeDocuments.get(spec)
  if (!made) madeDocuments.set(spec, made = new Map())
  let document = made.get(key)
  if (!document) {
    document = makeOpenApiDocument(routes, spec)
    if (made.size >= DOCUMENTS_KEPT_PER_SPEC) made.delete(made.keys().next().value!)
    made.set(key, document)
  }
  return document
}

function makeOpenApiDocument(routes: RouteOptions[], spec: DocumentSpec): JsonSchema {
  const components: Record<string, JsonSchema> = {}
  const paths: Record<string, Record<string, JsonSchema>> = {}
  const usedTags = new Map<string, { name: string, description?: string }>()
  for (const route of routes) {
    const path = route.url.slice(spec.routePrefix.length).replace(/:([a-z_]+)/g, '{$1}') || '/'
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue
      const responses = route.schema?.response as Record<string, unknown> | undefined
      const successStatus = Object.keys(responses ?? {}).find((status) => status.startsWith('2')) ?? '200'
      const success = responses?.[successStatus]
      const extraErrors = spec.securityErrors?.(route) ?? []
      const body = route.schema?.body
      const resource = resourceOf(path)
      const tag = spec.tags[resource] ?? { name: resource }
      usedTags.set(tag.name, tag)
      paths[path] ??= {}
      paths[path][method.toLowerCase()] = {
        operationId: `${method.toLowerCase()}${path.replace(/[{}]/g, '').split(/[/_.-]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('') || 'Index'}`,
        tags: [tag.name],
        summary: route.config?.summary,
        description: route.config?.description,
        security: spec.security?.(route),
        parameters: parameters(route, components),
        requestBody: body ? { required: requiresBody(body), content: { 'application/json': { schema: toDocumentSchema(body, components), example: exampleOf(body) } } } : undefined,
        responses: {
          [successStatus]: {
            description: 'Success', headers: successHeaders(route, spec.surface),
            content: successContent(route, () => ({ schema: toDocumentSchema(success ?? {}, components), example: exampleOf(success) })),
          },
          ...errorResponses(route, extraErrors, spec.surface),
        },
      }
    }
  }
  toDocumentSchema(Problem, components)
  const usedHeaders = Object.fromEntries(Object.entries(HEADER_COMPONENTS).filter(([name]) => JSON.stringify(paths).includes(`"#/components/headers/${name}"`)))
  return JSON.parse(JSON.stringify({
    openapi: '3.1.0',
    info: { title: spec.title, version: API_VERSION, description: spec.description },
    // In the spec's order (how documentation tools list them), then any undeclared resource.
    tags: [...Object.values(spec.tags).filter((t) => usedTags.has(t.name)), ...[...usedTags.values()].filter((t) => t.description === undefined)],
    paths,
    components: { schemas: components, headers: usedHeaders, securitySchemes: spec.securitySchemes },
    'x-error-codes': Object.fromEntries(codesOfSurface(spec.surface).map((code) => [code, { status: ERROR_CODES[code].status, title: ERROR_CODES[code].title }])),
  }))
}

/**
 * The document as served to one request: its one server is the absolute base URL the
 * request reached (scheme and host as the client used them, through a trusted proxy when
 * TOURDESK_TRUST_PROXY says so), since tools resolve relative server URLs against the
 * document's own location only sometimes.
 */
export function servedDocument(document: JsonSchema, request: FastifyRequest, spec: DocumentSpec, basePath: string): JsonSchema {
  const server = { url: `${request.protocol}://${request.host}${basePath}`, description: request.catalog.instance.name, 'x-internal': spec.internal }
  return { ...document, servers: [server] }
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
