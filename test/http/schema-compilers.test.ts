import assert from 'node:assert/strict'
import { test } from 'node:test'
import { compiledOncePerProcess, compiledOnFirstUse } from '../../src/http/schema-compilers.ts'
import { ALFAMA } from '../helpers/booking-fixtures.ts'
import { build } from '../helpers/build.ts'

// Starting an app compiles every route's validators and serializers; the tests build an app
// per test case, so src/http/schema-compilers.ts compiles each schema once per process.

function countingFactory() {
  const compiles: unknown[] = []
  const factory = compiledOncePerProcess((options: unknown) => (route) => {
    compiles.push(route.schema)
    return (value: unknown) => `${JSON.stringify(options)} ${JSON.stringify(route.schema)} ${JSON.stringify(value)}`
  })
  return { factory, compiles }
}

test('an equal schema is compiled once, whichever app and whichever object carries it', () => {
  const { factory, compiles } = countingFactory()
  const options = { customOptions: { coerceTypes: false } }
  const first = factory(options)({ schema: { type: 'object', properties: { party: { type: 'integer' } } } })
  const again = factory({ customOptions: { coerceTypes: false } })({ schema: { type: 'object', properties: { party: { type: 'integer' } } } })
  assert.equal(again, first, 'the second app gets the function the first compiled')
  assert.equal(compiles.length, 1)
})

test('another schema or other compiler options are compiled anew', () => {
  const { factory, compiles } = countingFactory()
  const compile = factory({ customOptions: { coerceTypes: false } })
  const integer = compile({ schema: { type: 'integer' } })
  const text = compile({ schema: { type: 'string' } })
  const coercing = factory({ customOptions: { coerceTypes: true } })({ schema: { type: 'integer' } })
  assert.equal(compiles.length, 3)
  assert.notEqual(text, integer)
  assert.notEqual(coercing, integer)
})

test('a schema is compiled when a request first needs it, not when the app starts, and the validator answers as the compiled one', () => {
  const compiles: unknown[] = []
  const compile = compiledOnFirstUse(() => (route) => {
    compiles.push(route.schema)
    const validate = Object.assign((value: unknown) => {
      validate.errors = typeof value === 'number' ? null : [{ message: 'must be integer' }]
      return validate.errors === null
    }, { errors: null as unknown, schemaEnv: { root: true } })
    return validate
  })({})
  const validate = compile({ schema: { type: 'integer' } }) as ((value: unknown) => boolean) & { errors: unknown, schemaEnv: unknown }
  assert.equal(compiles.length, 0, 'nothing compiled at start')
  assert.equal(validate('two'), false)
  assert.deepEqual(validate.errors, [{ message: 'must be integer' }])
  assert.equal(validate(2), true)
  assert.equal(validate.errors, null)
  assert.deepEqual(validate.schemaEnv, { root: true })
  assert.equal(compiles.length, 1, 'compiled once, at the first request')
})

test('two apps in one process validate and serialize alike with the kept functions', async (t) => {
  for (const round of [1, 2]) {
    const service = await build(t)
    const client = service.client()
    const refused = await client.post('/booking', { ...ALFAMA, party: 'two' }, { headers: (await client.session()).headers })
    assert.equal(refused.status, 400, `app ${round}: ${refused.text}`)
    assert.equal(refused.body.code, 'validation_failed')
    const held = await client.post('/booking', ALFAMA, { headers: (await client.session()).headers })
    assert.equal(held.status, 200, `app ${round}: ${held.text}`)
    assert.equal(held.body.party, ALFAMA.party)
  }
})
