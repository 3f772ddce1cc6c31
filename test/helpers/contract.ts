import assert from 'node:assert/strict'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

const DOC_ID = 'https://tourdesk.test/openapi.json'

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1')

/**
 * Checks every response a test receives against the schema openapi.json documents for that
 * path, method and status, so the document and the behaviour cannot drift apart.
 */
export class ContractChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true })
  private readonly templates: { template: string, pattern: RegExp }[]

  constructor(readonly document: Record<string, any>) {
    addFormats.default(this.ajv)
    this.ajv.addSchema(document, DOC_ID)
    this.templates = Object.keys(document.paths).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
    }))
  }

  check(method: string, path: string, status: number, contentType: string | null, body: unknown): void {
    const match = this.templates.find((t) => t.pattern.test(path.split('?')[0] || '/'))
    assert.ok(match, `openapi.json documents no path matching ${path}`)
    const operation = this.document.paths[match.template][method.toLowerCase()]
    if (!operation) {
      assert.equal(status, 405, `${method} ${path} is undocumented but answered ${status}`)
      return
    }
    const response = operation.responses[String(status)]
    assert.ok(response, `openapi.json documents no ${status} for ${method} ${match.template} (body: ${JSON.stringify(body)})`)
    const mediaType = status >= 400 ? 'application/problem+json' : 'application/json'
    assert.ok(contentType?.startsWith(mediaType), `${method} ${path} ${status} answered ${contentType}, documented ${mediaType}`)
    const pointer = ['paths', match.template, method.toLowerCase(), 'responses', String(status), 'content', mediaType, 'schema'].map(escapePointer).join('/')
    const validate = this.ajv.getSchema(`${DOC_ID}#/${pointer}`)
    assert.ok(validate, `no schema at ${pointer}`)
    assert.ok(validate(body), `${method} ${path} ${status} does not match openapi.json: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`)
    if (status >= 400) {
      const codes: string[] = response['x-error-codes'] ?? []
      assert.ok(codes.includes((body as { code: string }).code), `${method} ${match.template} documents ${codes.join(', ')} for ${status}, got ${(body as { code: string }).code}`)
    }
  }
}

/**
 * One checker per document, kept for the life of the test process: its Ajv compiles each
 * response schema on first use, and a file builds many services that serve the same
 * document. `servers` names each service's own origin, which the checks do not read.
 */
const checkers = new Map<string, ContractChecker>()

export function contractFor(document: Record<string, any>): ContractChecker {
  const key = JSON.stringify({ ...document, servers: null })
  let checker = checkers.get(key)
  if (!checker) {
    checker = new ContractChecker(document)
    checkers.set(key, checker)
  }
  return checker
}
