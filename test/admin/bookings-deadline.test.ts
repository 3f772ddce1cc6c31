import assert from 'node:assert/strict'
import { test } from 'node:test'
import { runHousekeeping } from '../../src/jobs/housekeeping.ts'
import type { TestService } from '../helpers/build.ts'
import { bookingRow, seatsTaken } from '../helpers/booking-fixtures.ts'
import { auditEntries, FADO_MON, FADO_TUE, guestBooking, operatorService } from './bookings-fixtures.ts'

const housekeeping = (service: TestService) =>
  runHousekeeping(service.context, service.clock.now())

test('a request nobody answers within 24 hours is declined by the system, its seats freed; answered ones stay', async (t) => {
  const { service, key } = await operatorService(t)
  const waiting = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 3 })
  const answered = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })
  await key.post(`/bookings/${answered.booking.code}/confirm`)
  const byStaff = await key.post('/bookings', { tour_id: 'fado-night', start: FADO_TUE, party: 1, status: 'requested', contact: { name: 'Rui', email: 'rui@example.pt' } })
  assert.equal(await seatsTaken(service, 'fado-night', FADO_TUE), 6)

  service.clock.set('2026-06-02T07:59:59Z')
  assert.equal((await housekeeping(service)).declinedRequests, 0)
  service.clock.set('2026-06-02T08:00:00Z')
  const report = await housekeeping(service)
  assert.equal(report.declinedRequests, 2)
  assert.equal(await seatsTaken(service, 'fado-night', FADO_TUE), 2)
  assert.equal((await bookingRow(service, answered.booking.id)).status, 'confirmed')

  const detail = await key.get(`/bookings/${waiting.booking.code}`)
  assert.equal(detail.body.status, 'declined')
  assert.equal(detail.body.decline_reason, 'no answer in time')
  assert.deepEqual(detail.body.history.at(-1), {
    at: '2026-06-02T09:00:00+01:00', from: 'requested', to: 'declined', action: 'booking.declined',
    changes: [{ field: 'decline_reason', from: null, to: 'no answer in time' }], actor: { type: 'system', id: null, name: null },
  })
  const [entry] = await auditEntries(service, byStaff.body.id)
  assert.equal(entry.action, 'booking.created')
  assert.equal((await housekeeping(service)).declinedRequests, 0, 'declined once')
})

test("the deadline never passes the departure's cutoff", async (t) => {
  const { service } = await operatorService(t)
  // Tonight's Fado, requested at 09:00 local: the 24 hours would end after the cutoff at 17:30 local.
  const tonight = await guestBooking(service, { tour_id: 'fado-night', start: FADO_MON, party: 2 })
  service.clock.set('2026-06-01T16:29:00Z')
  assert.equal((await housekeeping(service)).declinedRequests, 0)
  service.clock.set('2026-06-01T16:30:00Z')
  assert.equal((await housekeeping(service)).declinedRequests, 1)
  assert.equal((await bookingRow(service, tonight.booking.id)).status, 'declined')
  const guestView = await tonight.client.get('/booking', { headers: tonight.session.headers })
  assert.equal(guestView.body.status, 'declined', 'the guest sees it declined')
  assert.equal(await seatsTaken(service, 'fado-night', FADO_MON), 0)
})

test('nodes sweeping at once decline each overdue request once, and an operator answering at that moment is not overruled', async (t) => {
  const { service, key } = await operatorService(t)
  const requests = []
  for (let i = 0; i < 6; i++) requests.push(await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 1 }))
  service.clock.set('2026-06-02T08:00:00Z')
  const [confirmed, ...reports] = await Promise.all([
    key.post(`/bookings/${requests[0].booking.code}/confirm`),
    housekeeping(service),
    housekeeping(service),
    housekeeping(service),
  ])
  const declined = reports.reduce((sum, r) => sum + r.declinedRequests, 0)
  const statuses = await Promise.all(requests.map(async (r) => (await bookingRow(service, r.booking.id)).status))
  assert.equal(declined, statuses.filter((s) => s === 'declined').length)
  assert.equal(statuses.filter((s) => s === 'confirmed').length, confirmed.status === 200 && confirmed.body.status === 'confirmed' ? 1 : 0)
  assert.equal(statuses.filter((s) => s === 'requested').length, 0)
  assert.equal(await seatsTaken(service, 'fado-night', FADO_TUE), statuses.filter((s) => s === 'confirmed').length)
})
