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
