import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import type { Middleware } from 'openapi-fetch'
import ts from 'typescript'
import { createGuestClient, type GuestClient } from '../../client/index.ts'
import { GUEST_CLIENT_TYPES_PATH, guestClientTypes } from '../../scripts/generate-client.ts'
import { build } from '../helpers/build.ts'
import type { ContractChecker } from '../helpers/contract.ts'
import { GUEST, runGuestFlow } from './guest-flow.ts'

const HERE = dirname(fileURLToPath(import.meta.url))
const FLOW_TSCONFIG = join(HERE, 'tsconfig.flow.json')
/** The files that must type-check without a cast: the flow and the client it uses. */
const CAST_FREE = [join(HERE, 'guest-flow.ts'), fileURLToPath(new URL('../../client/index.ts', import.meta.url))]

/** The flow's program, compiled as test/client/tsconfig.flow.json says (strict, generated types included). */
function compileFlow(): { options: ts.CompilerOptions, program: ts.Program } {
  const config = ts.readConfigFile(FLOW_TSCONFIG, ts.sys.readFile)
  assert.equal(config.error, undefined)
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, HERE)
  return { options: parsed.options, program: ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options }) }
}

/** Each way the source steps outside the types: `as`, `<T>x`, `x!`, `any`, and the comments that silence the compiler. */
function escapesFromTypes(source: ts.SourceFile): string[] {
  const found: string[] = []
  const at = (node: ts.Node) => `${source.fileName}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`
  const visit = (node: ts.Node) => {
    if (ts.isAsExpression(node)) found.push(`\`as\` at ${at(node)}`)
    if (ts.isTypeAssertionExpression(node)) found.push(`<type> assertion at ${at(node)}`)
    if (ts.isNonNullExpression(node)) found.push(`non-null assertion at ${at(node)}`)
    if (node.kind === ts.SyntaxKind.AnyKeyword) found.push(`\`any\` at ${at(node)}`)
    ts.forEachChild(node, visit)
  }
  visit(source)
  for (const match of source.text.matchAll(/@ts-(ignore|expect-error|nocheck)/g)) found.push(`@ts-${match[1]} in ${source.fileName}`)
  return found
}

/** Checks every answer the client receives against openapi.json, as the tests' own client does. */
function checkedAgainst(contract: ContractChecker): Middleware {
  return {
    async onResponse({ request, response, schemaPath }) {
      const text = await response.clone().text()
      const contentType = response.headers.get('content-type')
      contract.check(request.method, schemaPath, response.status, contentType, contentType?.includes('json') && text !== '' ? JSON.parse(text) : text)
    },
  }
}

describe('the generated guest client', () => {
  test('client/guest-api.d.ts is what `npm run client:generate` writes from openapi.json today', async () => {
    const committed = readFileSync(GUEST_CLIENT_TYPES_PATH, 'utf8').split('\n')
    const generated = (await guestClientTypes()).split('\n')
    const line = generated.findIndex((text, i) => text !== committed[i])
    const stale = line === -1 ? committed.length !== generated.length : true
    assert.ok(!stale, `client/guest-api.d.ts is stale: run \`npm run client:generate\` (first difference at line ${line + 1}: `
      + `committed ${JSON.stringify(committed[line])}, generated ${JSON.stringify(generated[line])})`)
  })

  test('the guest flow compiles under tsc --strict, with no cast and no any', () => {
    const { options, program } = compileFlow()
    assert.equal(options.strict, true)
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')
      + (d.file ? ` (${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1})` : ''))
    assert.deepEqual(diagnostics, [])
    for (const file of CAST_FREE) {
      const source = program.getSourceFile(file)
      assert.ok(source, `${file} is part of the flow's program`)
      assert.deepEqual(escapesFromTypes(source), [])
    }
  })

  test('the generated client runs the whole flow against the service: book on one device, look up by link and by code on others, cancel', async (t) => {
    const service = await build(t)
    const device = (): GuestClient => {
      const client = createGuestClient(service.origin, 'lisbon')
      client.use(checkedAgainst(service.contract))
      return client
    }
    const laptop = device()
    const result = await runGuestFlow(laptop, device(), device())

    assert.match(result.index.session, /^[a-z0-9]{12}$/)
    assert.equal(result.laptopSession.session, result.index.session, 'the client kept the sid cookie the index set')
    assert.equal(result.held.status, 'held')
    assert.equal(result.held.tour.id, result.tour.id)
    assert.equal(result.held.start, result.slot.start)
    assert.equal(result.read.id, result.held.id)
    assert.ok(['confirmed', 'requested'].includes(result.checkedOut.status), result.checkedOut.status)
    assert.equal(result.checkedOut.id, result.held.id)
    assert.equal(result.checkedOut.contact?.email?.toLowerCase(), GUEST.email.toLowerCase())

    assert.equal(result.openedByLink.id, result.held.id, 'the manage link finds the booking')
    assert.notEqual(result.phoneSession.session, result.laptopSession.session, 'the phone is another visitor')
    assert.equal(result.lookedUp.id, result.held.id, 'code and email (in another case) find the booking')
    assert.equal(result.readOnPhone.id, result.held.id)
    assert.deepEqual(result.readOnPhone.cancellation_now, { allowed: true, fee_percent: 0, fee: 0 }, 'the latest departure in 14 days is free to cancel')
    assert.equal(result.cancelled.status, 'cancelled')
    assert.equal(result.cancelled.cancellation?.fee, result.readOnPhone.cancellation_now.fee, 'the fee is the one stated before cancelling')

    const { data: onLaptop } = await laptop.GET('/booking')
    assert.equal(onLaptop?.status, 'cancelled', 'the laptop sees the cancellation made on the phone')
  })
})
