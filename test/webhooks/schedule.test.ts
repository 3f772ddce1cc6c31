import assert from 'node:assert/strict'
import { test } from 'node:test'
import { readSettings } from '../../src/config/env.ts'
import { DEFAULT_RETRY_SCHEDULE_MS } from '../../src/domain/webhook-retry.ts'
import { afterFailure, retryAfterMs } from '../../src/notify/webhook-delivery.ts'

test('TOURDESK_WEBHOOK_RETRY_SCHEDULE and TOURDESK_WEBHOOKS_ALLOW_PRIVATE', () => {
  assert.deepEqual(readSettings({}).webhooks, { allowPrivate: false, retryScheduleMs: null })
  assert.deepEqual(readSettings({ TOURDESK_WEBHOOK_RETRY_SCHEDULE: '1s,2s, 5m,1h,1d,250ms', TOURDESK_WEBHOOKS_ALLOW_PRIVATE: 'on' }).webhooks,
    { allowPrivate: true, retryScheduleMs: [1000, 2000, 300_000, 3_600_000, 86_400_000, 250] })
  for (const bad of ['1', '1s,,2s', 'soon', '-1s', '1.5s']) {
    assert.throws(() => readSettings({ TOURDESK_WEBHOOK_RETRY_SCHEDULE: bad }), /TOURDESK_WEBHOOK_RETRY_SCHEDULE/, bad)
  }
  assert.throws(() => readSettings({ TOURDESK_WEBHOOKS_ALLOW_PRIVATE: 'yes' }), /TOURDESK_WEBHOOKS_ALLOW_PRIVATE/)
})

test('the default schedule: 5 s … 24 h with ±10 % jitter, then no more attempts; a later Retry-After wins, capped at 24 h', () => {
  assert.deepEqual(DEFAULT_RETRY_SCHEDULE_MS.map((ms) => ms / 1000), [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400])
  assert.equal(afterFailure(1, DEFAULT_RETRY_SCHEDULE_MS, null, () => 0), 4500)
  assert.equal(afterFailure(1, DEFAULT_RETRY_SCHEDULE_MS, null, () => 1), 5500)
  assert.equal(afterFailure(9, DEFAULT_RETRY_SCHEDULE_MS, null, () => 0.5), 86_400_000)
  assert.equal(afterFailure(10, DEFAULT_RETRY_SCHEDULE_MS, null), null, 'ten attempts in all')
  assert.equal(afterFailure(1, DEFAULT_RETRY_SCHEDULE_MS, 60_000, () => 0.5), 60_000)
  assert.equal(afterFailure(2, DEFAULT_RETRY_SCHEDULE_MS, 1_000, () => 0.5), 300_000, 'an earlier Retry-After does not shorten the schedule')
  assert.equal(afterFailure(1, DEFAULT_RETRY_SCHEDULE_MS, 7 * 86_400_000, () => 0.5), 86_400_000)
  assert.equal(retryAfterMs('120', 0), 120_000)
  assert.equal(retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('2015-10-21T07:27:00Z')), 60_000)
  assert.equal(retryAfterMs('whenever', 0), null)
  assert.equal(retryAfterMs(undefined, 0), null)
})
