import assert from 'node:assert/strict'
import { test } from 'node:test'
import { resellerKeys } from '../../src/services/reseller-keys.ts'
import type { Store } from '../../src/store/store.ts'
import { build } from '../helpers/build.ts'
import { testDialect } from '../helpers/database.ts'

// A reseller polls at many connections at once. Its key's last use is written at most once a
// minute (src/services/reseller-keys.ts), by one of the requests that find it stale, not by
// each: every commit makes every node read its kept availability answers again.

const AT_ONCE = 20

test(`${AT_ONCE} requests of a reseller key at once write its last use once, and once again a minute later (${testDialect})`, async (t) => {
  const service = await build(t)
  const { store } = service.context
  let touches = 0
  const staff = { ...store.staff, touchKey: (...args: Parameters<Store['staff']['touchKey']>) => {
    touches++
    return store.staff.touchKey(...args)
  } }
  const keys = resellerKeys({ ...store, staff })
  const lisbon = service.context.catalogs.get('lisbon')!.instance.ref
  const { secret } = await service.context.staff.createKey(lisbon, { name: 'OTA', role: 'reseller' }, { type: 'system', id: null, name: 'test' }, service.clock.now())
  const identifyAll = async () => {
    const found = await Promise.all(Array.from({ length: AT_ONCE }, () => keys.identify(lisbon, secret, service.clock.now())))
    assert.ok(found.every((reseller) => reseller !== null && reseller !== 'not-reseller'))
  }

  await identifyAll()
  assert.equal(touches, 1, 'the first use, once')
  service.clock.advance({ seconds: 59 })
  await identifyAll()
  assert.equal(touches, 1, 'not again within the minute')
  service.clock.advance({ seconds: 1 })
  await identifyAll()
  assert.equal(touches, 2, 'once more a minute later')
  const [row] = (await store.staff.listKeys(lisbon)).filter((k) => k.role === 'reseller')
  assert.equal(Date.parse(row.last_used_at!), service.clock.now().epochMilliseconds, 'the last use written is the latest')
})

test(`a reseller key is read from the database again only after a commit, and its revocation is refused at once (${testDialect})`, async (t) => {
  const service = await build(t)
  const { store } = service.context
  // PostgreSQL's token is null (nothing kept) until this node listens for changes.
  for (const deadline = Date.now() + 5_000; store.changeToken() === null && Date.now() < deadline;) await new Promise((resolve) => setImmediate(resolve))
  let reads = 0
  const staff = { ...store.staff, findKey: (...args: Parameters<Store['staff']['findKey']>) => {
    reads++
    return store.staff.findKey(...args)
  } }
  const keys = resellerKeys({ ...store, staff })
  const lisbon = service.context.catalogs.get('lisbon')!.instance.ref
  const actor = { type: 'system', id: null, name: 'test' } as const
  const { key, secret } = await service.context.staff.createKey(lisbon, { name: 'OTA', role: 'reseller' }, actor, service.clock.now())
  // The first use writes the key's last use, a commit: the next request reads the key again.
  await keys.identify(lisbon, secret, service.clock.now())
  await keys.identify(lisbon, secret, service.clock.now())
  reads = 0
  for (let i = 0; i < AT_ONCE; i++) assert.notEqual(await keys.identify(lisbon, secret, service.clock.now()), null)
  // On PostgreSQL a node hears its own commits' notifications too, a moment later, and each
  // moves the token once more: the key's creation and its first use may each cost one read.
  assert.ok(reads <= 2, `no commit: the key found before stands (${reads} reads for ${AT_ONCE} requests)`)

  reads = 0
  await service.context.staff.revokeKey(lisbon, key.id, actor, service.clock.now())
  assert.equal(await keys.identify(lisbon, secret, service.clock.now()), null, 'revoked: refused on the next request')
  assert.equal(reads, 1, 'read again after the revocation')
})
