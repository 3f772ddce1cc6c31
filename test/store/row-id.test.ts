import assert from 'node:assert/strict'
import { test } from 'node:test'
import { newRowId } from '../../src/store/row-id.ts'

test('row ids are version 7 UUIDs that sort in the order they were made, within one millisecond too', () => {
  const ids = Array.from({ length: 10_000 }, () => newRowId(1_790_000_000_000))
  for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  for (let i = 1; i < ids.length; i++) assert.ok(ids[i - 1] < ids[i], `${ids[i - 1]} before ${ids[i]}`)
  assert.ok(newRowId(1_790_000_000_000 - 5_000) > ids[ids.length - 1], 'a clock stepped back does not reorder them')
})
