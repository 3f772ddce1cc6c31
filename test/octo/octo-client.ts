import assert from 'node:assert/strict'
import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import { fileURLToPath } from 'node:url'
import type { TestService } from '../helpers/build.ts'

// Every OCTo answer of the tests is checked against OCTo's own OpenAPI description, read from
// the YAML that @octocloud/types ships (parsed by @seriousme/openapi-schema-validator, a direct
// development dependency), with the project's Ajv.
const SPEC_PATH = fileURLToPath(new URL('../../node_modules/@octocloud/types/src/openapi.yaml', import.meta.url))
let compiled: Promise<{ ajv: Ajv, paths: Record<string, any> }> | undefined

async function octoSpec() {
  compiled ??= (async () => {
    const validator = new Validator()
    const result = await validator.validate(SPEC_PATH)
    assert.ok(result.valid, 'OCTo\'s OpenAPI description is itself valid')
    const spec = validator.specification as any
    const ajv = new Ajv({ strict: false, allErrors: true })
    addFormats.default(ajv)
    ajv.addSchema(nullableRefs({ components: spec.components }), 'octo')
    return { ajv, paths: spec.paths }
  })()
  return compiled
}

/**
 * OpenAPI 3.0 writes a nullable reference as `{type, allOf: [{$ref}], nullable: true}`; Ajv lets null past `type` but not past the reference,
 * so such a schema is given its null explicitly.
 */
function nullableRefs(node: any): any {
  if (Array.isArray(node)) return node.map(nullableRefs)
  if (node === null || typeof node !== 'object') return node
  const copy = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, nullableRefs(v)]))
  if (copy.nullable === true && (copy.type === undefined || copy.allOf !== undefined || copy.$ref !== undefined)) {
    const { nullable: _nullable, ...rest } = copy
    return { anyOf: [{ type: 'null' }, rest] }
  }
  return copy
}

const validators = new Map<string, ValidateFunction>()

/** Checks a body against the schema OCTo gives `path` (as the YAML writes it, e.g. /bookings/{uuid}) for `method`; errors against the 400 schema. */
export async function checkAgainstOcto(method: string, path: string, status: number, body: unknown): Promise<void> {
  const { ajv, paths } = await octoSpec()
  const answer = status === 200 ? '200' : '400'
  const key = `${method} ${path} ${answer}`
  let validate = validators.get(key)
  if (!validate) {
    const schema = paths[path]?.[method.toLowerCase()]?.responses?.[answer]?.content?.['application/json']?.schema
    assert.ok(schema, `OCTo describes ${key}`)
    const rewritten = nullableRefs(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"octo#/components/')))
    validate = ajv.compile(rewritten)
    validators.set(key, validate)
  }
  const check = validate
  assert.ok(check(body), `${key} answer does not match OCTo's description: ${ajv.errorsText(check.errors)}\n${JSON.stringify(body).slice(0, 2000)}`)
}

export interface OctoResponse { status: number, headers: Headers, body: any }

/** Real HTTP to an instance's OCTo API with a key; every answer is checked against OCTo's description under `specPath`. */
export class OctoClient {
  constructor(readonly service: TestService, readonly prefix: string, readonly key: string | null, readonly capabilities = 'octo/pricing') {}

  async request(method: string, path: string, specPath: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<OctoResponse> {
    const headers: Record<string, string> = { 'octo-capabilities': this.capabilities, ...extraHeaders }
    if (this.key !== null) headers.authorization = `Bearer ${this.key}`
    if (body !== undefined) headers['content-type'] = 'application/json'
    const response = await fetch(`${this.service.origin}/octo/${this.prefix}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    const text = await response.text()
    assert.match(response.headers.get('content-type') ?? '', /application\/json/, `${method} ${path}: ${text}`)
    const parsed = JSON.parse(text)
    await checkAgainstOcto(method, specPath, response.status, parsed)
    return { status: response.status, headers: response.headers, body: parsed }
  }
}
