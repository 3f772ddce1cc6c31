import assert from 'node:assert/strict'
import { test } from 'node:test'
import { seatsTaken } from '../helpers/booking-fixtures.ts'
import { build } from '../helpers/build.ts'
import { apiKeyClient } from '../helpers/operator.ts'
import { OctoClient } from './octo-client.ts'

// Staff and the reseller change one reseller booking at the same moment (docs/resellers.md,
// "Operations"). Each change takes or frees seats by the difference from the booking it read,
// so each must read the booking locked: on PostgreSQL the reseller's session lock alone let a
// staff resize read the same seats and the departure's count drift from the booking's.

const AT_0930 = '2026-06-02T09:30:00+01:00'
const persons = (n: number) => Array.from({ length: n }, () => ({ unitId: 'person' }))

test('a staff resize and a reseller resize of one booking at once leave the departure counting exactly its seats', async (t) => {
  const service = await build(t)
  const catalog = service.context.catalogs.get('lisbon')!
  const { secret } = await service.context.staff.createKey(catalog.instance.ref, { name: 'OTA', role: 'reseller' }, { type: 'system', id: null, name: 'test' }, service.clock.now())
  const octo = new OctoClient(service, 'lisbon', secret)
  const { client: staff } = await apiKeyClient(service, 'staff')
  const uuid = '7a1b2c3d-0001-4e5f-8a9b-0c1d2e3f4a01'
  const reserved = await octo.request('POST', '/bookings', '/bookings/', { uuid, productId: 'alfama-walk', optionId: 'DEFAULT', availabilityId: AT_0930, unitItems: persons(2) })
  assert.equal(reserved.status, 200, JSON.stringify(reserved.body))
  const confirmed = await octo.request('POST', `/bookings/${uuid}/confirm`, '/bookings/{uuid}/confirm', { contact: { fullName: 'Ana Lima', emailAddress: 'ana@example.com' } })
  const code = confirmed.body.supplierReference as string

  for (let round = 0; round < 12; round++) {
    const [byStaff, byReseller] = await Promise.all([
      staff.patch(`/bookings/${code}`, { party: 3 + (round % 3) }),
      octo.request('PATCH', `/bookings/${uuid}`, '/bookings/{uuid}', { unitItems: persons(1 + (round % 2)) }),
    ])
    assert.equal(byStaff.status, 200, JSON.stringify(byStaff.body))
    assert.equal(byReseller.status, 200, JSON.stringify(byReseller.body))
    const booking = (await staff.get(`/bookings/${code}`)).body
    assert.equal(await seatsTaken(service, 'alfama-walk', AT_0930), booking.seats, `round ${round}: the departure counts the booking's seats`)
  }
})
