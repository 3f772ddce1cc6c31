import assert from 'node:assert/strict'
import { once } from 'node:events'
import net from 'node:net'
import { test } from 'node:test'
import { startService } from '../helpers/build.ts'

// A connection that has not sent a request (a browser's preconnect) must not hold the app's
// close until the server's headers timeout, about 70 s (src/http/unused-connections.ts). The
// test's own timeout is the bound: before the fix it ran out.
test('closing the app closes a connection that never sent a request', { timeout: 30_000 }, async () => {
  const service = await startService()
  const url = new URL(service.origin)
  try {
    const silent = net.connect(Number(url.port), url.hostname)
    await once(silent, 'connect')
    const closedByServer = once(silent, 'close')
    await service.app.close()
    await closedByServer
    assert.equal(silent.destroyed, true)
  } finally {
    await service.close()
  }
})
