import assert from 'node:assert/strict'
import { test } from 'node:test'
import { KeptAnswers } from '../../src/http/kept-answers.ts'

const body = (bytes: number) => Buffer.alloc(bytes, 'x')

test('kept answers stay within their budget of bytes, the least recently used dropped first', () => {
  const kept = new KeptAnswers(100)
  kept.set('a', body(40))
  kept.set('b', body(40))
  assert.equal(kept.get('a')?.length, 40, 'a is now the most recently used')
  kept.set('c', body(40))
  assert.equal(kept.get('b'), undefined, 'b was the least recently used')
  assert.equal(kept.get('a')?.length, 40)
  assert.equal(kept.get('c')?.length, 40)
})

test('an answer over the whole budget is not kept, and drops nothing', () => {
  const kept = new KeptAnswers(100)
  kept.set('a', body(60))
  kept.set('huge', body(101))
  assert.equal(kept.get('huge'), undefined)
  assert.equal(kept.get('a')?.length, 60)
})

test('setting a key again replaces its answer and counts only the new one', () => {
  const kept = new KeptAnswers(100)
  kept.set('a', body(60))
  kept.set('a', body(60))
  kept.set('b', body(40))
  assert.equal(kept.get('a')?.length, 60, 'the first a no longer counts')
  assert.equal(kept.get('b')?.length, 40)
})
