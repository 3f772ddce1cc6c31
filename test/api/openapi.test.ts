import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { build, type TestService } from '../helpers/build.ts'

type Operation = { parameters?: Parameter[], requestBody?: any, responses: Record<string, any> }
type Parameter = { name: string, in: string, required: boolean, schema: Record<string, unknown> }

/** The error table of docs/guest-api.md ("Errors"): every code with its status. */
const CONTRACT_ERRORS: Record<string, number> = {
  invalid_json: 400,
  validation_failed: 400,
  csrf_missing: 403,
  csrf_invalid: 403,
  origin_not_allowed: 403,
  not_found: 404,
  tour_not_found: 404,
  no_booking: 404,
  method_not_allowed: 405,
  insufficient_capacity: 409,
  cancellation_not_allowed: 409,
  idempotency_in_flight: 409,
  hold_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  slot_not_found: 422,
  cutoff_passed: 422,
  party_out_of_range: 422,
  invalid_addon: 422,
  invalid_promo_code: 422,
  date_out_of_range: 422,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
}

async function openapi(service: TestService, prefix = 'lisbon') {
  const res = await service.client(prefix).get('/openapi.json')
  assert.equal(res.status, 200)
  assert.equal(res.headers.get('content-type')?.split(';')[0], 'application/json')
  return res.body as { openapi: string, info: { version: string }, servers: { url: string }[], paths: Record<string, Record<string, Operation>>, components: { schemas: Record<string, unknown> }, 'x-error-codes': Record<string, { status: number }> }
}

function operations(document: Awaited<ReturnType<typeof openapi>>): [string, string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => [method.toUpperCase(), path, op] as [string, string, Operation]))
}

function documentedCodes(op: Operation, status: number): string[] {
  return op.responses[String(status)]?.['x-error-codes'] ?? []
}

test('/openapi.json validates as OpenAPI 3.1 and every $ref in it resolves', async (t) => {
  const service = await build(t)
  const document = await openapi(service)
  const validator = new Validator()
  const result = await validator.validate(structuredClone(document))
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2))
  assert.equal(validator.version, '3.1')
  assert.doesNotThrow(() => validator.resolveRefs())
})

test('/openapi.json is OpenAPI 3.1.0 with info.version 1.4.0, served for each instance at its own base', async (t) => {
  const service = await build(t)
  const lisbon = await openapi(service, 'lisbon')
  const nyc = await openapi(service, 'nyc')
  for (const [document, prefix] of [[lisbon, 'lisbon'], [nyc, 'nyc']] as const) {
    assert.equal(document.openapi, '3.1.0')
    assert.equal(document.info.version, '1.4.0')
    assert.deepEqual(document.servers.map((s) => s.url), [`${service.origin}/api/${prefix}`])
  }
  assert.deepEqual({ ...lisbon, servers: [] }, { ...nyc, servers: [] }, 'the interface is the same for every instance')
})

test('every route the index lists, and the index itself, is documented with its methods; besides them only the extensions', async (t) => {
  const service = await build(t)
  const document = await openapi(service)
  const index = await service.client().get('')
  assert.equal(index.body.endpoints.length, 10)
  const routes = [['GET', '/'], ...index.body.endpoints.flatMap((entry: string) => {
    const [methods, target] = entry.split(' ')
    const path = target.replace('/api/lisbon', '').split('?')[0]
    return methods.split('|').map((method) => [method, path])
  })]
  for (const [method, path] of routes) {
    assert.ok(document.paths[path]?.[method.toLowerCase()], `${method} ${path} is documented`)
  }
  // docs/guest-api.md, "Index": the index keeps its ten entries; openapi.json documents the extensions.
  const listed = new Set(routes.map(([method, path]) => `${method} ${path}`))
  assert.deepEqual(operations(document).map(([method, path]) => `${method} ${path}`).filter((op) => !listed.has(op)), ['POST /booking/lookup', 'GET /newsletter/confirm'])
})

test('every error code of the guest contract is documented with its status, on the operations and in x-error-codes', async (t) => {
  const service = await build(t)
  const document = await openapi(service)
  for (const [code, status] of Object.entries(CONTRACT_ERRORS)) {
    assert.equal(document['x-error-codes'][code]?.status, status, `x-error-codes lists ${code} as ${status}`)
    const where = operations(document).filter(([, , op]) => documentedCodes(op, status).includes(code))
    assert.ok(where.length > 0, `some operation documents ${code} under ${status}`)
  }
})

test('every operation documents the routing, rate-limit and server errors, with Allow on 405 and Retry-After on 429 and 503', async (t) => {
  const service = await build(t)
  const document = await openapi(service)
  for (const [method, path, op] of operations(document)) {
    const name = `${method} ${path}`
    assert.ok(documentedCodes(op, 404).includes('not_found'), name)
    assert.ok(documentedCodes(op, 405).includes('method_not_allowed'), name)
    assert.ok(documentedCodes(op, 429).includes('rate_limited'), name)
    assert.ok(documentedCodes(op, 500).includes('internal'), name)
    assert.ok(documentedCodes(op, 503).includes('unavailable'), name)
    assert.ok(op.responses['405'].headers?.Allow, `${name} documents Allow on 405`)
    assert.ok(op.responses['429'].headers?.['Retry-After'], `${name} documents Retry-After on 429`)
    assert.ok(op.responses['503'].headers?.['Retry-After'], `${name} documents Retry-After on 503`)
    for (const [status, response] of Object.entries(op.responses)) {
      assert.ok(response.headers?.RateLimit && response.headers['RateLimit-Policy'], `${name} ${status} documents the rate-limit headers`)
      assert.ok(response.headers['Access-Control-Allow-Origin'], `${name} ${status} documents the CORS header`)
      if (Number(status) < 400) continue
      const { schema, example } = response.content['application/problem+json']
      assert.deepEqual(schema, { $ref: '#/components/schemas/Problem' }, `${name} ${status} is a Problem`)
      assert.ok(response['x-error-codes'].includes(example.code), `${name} ${status}: its example is one of its codes`)
    }
  }
})

test('the read side documents its own errors', async (t) => {
  const service = await build(t)
  const { paths } = await openapi(service)
  const availability = paths['/availability'].get
  assert.ok(documentedCodes(availability, 400).includes('validation_failed'))
  assert.ok(documentedCodes(availability, 404).includes('tour_not_found'))
  assert.deepEqual(documentedCodes(availability, 422).sort(), ['date_out_of_range', 'invalid_unit', 'party_mismatch', 'party_out_of_range', 'unit_not_allowed'])
  assert.ok(documentedCodes(paths['/tours/{id}'].get, 404).includes('tour_not_found'))
})

test('operations with path parameters or a validated query document 400 validation_failed, and an over-long tour id gets it', async (t) => {
  const service = await build(t)
  const document = await openapi(service)
  for (const [method, path, op] of operations(document)) {
    if ((op.parameters ?? []).some((p) => p.in === 'path')) {
      assert.ok(documentedCodes(op, 400).includes('validation_failed'), `${method} ${path} documents 400 validation_failed`)
    }
  }
  for (const path of ['/tours', '/availability']) assert.ok(documentedCodes(document.paths[path].get, 400).includes('validation_failed'), path)
  // The client checks the answer against the document.
  const res = await service.client().get(`/tours/${'a'.repeat(65)}`)
  assert.equal(res.status, 400, res.text)
  assert.equal(res.body.code, 'validation_failed')
  assert.ok(res.body.errors.some((e: { field: string }) => e.field === 'id'), res.text)
})

test('every POST and DELETE documents the errors any state-changing request can get, and answers them as documented', async (t) => {
  const service = await build(t)
  const document = await openapi(service)
  const expected: [number, string][] = [[403, 'origin_not_allowed'], [415, 'unsupported_media_type'], [413, 'payload_too_large'], [400, 'invalid_json']]
  for (const [method, path, op] of operations(document)) {
    if (method !== 'POST' && method !== 'DELETE') continue
    for (const [status, code] of expected) assert.ok(documentedCodes(op, status).includes(code), `${method} ${path} documents ${status} ${code}`)
  }
  // The client checks each answer against the document, including on routes without a body schema.
  const client = service.client()
  const foreign = await client.post('/session', undefined, { headers: { origin: 'https://evil.example' } })
  assert.equal(foreign.status, 403, foreign.text)
  assert.equal(foreign.body.code, 'origin_not_allowed')
  const text = await client.delete('/booking', { headers: { 'content-type': 'text/plain' }, body: 'release', raw: true })
  assert.equal(text.status, 415, text.text)
  const broken = await client.post('/session', '{', { raw: true })
  assert.equal(broken.status, 400, broken.text)
  assert.equal(broken.body.code, 'invalid_json')
})

test('GET /availability documents its query exactly as the interface gives it', async (t) => {
  const service = await build(t)
  const { paths } = await openapi(service)
  const byName = new Map((paths['/availability'].get.parameters ?? []).map((p) => [p.name, p]))
  assert.deepEqual([...byName.keys()].sort(), ['date', 'days', 'party', 'tour', 'units'])
  for (const p of byName.values()) assert.equal(p.in, 'query')
  assert.equal(byName.get('tour')!.required, true)
  for (const name of ['date', 'party', 'days', 'units']) assert.equal(byName.get(name)!.required, false, name)
  assert.equal(byName.get('date')!.schema.format, 'date')
  assert.equal(byName.get('party')!.schema.type, 'integer')
  assert.equal(byName.get('party')!.schema.minimum, 1)
  assert.deepEqual([byName.get('days')!.schema.type, byName.get('days')!.schema.minimum, byName.get('days')!.schema.maximum, byName.get('days')!.schema.default], ['integer', 1, 14, 7])
  const tours = new Map((paths['/tours'].get.parameters ?? []).map((p) => [p.name, p]))
  assert.equal(tours.get('q')?.required, false)
})

test('POST and DELETE /booking document the required X-CSRF-Token header', async (t) => {
  const service = await build(t)
  const { paths } = await openapi(service)
  for (const method of ['post', 'delete']) {
    const header = paths['/booking'][method].parameters?.find((p) => p.in === 'header' && p.name.toLowerCase() === 'x-csrf-token')
    assert.equal(header?.required, true, `${method} /booking`)
  }
})

test('component schemas have real names, and every record and body refers to one', async (t) => {
  const service = await build(t)
  const document = await openapi(service)
  const names = Object.keys(document.components.schemas)
  for (const name of names) {
    assert.match(name, /^[A-Z][A-Za-z]+$/, `component ${name} has a PascalCase name`)
    assert.doesNotMatch(name, /^(Def|Schema|Type|Object|Anonymous|Model)\d*$/i, `component ${name} names what it is`)
  }
  for (const record of ['IndexDocument', 'TourList', 'Tour', 'Availability', 'Slot', 'Policies', 'SessionGrant', 'Booking', 'Problem']) {
    assert.ok(names.includes(record), `components.schemas has ${record}`)
  }
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
  const success = (method: string, path: string) => document.paths[path][method].responses['200'].content['application/json'].schema
  assert.deepEqual(success('get', '/'), ref('IndexDocument'))
  assert.deepEqual(success('get', '/tours'), ref('TourList'))
  assert.deepEqual(success('get', '/tours/{id}'), ref('Tour'))
  assert.deepEqual(success('get', '/availability'), ref('Availability'))
  assert.deepEqual(success('get', '/policies'), ref('Policies'))
  for (const [method, path, op] of operations(document)) {
    if (path === '/openapi.json') continue
    assert.match(success(method.toLowerCase(), path).$ref ?? '', /^#\/components\/schemas\/[A-Z]/, `${method} ${path} answers a named record`)
    if (op.requestBody) {
      assert.match(op.requestBody.content['application/json'].schema.$ref ?? '', /^#\/components\/schemas\/[A-Z]/, `${method} ${path} takes a named body`)
    }
  }
})

test('every operation documents what the HTTP layer refuses before any route runs: 400 bad_request, 408, 417 and 431', async (t) => {
  const service = await build(t)
  const document = await openapi(service)
  assert.equal(document['x-error-codes'].expectation_failed?.status, 417)
  assert.equal(document['x-error-codes'].headers_too_large?.status, 431)
  for (const [method, path, op] of operations(document)) {
    const name = `${method} ${path}`
    assert.ok(documentedCodes(op, 400).includes('bad_request'), `${name} documents 400 bad_request`)
    assert.ok(documentedCodes(op, 408).includes('request_timeout'), `${name} documents 408`)
    assert.deepEqual(documentedCodes(op, 417), ['expectation_failed'], `${name} documents 417`)
    assert.deepEqual(documentedCodes(op, 431), ['headers_too_large'], `${name} documents 431`)
  }
})

test('POST /session documents the X-CSRF-Token and Set-Cookie headers it answers with, and the index the cookie', async (t) => {
  const service = await build(t)
  const { paths } = await openapi(service)
  const granted = paths['/session'].post.responses['200'].headers ?? {}
  assert.ok(granted['X-CSRF-Token'] && granted['Set-Cookie'])
  assert.match(granted['Set-Cookie'].description, /^When the request named no live session, a new one: sid=<session id>; Max-Age=86400; .*HttpOnly; SameSite=Lax/)
  assert.match(granted['Set-Cookie'].description, /Path=\/api\/<instance prefix>/)
  assert.ok(paths['/'].get.responses['200'].headers?.['Set-Cookie'])
  assert.match(paths['/booking'].post.responses['200'].headers?.['Set-Cookie'].description, /^When the sid cookie named the session: sid=<session id>; Max-Age=2592000;/)
  assert.equal(paths['/tours'].get.responses['200'].headers?.['Set-Cookie'], undefined, 'a route that makes no session sets no cookie')

  // What is documented is what is sent.
  const res = await service.client().post('/session')
  assert.equal(res.headers.get('x-csrf-token'), res.body.csrf_token)
  assert.match(res.headers.get('set-cookie') ?? '', new RegExp(`^sid=${res.body.session}; Max-Age=86400; Path=/api/lisbon; HttpOnly; SameSite=Lax$`))
})

test('POST /session and DELETE /booking document an optional body that takes no fields', async (t) => {
  const service = await build(t)
  const document = await openapi(service)
  for (const [method, path] of [['post', '/session'], ['delete', '/booking']]) {
    const body = document.paths[path][method].requestBody
    assert.equal(body?.required, false, `${method} ${path}: the body may be left out`)
    assert.deepEqual(body.content['application/json'].schema, { $ref: '#/components/schemas/NoBody' })
  }
  const noBody = document.components.schemas.NoBody as { type: string, properties: object, additionalProperties: boolean }
  assert.deepEqual([noBody.type, noBody.properties, noBody.additionalProperties], ['object', {}, false])
  for (const [method, path] of [['post', '/booking'], ['post', '/checkout'], ['post', '/contact'], ['post', '/newsletter']]) {
    assert.equal(document.paths[path][method].requestBody?.required, true, `${method} ${path} needs its body`)
  }
})

test('every route that reads a session documents X-Session with its pattern and 400 validation_failed for a malformed one', async (t) => {
  const service = await build(t)
  const document = await openapi(service)
  const readers = operations(document).filter(([, , op]) => (op.parameters ?? []).some((p) => p.in === 'header' && p.name === 'X-Session'))
  assert.deepEqual(readers.map(([method, path]) => `${method} ${path}`).sort(),
    ['DELETE /booking', 'GET /', 'GET /booking', 'POST /booking', 'POST /booking/lookup', 'POST /checkout', 'POST /contact', 'POST /newsletter', 'POST /session'])
  for (const [method, path, op] of readers) {
    const header = op.parameters!.find((p) => p.name === 'X-Session')!
    assert.equal(header.schema.pattern, '^[a-z0-9]{12}$')
    assert.match((header as unknown as { description: string }).description, /400 validation_failed/)
    assert.ok(documentedCodes(op, 400).includes('validation_failed'), `${method} ${path} documents 400 validation_failed`)
  }
  const query = document.paths['/booking'].get.parameters!.find((p) => p.in === 'query' && p.name === 'session')
  assert.equal(query?.schema.pattern, '^[a-z0-9]{12}$')
})

test('every decoy field of every form is described as one: people never fill it, and a submission that does is spam answered as if real', async (t) => {
  const service = await build(t)
  const { components } = await openapi(service)
  const forms = ['BookingRequest', 'CheckoutRequest', 'ContactRequest', 'NewsletterRequest']
  for (const form of forms) {
    const { properties } = components.schemas[form] as { properties: Record<string, { description?: string }> }
    for (const decoy of ['company', 'fax', 'middle_name', 'nickname', 'website']) {
      const description = properties[decoy]?.description ?? ''
      assert.match(description, /^Decoy: never fill this field\. People never do/, `${form}.${decoy}`)
      assert.match(description, /treated as spam and answered exactly as if it were real/, `${form}.${decoy}`)
    }
  }
})

test('the document names the absolute base URL the request reached as its one public server, https behind a trusted proxy', async (t) => {
  const service = await build(t, { trustProxy: true })
  const res = await service.client().get('/openapi.json', { headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'book.alfama-tejo.example' } })
  assert.deepEqual(res.body.servers, [{ url: 'https://book.alfama-tejo.example/api/lisbon', description: 'Alfama & Tejo Tours', 'x-internal': false }])
})

test('security: POST and DELETE /booking need a session and its X-CSRF-Token, session readers take one optionally, the rest none', async (t) => {
  const service = await build(t)
  const { paths, components } = await openapi(service) as any
  assert.deepEqual(Object.keys(components.securitySchemes).sort(), ['csrfToken', 'sessionCookie', 'sessionHeader'])
  assert.deepEqual(paths['/booking'].post.security, [{ sessionCookie: [], csrfToken: [] }, { sessionHeader: [], csrfToken: [] }, { csrfToken: [] }],
    'POST /booking may name its session in the body')
  assert.deepEqual(paths['/booking'].delete.security, [{ sessionCookie: [], csrfToken: [] }, { sessionHeader: [], csrfToken: [] }])
  assert.deepEqual(paths['/checkout'].post.security, [{ sessionCookie: [] }, { sessionHeader: [] }, {}])
  assert.deepEqual(paths['/tours'].get.security, [{}])
})

test('every operation has a summary, a description and one tag, and every tag is declared with a description', async (t) => {
  const service = await build(t)
  const document = await openapi(service) as any
  const declared = new Map<string, string>(document.tags.map((tag: { name: string, description: string }) => [tag.name, tag.description]))
  for (const [method, path, op] of operations(document) as [string, string, any][]) {
    assert.ok(op.summary && op.description, `${method} ${path} is summarized and described`)
    assert.equal(op.tags.length, 1)
    assert.ok(declared.get(op.tags[0]), `${method} ${path}: tag ${op.tags[0]} is declared with a description`)
  }
})

test('enums carry their type and integers their format, as client generators expect', async (t) => {
  const service = await build(t)
  const document = await openapi(service)
  const seen = { enums: 0, integers: 0 }
  JSON.stringify(document, (_key, value) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      if (Array.isArray(value.enum) && value.type === undefined && value.schema === undefined) assert.fail(`an enum without type: ${JSON.stringify(value)}`)
      if (value.type === 'integer') {
        seen.integers++
        assert.ok(value.format === 'int32' || value.format === 'int64', JSON.stringify(value))
      }
      if (Array.isArray(value.enum)) seen.enums++
    }
    return value
  })
  assert.ok(seen.enums > 0 && seen.integers > 0)
  assert.equal((document.components.schemas.BookingStatus as any).type, 'string')
})

test('every example in the document (bodies, answers, parameters, schemas) is valid under the schema beside it', async (t) => {
  const service = await build(t)
  const document = await openapi(service) as any
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats.default(ajv)
  ajv.addSchema(document, 'doc')
  const at = (pointer: string[]) => pointer.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')
  const valid = (pointer: string[], example: unknown) => {
    const validate = ajv.getSchema(`doc#/${at(pointer)}`)!
    assert.ok(validate(example), `${pointer.join(' ')}: ${ajv.errorsText(validate.errors)}`)
  }
  let checked = 0
  for (const [path, item] of Object.entries(document.paths) as [string, any][]) {
    for (const [method, op] of Object.entries(item) as [string, any][]) {
      const base = ['paths', path, method]
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {}) as [string, any][]) {
        if (media.example !== undefined) { valid([...base, 'requestBody', 'content', type, 'schema'], media.example); checked++ }
      }
      for (const [status, response] of Object.entries(op.responses) as [string, any][]) {
        for (const [type, media] of Object.entries(response.content ?? {}) as [string, any][]) {
          if (media.example !== undefined) { valid([...base, 'responses', status, 'content', type, 'schema'], media.example); checked++ }
        }
      }
      op.parameters.forEach((parameter: any, i: number) => {
        if (parameter.example !== undefined) { valid([...base, 'parameters', String(i), 'schema'], parameter.example); checked++ }
      })
    }
  }
  for (const [name, schema] of Object.entries(document.components.schemas) as [string, any][]) {
    for (const example of schema.examples ?? []) { valid(['components', 'schemas', name], example); checked++ }
  }
  assert.ok(checked > 50, `${checked} examples checked`)
  assert.ok(document.paths['/booking'].post.requestBody.content['application/json'].example, 'the hold has an example body (Dredd needs one)')
  assert.ok(document.paths['/tours/{id}'].get.parameters.find((p: any) => p.name === 'id').example, 'a path parameter has an example')
})
