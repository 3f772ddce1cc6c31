import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build } from '../helpers/build.ts'
import { testDialect } from '../helpers/database.ts'

// Every node runs webhook delivery every second (src/notify/webhook-delivery.ts). With nothing
// due and nothing old enough to prune it must commit nothing: on PostgreSQL every commit is
// announced to every node and makes each read its kept availability answers again (a guest's,
// a reseller's 90-day calendar) twice a second however quiet the bookings.

test(`a webhook run with nothing to deliver or prune leaves the change token as it was (${testDialect})`, async (t) => {
  const service = await build(t)
  const { store, scheduler } = service.context
  // PostgreSQL's token is null until this node listens for changes (src/store/change-token.ts).
  let before = store.changeToken()
  for (const deadline = Date.now() + 5_000; before === null && Date.now() < deadline;) before = await new Promise((resolve) => setImmediate(() => resolve(store.changeToken())))
  assert.notEqual(before, null, 'the node listens for changes')
  for (let run = 0; run < 3; run++) await scheduler.runNow('webhooks')
  assert.equal(store.changeToken(), before, 'no commit')
})
