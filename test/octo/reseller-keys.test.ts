import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build } from '../helpers/build.ts'
import { checked, operatorContract } from '../helpers/operator-contract.ts'
import { OperatorClient, signedInStaff } from '../helpers/operator.ts'

// Reseller keys (docs/resellers.md, "Keys"): made through POST /api-keys with their products
// and commission, and refused on the operator and guest APIs.

test('a manager creates a reseller key with its products and commission; it is refused on the operator and guest APIs', async (t) => {
  const service = await build(t)
  const contract = await operatorContract(service)
  const manager = checked((await signedInStaff(service, 'manager')).client, contract)

  const created = await manager.post('/api-keys', { name: 'Lisbon OTA', role: 'reseller', products: ['alfama-walk', 'fado-night'], commission_percent: 12.5 })
  assert.equal(created.status, 201, created.text)
  const { api_key: key, secret } = created.body
  assert.deepEqual([key.role, key.products, key.commission_percent], ['reseller', ['alfama-walk', 'fado-night'], 12.5])
  const everything = await manager.post('/api-keys', { name: 'Channel manager', role: 'reseller' })
  assert.deepEqual([everything.body.api_key.products, everything.body.api_key.commission_percent], [null, 0], 'no products: every tour; no commission: 0')
  const viewer = await manager.post('/api-keys', { name: 'Reports', role: 'viewer' })
  assert.ok(!('products' in viewer.body.api_key) && !('commission_percent' in viewer.body.api_key), 'other roles have no reseller terms')

  const listed = await manager.get('/api-keys')
  assert.deepEqual(listed.body.api_keys.map((k: any) => [k.role, k.products, k.commission_percent]),
    [['reseller', ['alfama-walk', 'fado-night'], 12.5], ['reseller', null, 0], ['viewer', undefined, undefined]])
  const audit = (await manager.get('/audit')).body.entries.find((e: any) => e.target.id === key.id)
  assert.deepEqual([audit.action, audit.after.products, audit.after.commission_basis_points], ['api_key.created', ['alfama-walk', 'fado-night'], 1250])

  const asOperator = checked(new OperatorClient(service.origin, 'lisbon', { bearer: secret }), contract)
  for (const path of ['/me', '/bookings', '/api-keys']) {
    const refused = await asOperator.get(path)
    assert.equal(refused.status, 403, `${path}: ${refused.text}`)
    assert.equal(refused.body.code, 'reseller_key_refused')
  }
  const guest = await fetch(`${service.origin}/api/lisbon/tours`, { headers: { authorization: `Bearer ${secret}` } })
  assert.equal(guest.status, 403, 'the guest API refuses a reseller key')
  assert.equal(((await guest.json()) as { code: string }).code, 'reseller_key_refused')
  const viewerOnGuest = await fetch(`${service.origin}/api/lisbon/tours`, { headers: { authorization: `Bearer ${viewer.body.secret}` } })
  assert.equal(viewerOnGuest.status, 200, 'any other Authorization is ignored there, as before')

  const revoked = await manager.delete(`/api-keys/${key.id}`)
  assert.equal(revoked.status, 200)
  assert.equal((await asOperator.get('/me')).status, 401, 'a revoked reseller key is unknown: 401')
})

test('reseller terms are checked: products are tours of the instance, commission 0 to 100 with two decimals, both for reseller keys only', async (t) => {
  const service = await build(t)
  const { client } = await signedInStaff(service, 'manager')
  const cases: Array<[unknown, string]> = [
    [{ name: 'x', role: 'reseller', products: ['alfama-walk', 'brooklyn-bridge-dumbo'] }, 'products.1'],
    [{ name: 'x', role: 'reseller', commission_percent: 12.345 }, 'commission_percent'],
    [{ name: 'x', role: 'reseller', commission_percent: 101 }, 'commission_percent'],
    [{ name: 'x', role: 'reseller', commission_percent: -1 }, 'commission_percent'],
    [{ name: 'x', role: 'reseller', products: [] }, 'products'],
    [{ name: 'x', role: 'staff', products: ['alfama-walk'] }, 'products'],
    [{ name: 'x', role: 'viewer', commission_percent: 10 }, 'commission_percent'],
    [{ name: 'x', role: 'owner' }, 'role'],
  ]
  for (const [body, field] of cases) {
    const res = await client.post('/api-keys', body)
    assert.equal(res.status, 400, JSON.stringify(body))
    assert.equal(res.body.code, 'validation_failed')
    assert.ok(res.body.errors.some((e: { field: string }) => e.field === field), `${JSON.stringify(body)} names ${field}: ${res.text}`)
  }
  assert.deepEqual((await client.get('/api-keys')).body.api_keys, [], 'nothing was created')
})
