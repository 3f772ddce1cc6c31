import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, type TestService } from '../helpers/build.ts'
import { apiKeyClient } from '../helpers/operator.ts'
import { OctoClient } from './octo-client.ts'

// A reseller's changes to its bookings (docs/resellers.md, "Operations"): confirm with other
// unit items, PATCH of contact, date and units, under the one capacity rule; every answer is
// checked against OCTo's OpenAPI description (octo-client.ts).

const AT_0930 = '2026-06-02T09:30:00+01:00'
const AT_1400 = '2026-06-02T14:00:00+01:00'
const AT_1730 = '2026-06-02T17:30:00+01:00'
const UUID = {
  resized: '0c1d2e3f-0001-4a5b-8c6d-7e8f9a0b0001',
  filler: '0c1d2e3f-0002-4a5b-8c6d-7e8f9a0b0002',
  filler2: '0c1d2e3f-0003-4a5b-8c6d-7e8f9a0b0003',
  moved: '0c1d2e3f-0004-4a5b-8c6d-7e8f9a0b0004',
}
const persons = (n: number) => Array.from({ length: n }, () => ({ unitId: 'person' }))

async function resellerKey(service: TestService) {
  const catalog = service.context.catalogs.get('lisbon')!
  const { secret } = await service.context.staff.createKey(catalog.instance.ref, { name: 'OTA', role: 'reseller' }, { type: 'system', id: null, name: 'test' }, service.clock.now())
  return new OctoClient(service, 'lisbon', secret)
}

async function reserve(octo: OctoClient, uuid: string, availabilityId: string, people: number) {
  const res = await octo.request('POST', '/bookings', '/bookings/', { uuid, productId: 'alfama-walk', optionId: 'DEFAULT', availabilityId, unitItems: persons(people) })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body
}

async function vacancies(octo: OctoClient, availabilityId: string): Promise<number> {
  const res = await octo.request('POST', '/availability', '/availability/', { productId: 'alfama-walk', optionId: 'DEFAULT', availabilityIds: [availabilityId] })
  return res.body[0].vacancies
}

function assertRefused(res: { status: number, body: any }, error: string, fields: Record<string, unknown> = {}) {
  assert.deepEqual([res.status, res.body.error], [400, error], JSON.stringify(res.body))
  for (const [field, value] of Object.entries(fields)) assert.equal(res.body[field], value, field)
}

test('confirm with changed unit items resizes the reservation under the capacity rule; a refused mix confirms nothing', async (t) => {
  const service = await build(t)
  const octo = await resellerKey(service)
  await reserve(octo, UUID.resized, AT_0930, 2)
  await reserve(octo, UUID.filler, AT_0930, 10)
  assert.equal(await vacancies(octo, AT_0930), 4)

  const confirm = (unitItems: unknown[]) => octo.request('POST', `/bookings/${UUID.resized}/confirm`, '/bookings/{uuid}/confirm',
    { contact: { fullName: 'Ana Lima', emailAddress: 'ana@example.com' }, unitItems })
  assertRefused(await confirm(persons(7)), 'UNPROCESSABLE_ENTITY')
  assertRefused(await confirm([{ unitId: 'dragon' }]), 'INVALID_UNIT_ID', { unitId: 'dragon' })
  assertRefused(await confirm(persons(11)), 'UNPROCESSABLE_ENTITY')
  const still = await octo.request('GET', `/bookings/${UUID.resized}`, '/bookings/{uuid}')
  assert.deepEqual([still.body.status, still.body.unitItems.length, await vacancies(octo, AT_0930)], ['ON_HOLD', 2, 4], 'nothing changed')

  const confirmed = await confirm(persons(6))
  assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body))
  assert.deepEqual([confirmed.body.status, confirmed.body.unitItems.length, confirmed.body.pricing.retail], ['CONFIRMED', 6, 6 * 1900])
  assert.equal(await vacancies(octo, AT_0930), 0, 'the four more seats were taken')

  // Confirming again: the same items answer the booking as it is, other items resize it.
  const again = await confirm(persons(6))
  assert.deepEqual([again.status, again.body.status, again.body.unitItems.length], [200, 'CONFIRMED', 6])
  const smaller = await confirm(persons(3))
  assert.deepEqual([smaller.status, smaller.body.status, smaller.body.unitItems.length, smaller.body.pricing.retail], [200, 'CONFIRMED', 3, 3 * 1900], JSON.stringify(smaller.body))
  assert.equal(await vacancies(octo, AT_0930), 3, 'the three seats given back')
  assertRefused(await confirm(persons(8)), 'UNPROCESSABLE_ENTITY')
  assert.equal(await vacancies(octo, AT_0930), 3, 'a refused resize changes nothing')
})

test('update: contact, date and units on a reservation and a confirmed booking; refused moves change nothing; the operator sees the reseller cancel', async (t) => {
  const service = await build(t)
  const octo = await resellerKey(service)
  const patch = async (uuid: string, body: unknown) => {
    service.clock.advance({ seconds: 1 })
    return octo.request('PATCH', `/bookings/${uuid}`, '/bookings/{uuid}', body)
  }

  await reserve(octo, UUID.moved, AT_0930, 2)
  const movedHold = await patch(UUID.moved, { availabilityId: AT_1400 })
  assert.deepEqual([movedHold.status, movedHold.body.status, movedHold.body.availabilityId], [200, 'ON_HOLD', AT_1400], JSON.stringify(movedHold.body))
  assert.deepEqual([await vacancies(octo, AT_0930), await vacancies(octo, AT_1400)], [16, 14], 'a hold moves its seats')

  service.clock.advance({ seconds: 1 })
  const confirmed = await octo.request('POST', `/bookings/${UUID.moved}/confirm`, '/bookings/{uuid}/confirm', { contact: { fullName: 'Ana Lima', emailAddress: 'ana@example.com' } })
  assert.equal(confirmed.body.status, 'CONFIRMED')
  const contact = await patch(UUID.moved, { contact: { fullName: 'Rui Costa', emailAddress: 'rui@example.com' }, resellerReference: 'OTA-9' })
  assert.deepEqual([contact.body.contact.fullName, contact.body.contact.emailAddress, contact.body.resellerReference], ['Rui Costa', 'rui@example.com', 'OTA-9'])
  const resized = await patch(UUID.moved, { unitItems: persons(3) })
  assert.deepEqual([resized.body.status, resized.body.unitItems.length, resized.body.pricing.retail], ['CONFIRMED', 3, 3 * 1900])
  assert.equal(await vacancies(octo, AT_1400), 13)
  const moved = await patch(UUID.moved, { availabilityId: AT_0930, unitItems: persons(4) })
  assert.deepEqual([moved.body.availabilityId, moved.body.unitItems.length], [AT_0930, 4])
  assert.deepEqual([await vacancies(octo, AT_0930), await vacancies(octo, AT_1400)], [12, 16], 'a move takes the new seats and frees the old')

  await reserve(octo, UUID.filler, AT_1730, 10)
  await reserve(octo, UUID.filler2, AT_1730, 6)
  const refusals: Array<[unknown, string, Record<string, unknown>]> = [
    [{ availabilityId: AT_1730 }, 'UNPROCESSABLE_ENTITY', {}],
    [{ unitItems: persons(11) }, 'UNPROCESSABLE_ENTITY', {}],
    [{ availabilityId: '2026-06-02T10:00:00+01:00' }, 'INVALID_AVAILABILITY_ID', { availabilityId: '2026-06-02T10:00:00+01:00' }],
    [{ availabilityId: 'tomorrow' }, 'INVALID_AVAILABILITY_ID', { availabilityId: 'tomorrow' }],
    [{ unitItems: [{ unitId: 'dragon' }] }, 'INVALID_UNIT_ID', { unitId: 'dragon' }],
    [{ productId: 'no-such-tour', availabilityId: AT_1400 }, 'INVALID_PRODUCT_ID', { productId: 'no-such-tour' }],
    [{ optionId: 'VIP' }, 'INVALID_OPTION_ID', { optionId: 'VIP' }],
    [{ contact: { emailAddress: ' ' } }, 'BAD_REQUEST', {}],
  ]
  for (const [body, error, fields] of refusals) assertRefused(await patch(UUID.moved, body), error, fields)
  assertRefused(await patch('no-such-uuid', { availabilityId: AT_1400 }), 'INVALID_BOOKING_UUID', { uuid: 'no-such-uuid' })
  const unchanged = await octo.request('GET', `/bookings/${UUID.moved}`, '/bookings/{uuid}')
  assert.deepEqual([unchanged.body.availabilityId, unchanged.body.unitItems.length, await vacancies(octo, AT_0930), await vacancies(octo, AT_1730)],
    [AT_0930, 4, 12, 0], 'nothing changed')

  const otherTour = await patch(UUID.moved, { productId: 'belem-bike', optionId: 'DEFAULT', availabilityId: AT_1400 })
  assert.deepEqual([otherTour.status, otherTour.body.productId, otherTour.body.availabilityId], [200, 'belem-bike', AT_1400], JSON.stringify(otherTour.body))
  assert.equal(await vacancies(octo, AT_0930), 16)

  service.clock.advance({ minutes: 1 })
  const cancelled = await octo.request('POST', `/bookings/${UUID.moved}/cancel`, '/bookings/{uuid}/cancel', { reason: 'guest ill' })
  assert.equal(cancelled.body.status, 'CANCELLED')
  const { client: operator } = await apiKeyClient(service, 'manager')
  const seen = await operator.get(`/bookings/${cancelled.body.supplierReference}`)
  assert.equal(seen.status, 200, seen.text)
  assert.equal(seen.body.cancellation.by, 'reseller')
  const history = seen.body.history as Array<{ from: string | null, to: string, action: string | null, actor: { type: string, name: string | null } }>
  const lines = history.map((h) => [h.from, h.to, h.action, h.actor.type, h.actor.name])
  assert.deepEqual(lines[0], [null, 'held', 'booking.created', 'key', 'OTA'], 'the reseller reserved')
  assert.ok(lines.some((line) => line.join() === ['held', 'held', 'booking.changed', 'key', 'OTA'].join()), `the reseller moved the hold: ${JSON.stringify(lines)}`)
  assert.ok(lines.some((line) => line.join() === ['held', 'confirmed', 'booking.confirmed', 'key', 'OTA'].join()), 'the reseller confirmed')
  assert.deepEqual(history.map((h) => [h.from, h.to, h.action, h.actor.type, h.actor.name]).slice(-2),
    [['confirmed', 'confirmed', 'booking.changed', 'key', 'OTA'], ['confirmed', 'cancelled', 'booking.cancelled', 'key', 'OTA']])
})

test('notes given on reserve, confirm and update are kept on the booking, answered in notes and shown to the operator', async (t) => {
  const service = await build(t)
  const octo = await resellerKey(service)
  const reserved = await octo.request('POST', '/bookings', '/bookings/',
    { uuid: UUID.moved, productId: 'alfama-walk', optionId: 'DEFAULT', availabilityId: AT_0930, unitItems: persons(2), notes: ' One guest uses a wheelchair ' })
  assert.equal(reserved.body.notes, 'One guest uses a wheelchair')
  const confirmed = await octo.request('POST', `/bookings/${UUID.moved}/confirm`, '/bookings/{uuid}/confirm',
    { contact: { fullName: 'Ana Lima', emailAddress: 'ana@example.com' }, notes: 'Wheelchair; arriving by taxi' })
  assert.equal(confirmed.body.notes, 'Wheelchair; arriving by taxi')
  const { client: operator } = await apiKeyClient(service, 'manager')
  const seen = await operator.get(`/bookings/${confirmed.body.supplierReference}`)
  assert.equal(seen.body.reseller.notes, 'Wheelchair; arriving by taxi')
  assert.equal(seen.body.internal_note, null, "the reseller's notes are not the operator's own note")

  const patched = await octo.request('PATCH', `/bookings/${UUID.moved}`, '/bookings/{uuid}', { notes: 'No wheelchair after all' })
  assert.equal(patched.body.notes, 'No wheelchair after all')
  const cleared = await octo.request('PATCH', `/bookings/${UUID.moved}`, '/bookings/{uuid}', { notes: null })
  assert.equal(cleared.body.notes, null)
  assert.equal((await operator.get(`/bookings/${confirmed.body.supplierReference}`)).body.reseller.notes, null)
})

test('expirationMinutes on update renews a reservation\'s hold with the rest of the change; on a confirmed booking the whole update is refused', async (t) => {
  const service = await build(t)
  const octo = await resellerKey(service)
  await reserve(octo, UUID.moved, AT_0930, 2)
  service.clock.advance({ minutes: 5 })
  const expected = service.clock.now().add({ minutes: 45 }).toString({ smallestUnit: 'second' })
  const renewed = await octo.request('PATCH', `/bookings/${UUID.moved}`, '/bookings/{uuid}', { expirationMinutes: 45, unitItems: persons(3) })
  assert.equal(renewed.status, 200, JSON.stringify(renewed.body))
  assert.deepEqual([renewed.body.status, renewed.body.utcExpiresAt, renewed.body.unitItems.length], ['ON_HOLD', expected, 3])
  assert.equal((await octo.request('GET', `/bookings/${UUID.moved}`, '/bookings/{uuid}')).body.utcExpiresAt, expected, 'kept')
  assertRefused(await octo.request('PATCH', `/bookings/${UUID.moved}`, '/bookings/{uuid}', { expirationMinutes: 61 }), 'BAD_REQUEST')

  await octo.request('POST', `/bookings/${UUID.moved}/confirm`, '/bookings/{uuid}/confirm', { contact: { fullName: 'Ana Lima', emailAddress: 'ana@example.com' } })
  assertRefused(await octo.request('PATCH', `/bookings/${UUID.moved}`, '/bookings/{uuid}', { expirationMinutes: 30, resellerReference: 'OTA-LATE' }), 'BAD_REQUEST')
  const confirmed = await octo.request('GET', `/bookings/${UUID.moved}`, '/bookings/{uuid}')
  assert.deepEqual([confirmed.body.status, confirmed.body.resellerReference, confirmed.body.utcExpiresAt], ['CONFIRMED', null, null], 'nothing changed')
})
