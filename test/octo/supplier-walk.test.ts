import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, type TestService } from '../helpers/build.ts'
import { OctoClient } from './octo-client.ts'

// The supplier walk a reseller's connection test makes (docs/resellers.md), over real HTTP;
// every answer is checked against OCTo's OpenAPI description (octo-client.ts).

async function resellerKey(service: TestService, terms: { products?: string[], commission_percent?: number } = {}, prefix = 'lisbon') {
  const catalog = service.context.catalogs.get(prefix)!
  const { secret } = await service.context.staff.createKey(catalog.instance.ref, { name: 'OTA', role: 'reseller', ...terms }, { type: 'system', id: null, name: 'test' }, service.clock.now())
  return new OctoClient(service, prefix, secret)
}

test('supplier, products, a 30-day calendar, availability by range and ids, reserve, extend, confirm, get, list, cancel', async (t) => {
  const service = await build(t)
  const octo = await resellerKey(service, { commission_percent: 20 })

  const supplier = await octo.request('GET', '/supplier', '/supplier/')
  assert.equal(supplier.status, 200)
  assert.equal(supplier.body.endpoint, `${service.origin}/octo/lisbon`)
  const products = await octo.request('GET', '/products', '/products/')
  assert.ok(products.body.some((p: any) => p.id === 'alfama-walk'))
  assert.equal(products.headers.get('octo-capabilities'), 'octo/pricing')
  const product = await octo.request('GET', '/products/alfama-walk', '/products/{id}')
  assert.equal(product.status, 200)
  const option = product.body.options[0]
  assert.deepEqual([option.id, option.availabilityLocalStartTimes, option.restrictions], ['DEFAULT', ['09:30', '14:00', '17:30'], { minUnits: 1, maxUnits: 10 }])
  assert.deepEqual(option.units[0].pricingFrom[0], { original: 1900, retail: 1900, net: 1520, currency: 'EUR', currencyPrecision: 2, includedTaxes: [] })

  const calendar = await octo.request('POST', '/availability/calendar', '/availability/calendar',
    { productId: 'alfama-walk', optionId: 'DEFAULT', localDateStart: '2026-06-01', localDateEnd: '2026-06-30' })
  assert.equal(calendar.status, 200)
  assert.equal(calendar.body.length, 30)
  assert.equal(calendar.body.find((d: any) => d.localDate === '2026-06-13').status, 'CLOSED', 'a blackout day')

  const range = await octo.request('POST', '/availability', '/availability/', { productId: 'alfama-walk', optionId: 'DEFAULT', localDateStart: '2026-06-02', localDateEnd: '2026-06-02' })
  assert.deepEqual(range.body.map((a: any) => a.id), ['2026-06-02T09:30:00+01:00', '2026-06-02T14:00:00+01:00', '2026-06-02T17:30:00+01:00'])
  assert.deepEqual([range.body[0].vacancies, range.body[0].capacity, range.body[0].status], [16, 16, 'AVAILABLE'])
  const availabilityId = range.body[0].id
  const byIds = await octo.request('POST', '/availability', '/availability/', { productId: 'alfama-walk', optionId: 'DEFAULT', availabilityIds: [availabilityId] })
  assert.deepEqual(byIds.body.map((a: any) => a.id), [availabilityId])

  const reserve = { uuid: '0b8e7c1e-0001-4c6a-9a7e-2f0e3b1d0001', productId: 'alfama-walk', optionId: 'DEFAULT', availabilityId, unitItems: [{ unitId: 'person' }, { unitId: 'person' }], expirationMinutes: 30, resellerReference: 'OTA-REF-1' }
  const reserved = await octo.request('POST', '/bookings', '/bookings/', reserve)
  assert.equal(reserved.status, 200)
  assert.deepEqual([reserved.body.status, reserved.body.uuid, reserved.body.unitItems.length, reserved.body.utcExpiresAt], ['ON_HOLD', '0b8e7c1e-0001-4c6a-9a7e-2f0e3b1d0001', 2, '2026-06-01T08:30:00Z'])
  assert.deepEqual(reserved.body.pricing, { original: 3800, retail: 3800, net: 3040, currency: 'EUR', currencyPrecision: 2, includedTaxes: [] })
  const again = await octo.request('POST', '/bookings', '/bookings/', reserve)
  assert.equal(again.body.id, reserved.body.id, 'the same uuid answers the same booking')
  const seats = await octo.request('POST', '/availability', '/availability/', { productId: 'alfama-walk', optionId: 'DEFAULT', availabilityIds: [availabilityId] })
  assert.equal(seats.body[0].vacancies, 14, 'the hold took two seats, once')

  service.clock.advance({ minutes: 20 })
  const extended = await octo.request('POST', '/bookings/0b8e7c1e-0001-4c6a-9a7e-2f0e3b1d0001/extend', '/bookings/{uuid}/extend', { expirationMinutes: 60 })
  assert.equal(extended.body.utcExpiresAt, '2026-06-01T09:20:00Z')
  const confirmed = await octo.request('POST', '/bookings/0b8e7c1e-0001-4c6a-9a7e-2f0e3b1d0001/confirm', '/bookings/{uuid}/confirm', { contact: { fullName: 'Ana Lima', emailAddress: 'ana@example.com' } })
  assert.equal(confirmed.status, 200)
  assert.equal(confirmed.body.status, 'CONFIRMED')
  assert.match(confirmed.body.supplierReference, /^[A-Z0-9]+$/)
  assert.equal(confirmed.body.voucher.deliveryOptions[0].deliveryValue, confirmed.body.supplierReference)
  const read = await octo.request('GET', '/bookings/0b8e7c1e-0001-4c6a-9a7e-2f0e3b1d0001', '/bookings/{uuid}')
  assert.deepEqual([read.body.status, read.body.contact.fullName], ['CONFIRMED', 'Ana Lima'])
  const listed = await octo.request('GET', '/bookings?resellerReference=OTA-REF-1', '/bookings/')
  assert.deepEqual(listed.body.map((b: any) => b.uuid), ['0b8e7c1e-0001-4c6a-9a7e-2f0e3b1d0001'])
  const bySupplier = await octo.request('GET', `/bookings?supplierReference=${confirmed.body.supplierReference}`, '/bookings/')
  assert.deepEqual(bySupplier.body.map((b: any) => b.uuid), ['0b8e7c1e-0001-4c6a-9a7e-2f0e3b1d0001'])
  const noFilter = await octo.request('GET', '/bookings', '/bookings/')
  assert.deepEqual([noFilter.status, noFilter.body.error], [400, 'BAD_REQUEST'])

  const cancelled = await octo.request('POST', '/bookings/0b8e7c1e-0001-4c6a-9a7e-2f0e3b1d0001/cancel', '/bookings/{uuid}/cancel', { reason: 'plans changed' })
  // 24 h 10 min before the start: the policy's 48-to-24-hour tier, half the price.
  assert.deepEqual([cancelled.body.status, cancelled.body.cancellation.refund], ['CANCELLED', 'PARTIAL'])
  const freed = await octo.request('POST', '/availability', '/availability/', { productId: 'alfama-walk', optionId: 'DEFAULT', availabilityIds: [availabilityId] })
  assert.equal(freed.body[0].vacancies, 16, 'the seats came back')

  const held = await octo.request('POST', '/bookings', '/bookings/', { ...reserve, uuid: '0b8e7c1e-0002-4c6a-9a7e-2f0e3b1d0002' })
  const released = await octo.request('POST', '/bookings/0b8e7c1e-0002-4c6a-9a7e-2f0e3b1d0002/cancel', '/bookings/{uuid}/cancel')
  assert.deepEqual([held.body.status, released.body.status, released.body.cancellation.refund], ['ON_HOLD', 'CANCELLED', 'FULL'], 'a reservation is cancelled too, free')
})

test('OCTo errors: bad product, option, unit, availability and uuid; bad bodies; every key role', async (t) => {
  const service = await build(t)
  const octo = await resellerKey(service, { products: ['alfama-walk'] })
  const base = { productId: 'alfama-walk', optionId: 'DEFAULT', localDateStart: '2026-06-02', localDateEnd: '2026-06-02' }
  const cases: Array<[string, string, string, unknown, string, Record<string, unknown>]> = [
    ['GET', '/products/fado-night', '/products/{id}', undefined, 'INVALID_PRODUCT_ID', { productId: 'fado-night' }],
    ['POST', '/availability', '/availability/', { ...base, productId: 'nope' }, 'INVALID_PRODUCT_ID', { productId: 'nope' }],
    ['POST', '/availability/calendar', '/availability/calendar', { ...base, optionId: 'VIP' }, 'INVALID_OPTION_ID', { optionId: 'VIP' }],
    ['POST', '/availability', '/availability/', { ...base, units: [{ id: 'dragon', quantity: 1 }] }, 'INVALID_UNIT_ID', { unitId: 'dragon' }],
    ['POST', '/availability', '/availability/', { productId: 'alfama-walk', optionId: 'DEFAULT', availabilityIds: ['2026-06-02T10:00:00+01:00'] }, 'INVALID_AVAILABILITY_ID', { availabilityId: '2026-06-02T10:00:00+01:00' }],
    ['POST', '/bookings', '/bookings/', { productId: 'alfama-walk', optionId: 'DEFAULT', availabilityId: 'tomorrow', unitItems: [{ unitId: 'person' }] }, 'INVALID_AVAILABILITY_ID', { availabilityId: 'tomorrow' }],
    ['GET', '/bookings/no-such-uuid', '/bookings/{uuid}', undefined, 'INVALID_BOOKING_UUID', { uuid: 'no-such-uuid' }],
    ['POST', '/bookings', '/bookings/', { uuid: 'order-1001', productId: 'alfama-walk', optionId: 'DEFAULT', availabilityId: '2026-06-02T09:30:00+01:00', unitItems: [{ unitId: 'person' }] }, 'INVALID_BOOKING_UUID', { uuid: 'order-1001' }],
    ['POST', '/availability', '/availability/', { productId: 'alfama-walk' }, 'BAD_REQUEST', {}],
    ['POST', '/availability', '/availability/', { productId: 'alfama-walk', optionId: 'DEFAULT' }, 'BAD_REQUEST', {}],
    ['POST', '/bookings', '/bookings/', { productId: 'alfama-walk', optionId: 'DEFAULT', availabilityId: '2026-06-02T09:30:00+01:00', unitItems: Array.from({ length: 11 }, () => ({ unitId: 'person' })) }, 'UNPROCESSABLE_ENTITY', {}],
  ]
  for (const [method, path, specPath, body, error, fields] of cases) {
    const res = await octo.request(method, path, specPath, body)
    assert.equal(res.status, 400, `${method} ${path}: ${JSON.stringify(res.body)}`)
    assert.equal(res.body.error, error, `${method} ${path}`)
    for (const [field, value] of Object.entries(fields)) assert.equal(res.body[field], value, `${method} ${path} ${field}`)
  }

  const other = await resellerKey(service)
  const mine = await octo.request('POST', '/bookings', '/bookings/', { uuid: '0b8e7c1e-0003-4c6a-9a7e-2f0e3b1d0003', productId: 'alfama-walk', optionId: 'DEFAULT', availabilityId: '2026-06-02T09:30:00+01:00', unitItems: [{ unitId: 'person' }] })
  assert.equal(mine.status, 200)
  const theirs = await other.request('GET', '/bookings/0b8e7c1e-0003-4c6a-9a7e-2f0e3b1d0003', '/bookings/{uuid}')
  assert.deepEqual([theirs.status, theirs.body.error], [400, 'INVALID_BOOKING_UUID'], "another reseller's uuid is as if it did not exist")

  const anonymous = new OctoClient(service, 'lisbon', null)
  assert.deepEqual([(await anonymous.request('GET', '/supplier', '/supplier/')).status], [401])
  assert.equal((await new OctoClient(service, 'lisbon', 'tdk_' + 'x'.repeat(40)).request('GET', '/products', '/products/')).status, 401)
  const lisbon = service.context.catalogs.get('lisbon')!.instance.ref
  for (const role of ['guide', 'viewer', 'staff', 'manager'] as const) {
    const { secret } = await service.context.staff.createKey(lisbon, { name: role, role }, { type: 'system', id: null, name: 'test' }, service.clock.now())
    const res = await new OctoClient(service, 'lisbon', secret).request('GET', '/products', '/products/')
    assert.deepEqual([res.status, res.body.error], [403, 'FORBIDDEN'], role)
  }
})
