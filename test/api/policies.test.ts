import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, demoCatalog } from '../helpers/build.ts'

test('GET /policies answers the instance cancellation policy, payment on arrival and the hold length', async (t) => {
  const service = await build(t)
  const res = await service.client().get('/policies')
  assert.equal(res.status, 200)
  const lisbon = demoCatalog().instances[0]
  // The file's translations are read by asking for a language (test/api/languages.test.ts); without one, the default's terms.
  const { translations: _translations, ...terms } = lisbon.cancellation_policy
  assert.deepEqual(res.body.cancellation, terms)
  assert.deepEqual(res.body.payment, { when: 'on_arrival', methods: lisbon.payment_methods })
  assert.equal(res.body.hold_minutes, lisbon.hold_minutes)
})

test('TOURDESK_HOLD_SECONDS-style override shows in hold_minutes', async (t) => {
  const service = await build(t, { holdSeconds: 90 })
  const res = await service.client().get('/policies')
  assert.equal(res.body.hold_minutes, 1.5)
})

test('each instance answers its own policy', async (t) => {
  const service = await build(t)
  const res = await service.client('nyc').get('/policies')
  assert.equal(res.body.cancellation.id, demoCatalog().instances[1].cancellation_policy.id)
})
