import assert from 'node:assert/strict'
import { test } from 'node:test'
import { DEFAULT_RETRY_SCHEDULE_MS, DISABLE_AFTER_MS, retryScheduleInWords, waitInWords } from '../../src/domain/webhook-retry.ts'

test('the default webhook retries, in the words the back office and the warning email use: nine over about three days, not "a day"', () => {
  const total = DEFAULT_RETRY_SCHEDULE_MS.reduce((sum, ms) => sum + ms, 0)
  assert.equal(total, (75 * 60 + 35) * 60_000 + 5_000, '75 h 35 min 5 s')
  assert.equal(retryScheduleInWords(), 'retried 9 times, after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h, over about 3 days')
  assert.equal(waitInWords(DISABLE_AFTER_MS), '5 days')
})

test('a schedule set for tests reads as itself', () => {
  assert.equal(retryScheduleInWords([1000, 2000]), 'retried 2 times, after 1 s and 2 s, over about 3 s')
  assert.equal(retryScheduleInWords([90 * 60_000]), 'retried 1 time, after 90 min, over about 2 h')
})
