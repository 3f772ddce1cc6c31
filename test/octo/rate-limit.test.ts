import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, demoCatalog, type TestService } from '../helpers/build.ts'
import { OctoClient } from './octo-client.ts'

// The octo rate-limit class (docs/resellers.md, "Keys"): one bucket per reseller key, answered
// 429 in OCTo's error shape with Retry-After. The manual clock stands still unless moved.

async function resellerKey(service: TestService, name: string) {
  const catalog = service.context.catalogs.get('lisbon')!
  const { secret } = await service.context.staff.createKey(catalog.instance.ref, { name, role: 'reseller' }, { type: 'system', id: null, name: 'test' }, service.clock.now())
  return new OctoClient(service, 'lisbon', secret)
}

async function get(octo: OctoClient, path: string) {
  const response = await fetch(`${octo.service.origin}/octo/lisbon${path}`, { headers: { authorization: `Bearer ${octo.key}` } })
  return { status: response.status, headers: response.headers, body: await response.json() as any }
}

test('each reseller key has its own octo bucket; an empty one answers 429 TOO_MANY_REQUESTS with Retry-After', async (t) => {
  const catalog = demoCatalog()
  catalog.instances[0].rate_limits = { octo: { burst: 3, per_minute: 60 } }
  const service = await build(t, { catalog, rateLimits: true })
  const first = await resellerKey(service, 'OTA one')
  const second = await resellerKey(service, 'OTA two')

  for (let i = 0; i < 3; i++) {
    const ok = await first.request('GET', '/supplier', '/supplier/')
    assert.equal(ok.status, 200)
    assert.equal(ok.headers.get('ratelimit-policy'), '"octo";q=3;w=3')
  }
  const refused = await get(first, '/products')
  assert.equal(refused.status, 429)
  assert.equal(refused.headers.get('retry-after'), '1')
  assert.deepEqual(Object.keys(refused.body), ['error', 'errorMessage'])
  assert.equal(refused.body.error, 'TOO_MANY_REQUESTS')
  assert.equal((await second.request('GET', '/supplier', '/supplier/')).status, 200, 'another key has its own bucket')

  service.clock.advance({ seconds: 1 })
  assert.equal((await first.request('GET', '/supplier', '/supplier/')).status, 200, 'a token came back after a second')
})
