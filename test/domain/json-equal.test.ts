import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { canonicalJson, jsonEqual } from '../../src/domain/json-equal.ts'

/** The same value with every object's keys in reverse order. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reordered(v)]))
}

test('jsonEqual agrees with comparing canonical JSON texts', () => {
  fc.assert(fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
    assert.equal(jsonEqual(a, b), canonicalJson(a) === canonicalJson(b))
    assert.equal(jsonEqual(a, reordered(a)), true)
  }), { numRuns: 2000 })
})

test('jsonEqual tells values that differ by one leaf, and counts undefined as absent as JSON does', () => {
  assert.equal(jsonEqual({ a: [1, { b: 'x' }] }, { a: [1, { b: 'y' }] }), false)
  assert.equal(jsonEqual({ a: [1, 2] }, { a: [1, 2, 3] }), false)
  assert.equal(jsonEqual({ a: 1 }, { a: 1, b: 2 }), false)
  assert.equal(jsonEqual({ a: 1, b: undefined }, { a: 1 }), true)
  assert.equal(jsonEqual({ a: 1 }, { a: 1, b: undefined }), true)
  assert.equal(jsonEqual([1, undefined], [1, null]), true)
  assert.equal(jsonEqual({ a: {} }, { a: [] }), false)
  assert.equal(jsonEqual(null, {}), false)
})
