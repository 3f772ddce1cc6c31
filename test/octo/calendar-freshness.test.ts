import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ALFAMA, holding } from '../helpers/booking-fixtures.ts'
import { build, type TestService } from '../helpers/build.ts'
import { testDialect } from '../helpers/database.ts'
import { apiKeyClient } from '../helpers/operator.ts'
import { OctoClient } from './octo-client.ts'

// A reseller's calendar and range availability are kept answers (src/octo/routes/availability.ts,
// docs/resellers.md "Polling"): whatever takes or frees a seat, through any surface, or lets a
// hold lapse, shows in the very next poll. Every answer is checked against OCTo's description.

const PRODUCT = { productId: 'alfama-walk', optionId: 'DEFAULT' }
/** 90 days from the test clock's today (2026-06-01). */
const NINETY_DAYS = { ...PRODUCT, localDateStart: '2026-06-01', localDateEnd: '2026-08-29' }
const DAY = '2026-06-02'
const DEPARTURE = '2026-06-02T09:30:00+01:00'

async function resellerKey(service: TestService) {
  const catalog = service.context.catalogs.get('lisbon')!
  const { secret } = await service.context.staff.createKey(catalog.instance.ref, { name: 'OTA', role: 'reseller', commission_percent: 10 }, { type: 'system', id: null, name: 'test' }, service.clock.now())
  return new OctoClient(service, 'lisbon', secret)
}

/** One poll: the day's vacancies in the 90-day calendar and the departure's in the 90-day range, which must agree. */
async function poll(octo: OctoClient) {
  const calendar = await octo.request('POST', '/availability/calendar', '/availability/calendar', NINETY_DAYS)
  assert.equal(calendar.status, 200)
  assert.equal(calendar.body.length, 90)
  const range = await octo.request('POST', '/availability', '/availability/', NINETY_DAYS)
  assert.equal(range.status, 200)
  const departure = range.body.find((a: { id: string }) => a.id === DEPARTURE)
  const byId = await octo.request('POST', '/availability', '/availability/', { ...PRODUCT, availabilityIds: [DEPARTURE] })
  assert.equal(byId.body[0].vacancies, departure.vacancies, 'by id and by range agree')
  return { day: calendar.body.find((d: { localDate: string }) => d.localDate === DAY).vacancies as number, departure: departure.vacancies as number }
}

test(`a guest hold, a staff booking, a reseller's reserve and cancel, and a lapsing hold each show in the next 90-day poll (${testDialect})`, async (t) => {
  const service = await build(t, { holdSeconds: 600 })
  const octo = await resellerKey(service)
  const first = await poll(octo)
  assert.deepEqual(first, { day: 48, departure: 16 }, 'three departures of 16 that day')
  assert.deepEqual(await poll(octo), first, 'a repeated poll answers the same')

  await holding(service.client(), ALFAMA)
  assert.deepEqual(await poll(octo), { day: 46, departure: 14 }, 'the guest hold of 2')

  const { client: staff } = await apiKeyClient(service, 'staff')
  const made = await staff.post('/bookings', { tour_id: 'alfama-walk', start: ALFAMA.start, party: 3, contact: { name: 'Walk In', phone: '+351912345678' } })
  assert.equal(made.status, 201, made.text)
  assert.deepEqual(await poll(octo), { day: 43, departure: 11 }, 'the staff booking of 3')

  const uuid = '6a1f0c2e-0001-4c6a-9a7e-2f0e3b1d0001'
  const reserved = await octo.request('POST', '/bookings', '/bookings/', { ...PRODUCT, uuid, availabilityId: DEPARTURE, unitItems: [{ unitId: 'person' }] })
  assert.equal(reserved.status, 200)
  assert.deepEqual(await poll(octo), { day: 42, departure: 10 }, "the reseller's own reserve of 1")
  assert.equal((await octo.request('POST', `/bookings/${uuid}/cancel`, '/bookings/{uuid}/cancel')).status, 200)
  assert.deepEqual(await poll(octo), { day: 43, departure: 11 }, 'its cancel')

  service.clock.advance({ seconds: 600 })
  assert.deepEqual(await poll(octo), { day: 45, departure: 13 }, 'the guest hold lapsed: its seats are free before any sweep')
})

test(`a departure the operator closes leaves the calendar's vacancies in the next poll (${testDialect})`, async (t) => {
  const service = await build(t)
  const octo = await resellerKey(service)
  assert.deepEqual(await poll(octo), { day: 48, departure: 16 })
  const { client: manager } = await apiKeyClient(service, 'manager')
  const closed = await manager.patch(`/departures/alfama-walk/${encodeURIComponent('2026-06-02T08:30:00Z')}`, { closed: true })
  assert.equal(closed.status, 200, closed.text)
  const calendar = await octo.request('POST', '/availability/calendar', '/availability/calendar', NINETY_DAYS)
  assert.equal(calendar.body.find((d: { localDate: string }) => d.localDate === DAY).vacancies, 32, 'the two departures still open')
  const range = await octo.request('POST', '/availability', '/availability/', NINETY_DAYS)
  assert.equal(range.body.find((a: { id: string }) => a.id === DEPARTURE).status, 'CLOSED')
})
