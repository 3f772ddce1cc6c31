import assert from 'node:assert/strict'
import { test } from 'node:test'
import { db, seatsTaken } from '../helpers/booking-fixtures.ts'
import { signedInStaff } from '../helpers/operator.ts'
import { contractChecked, FADO_TUE, operatorService } from './bookings-fixtures.ts'

// An Idempotency-Key answered before a privacy erasure: the erasure empties the kept answer,
// and a retry of the acknowledged request must not book a second time.
const ANA = { name: 'Ana Silva', email: 'ana@example.pt' }

test('a staff POST /bookings retried with its Idempotency-Key after the guest was erased is 410 idempotent_answer_erased and books nothing', async (t) => {
  const { service, staff } = await operatorService(t)
  const manager = await contractChecked((await signedInStaff(service, 'manager')).client)
  const walkIn = { tour_id: 'fado-night', start: FADO_TUE, party: 2, contact: ANA }
  const made = await staff.post('/bookings', walkIn, { 'idempotency-key': 'walk-in-1' })
  assert.equal(made.status, 201, made.text)
  assert.equal((await staff.post('/bookings', walkIn, { 'idempotency-key': 'walk-in-1' })).headers.get('idempotent-replayed'), 'true')

  const erased = await manager.delete(`/privacy?email=${encodeURIComponent(ANA.email)}`)
  assert.equal(erased.status, 200, erased.text)
  assert.equal(erased.body.stored_answers, 1)
  const kept = await db(service).selectFrom('idempotency_keys').selectAll().where('key', '=', 'walk-in-1').execute()
  assert.equal(kept.length, 1, 'the key stays until it expires')
  assert.ok(!JSON.stringify(kept).toLowerCase().includes('ana'), 'without the answer or the request it came from')

  for (const body of [walkIn, { ...walkIn, party: 1 }]) {
    const retried = await staff.post('/bookings', body, { 'idempotency-key': 'walk-in-1' })
    assert.equal(retried.status, 410, retried.text)
    assert.equal(retried.body.code, 'idempotent_answer_erased')
  }
  assert.equal(await seatsTaken(service, 'fado-night', FADO_TUE), 2, 'booked once')
  assert.equal((await db(service).selectFrom('bookings').select('id').where('session_id', 'like', 'staff:%').execute()).length, 1)
  assert.equal((await staff.post('/bookings', walkIn, { 'idempotency-key': 'walk-in-2' })).status, 201, 'another key books as before')
})
