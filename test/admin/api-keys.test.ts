import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, type TestService } from '../helpers/build.ts'
import { checked, operatorContract } from '../helpers/operator-contract.ts'
import { apiKeyClient, OperatorClient, signedInStaff } from '../helpers/operator.ts'

// API keys (GET|POST /api-keys, DELETE /api-keys/{id}) over real HTTP, on a fresh database.

test('a manager creates a key, sees its secret once, the key works until it is revoked, then it is 401 at once', async (t) => {
  const service = await build(t)
  const contract = await operatorContract(service)
  const { client } = await signedInStaff(service, 'manager')
  const manager = checked(client, contract)

  const created = await manager.post('/api-keys', { name: 'Website sync', role: 'viewer' }, { 'idempotency-key': 'first-key' })
  assert.equal(created.status, 201, created.text)
  assert.equal(created.headers.get('cache-control'), 'no-store')
  const { api_key: key, secret } = created.body
  assert.match(secret, /^tdk_[A-Za-z0-9]{32,}$/)
  assert.deepEqual({ ...key, id: undefined }, {
    id: undefined, name: 'Website sync', role: 'viewer', prefix: secret.slice(0, 8), created_at: '2026-06-01T09:00:00+01:00', last_used_at: null, revoked_at: null,
  })

  const integration = checked(new OperatorClient(service.origin, 'lisbon', { bearer: secret }), contract)
  const me = await integration.get('/me')
  assert.equal(me.status, 200, me.text)
  assert.deepEqual([me.body.kind, me.body.id, me.body.role], ['key', key.id, 'viewer'])
  assert.equal((await integration.get('/audit')).status, 200, 'a viewer key reads the audit log')
  assert.equal((await integration.get('/api-keys')).status, 403, 'but may not manage keys')

  service.clock.advance({ minutes: 5 })
  const listed = await manager.get('/api-keys')
  assert.equal(listed.status, 200)
  assert.equal(listed.body.next_cursor, null)
  assert.deepEqual(listed.body.api_keys.map((k: { id: string }) => k.id), [key.id])
  assert.equal(listed.body.api_keys[0].last_used_at, '2026-06-01T09:00:00+01:00')
  assert.ok(!listed.text.includes(secret), 'the list never shows the secret')

  const revoked = await manager.delete(`/api-keys/${key.id}`)
  assert.equal(revoked.status, 200, revoked.text)
  assert.equal(revoked.body.revoked_at, '2026-06-01T09:05:00+01:00')
  const refused = await integration.get('/me')
  assert.equal(refused.status, 401)
  assert.equal(refused.body.code, 'unauthenticated')
  assert.equal(refused.headers.get('www-authenticate'), 'Bearer realm="tourdesk"')
  const again = await manager.delete(`/api-keys/${key.id}`)
  assert.equal(again.status, 200, 'revoking again answers the key unchanged')
  assert.equal(again.body.revoked_at, revoked.body.revoked_at)
  assert.equal((await manager.get('/api-keys')).body.api_keys[0].revoked_at, revoked.body.revoked_at, 'a revoked key stays listed')

  const audit = (await manager.get('/audit?actor=staff')).body.entries.map((e: any) => [e.action, e.target.id])
  assert.deepEqual(audit, [['api_key.revoked', key.id], ['api_key.created', key.id]], 'the second revocation changed nothing')
})

test('only the hash of a secret is stored, even for a request with an Idempotency-Key', async (t) => {
  const service = await build(t)
  const { client } = await signedInStaff(service, 'manager')
  const { body } = await client.post('/api-keys', { name: 'CRM', role: 'staff' }, { 'idempotency-key': 'crm-key' })
  const db = service.context.store.db
  const stored = JSON.stringify([await db.selectFrom('api_keys').selectAll().execute(), await db.selectFrom('idempotency_keys').selectAll().execute(),
    await db.selectFrom('audit_log').selectAll().execute()])
  assert.ok(stored.includes(body.api_key.id))
  assert.ok(!stored.includes(body.secret), 'the secret is nowhere in the database')
})

test('keys are listed oldest first, page by page', async (t) => {
  const service = await build(t)
  const { client } = await signedInStaff(service, 'manager')
  const ids: string[] = []
  for (const name of ['one', 'two', 'three']) {
    service.clock.advance({ seconds: 1 })
    ids.push((await client.post('/api-keys', { name, role: 'guide' })).body.api_key.id)
  }
  const first = await client.get('/api-keys?limit=2')
  assert.deepEqual(first.body.api_keys.map((k: { id: string }) => k.id), ids.slice(0, 2))
  const second = await client.get(`/api-keys?limit=2&cursor=${first.body.next_cursor}`)
  assert.deepEqual(second.body.api_keys.map((k: { id: string }) => k.id), ids.slice(2))
  assert.equal(second.body.next_cursor, null)
})

test('creating and revoking keys refuses a bad body and an unknown or foreign id', async (t) => {
  const service = await build(t)
  const { client } = await signedInStaff(service, 'manager')
  for (const body of [{ name: 'x', role: 'owner' }, { role: 'staff' }, { name: ' ', role: 'staff' }, { name: 'x', role: 'staff', secret: 'tdk_mine' }]) {
    const res = await client.post('/api-keys', body)
    assert.equal(res.status, 400, JSON.stringify(body))
    assert.equal(res.body.code, 'validation_failed')
  }
  assert.equal((await client.delete('/api-keys/no-such-key')).status, 404)
  const nycKey = await apiKeyClient(service, 'manager', 'nyc')
  assert.equal((await client.delete(`/api-keys/${nycKey.key.id}`)).status, 404, "another instance's key is not there")
  assert.equal((await nycKey.client.get('/me')).status, 200, 'and still works')
})

test('API keys are for managers; a key of one instance is 401 on the other', async (t) => {
  const service = await build(t)
  const contract = await operatorContract(service)
  const { key } = await apiKeyClient(service, 'manager')
  const routes: Array<[string, string, unknown]> = [
    ['GET', '/api-keys', undefined],
    ['POST', '/api-keys', { name: 'n', role: 'guide' }],
    ['DELETE', `/api-keys/${key.id}`, undefined],
  ]
  for (const role of ['guide', 'viewer', 'staff'] as const) {
    const session = checked((await signedInStaff(service, role)).client, contract)
    const byKey = checked((await apiKeyClient(service, role)).client, contract)
    for (const [method, path, body] of routes) {
      for (const caller of [session, byKey]) assert.equal((await caller.request(method, path, body)).status, 403, `${role} ${method} ${path}`)
    }
  }
  const anonymous = checked(new OperatorClient(service.origin, 'lisbon'), contract)
  for (const [method, path, body] of routes) assert.equal((await anonymous.request(method, path, body)).status, 401, `${method} ${path}`)
  const malformed = checked(new OperatorClient(service.origin, 'lisbon', { bearer: 'tdk_short' }), contract)
  assert.equal((await malformed.get('/api-keys')).status, 401)
  const lisbonKey = await apiKeyClient(service, 'manager')
  const elsewhere = await new OperatorClient(service.origin, 'nyc', { bearer: lisbonKey.secret }).get('/api-keys')
  assert.equal(elsewhere.status, 401)
  assert.equal(elsewhere.body.code, 'unauthenticated')
})

// An integration may call at many connections at once. Its key's last use is written at most
// once a minute per node (src/services/last-use.ts), by one of the requests that find it
// stale, not by each: on PostgreSQL every commit makes every node read its kept answers again.
const AT_ONCE = 20

/**
 * The real store, watched: each write of a credential's last use counted (as
 * test/services/reseller-keys.test.ts does), and each read of the credential held until all
 * the requests have read it, so that every one of them finds it as it was before any writes
 * (without the hold, how many overlap is up to timing). `getAllAtOnce` sends AT_ONCE GET /me.
 */
function watchLastUse(service: TestService, credential: 'key' | 'session') {
  const { staff } = service.context.store
  const watched = { touches: 0 }
  let allRead: { arrive(): Promise<void> } | null = null
  if (credential === 'key') {
    const { touchKey, findKey } = staff
    staff.touchKey = (...args) => (watched.touches++, touchKey(...args))
    staff.findKey = async (...args) => {
      const key = await findKey(...args)
      await allRead?.arrive()
      return key
    }
  } else {
    const { touchSession, findSession } = staff
    staff.touchSession = (...args) => (watched.touches++, touchSession(...args))
    staff.findSession = async (...args) => {
      const session = await findSession(...args)
      await allRead?.arrive()
      return session
    }
  }
  return Object.assign(watched, {
    async getAllAtOnce(client: OperatorClient) {
      allRead = barrier(AT_ONCE)
      const answers = await Promise.all(Array.from({ length: AT_ONCE }, () => client.get('/me')))
      allRead = null
      assert.deepEqual(answers.map((answer) => answer.status), answers.map(() => 200))
    },
  })
}

test(`${AT_ONCE} requests of a key at once, its last use stale, write it once, and not again within the minute`, { timeout: 60_000 }, async (t) => {
  const service = await build(t)
  const watched = watchLastUse(service, 'key')
  const { key, client } = await apiKeyClient(service, 'viewer')
  const { client: manager } = await signedInStaff(service, 'manager')

  assert.equal((await client.get('/me')).status, 200)
  assert.equal(watched.touches, 1, 'the first use')
  service.clock.advance({ minutes: 1 })
  await watched.getAllAtOnce(client)
  assert.equal(watched.touches, 2, 'once for all the requests that found it stale')
  service.clock.advance({ seconds: 59 })
  await watched.getAllAtOnce(client)
  assert.equal(watched.touches, 2, 'not again within the minute')
  const listed = (await manager.get('/api-keys')).body.api_keys.find((k: { id: string }) => k.id === key.id)
  assert.equal(Date.parse(listed.last_used_at), service.clock.now().subtract({ seconds: 59 }).epochMilliseconds, 'the stale last use renewed')
})

test(`${AT_ONCE} requests of a staff session at once, its last activity stale, write it once, and not again within the minute`, { timeout: 60_000 }, async (t) => {
  const service = await build(t)
  const watched = watchLastUse(service, 'session')
  const { client } = await signedInStaff(service, 'manager')

  service.clock.advance({ minutes: 1 })
  await watched.getAllAtOnce(client)
  assert.equal(watched.touches, 1, 'once for all the requests that found it stale')
  service.clock.advance({ seconds: 59 })
  await watched.getAllAtOnce(client)
  assert.equal(watched.touches, 1, 'not again within the minute')
  // The idle timeout counts from the activity written: two hours of nothing after it, the session is over.
  service.clock.advance({ hours: 2 })
  assert.equal((await client.get('/me')).status, 401)
})

/** Lets everyone who arrives through once `count` have arrived. */
function barrier(count: number) {
  let arrived = 0
  let open = () => {}
  const opened = new Promise<void>((resolve) => { open = resolve })
  return {
    arrive(): Promise<void> {
      if (++arrived === count) open()
      return opened
    },
  }
}
