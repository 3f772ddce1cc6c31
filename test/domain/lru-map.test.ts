import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { LruMap } from '../../src/domain/lru-map.ts'

// LruMap keeps the most recently used entries (src/domain/lru-map.ts); a get of the entry
// used last leaves the order as it is. Checked against the plainest model: a list in order of use.
test('an LruMap keeps exactly the most recently used entries, under any mix of gets and sets', () => {
  const operation = fc.oneof(
    fc.record({ kind: fc.constant('get' as const), key: fc.integer({ min: 0, max: 3 }) }),
    fc.record({ kind: fc.constant('set' as const), key: fc.integer({ min: 0, max: 3 }), value: fc.integer() }),
  )
  fc.assert(fc.property(fc.integer({ min: 1, max: 4 }), fc.array(operation, { maxLength: 60 }), (limit, operations) => {
    const map = new LruMap<number, number>(limit)
    let model: Array<[number, number]> = []
    for (const op of operations) {
      const found = model.find(([key]) => key === op.key)
      if (op.kind === 'get') {
        assert.equal(map.get(op.key), found?.[1])
        if (found) model = [...model.filter(([key]) => key !== op.key), found]
      } else {
        map.set(op.key, op.value)
        model = [...model.filter(([key]) => key !== op.key), [op.key, op.value] as [number, number]].slice(-limit)
      }
    }
    for (let key = 0; key <= 3; key++) assert.equal(map.get(key), model.find(([k]) => k === key)?.[1], `key ${key}`)
  }), { numRuns: 1000 })
})
