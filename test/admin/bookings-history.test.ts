import assert from 'node:assert/strict'
import { test } from 'node:test'
import { CONTACT } from '../helpers/booking-fixtures.ts'
import { ALFAMA_TUE, guestBooking, keyOf, operatorService } from './bookings-fixtures.ts'

interface Change { field: string, from: unknown, to: unknown }
interface Entry { at: string, from: string | null, to: string, action: string | null, changes: Change[], actor: { type: string, name: string | null } }

test("a booking's history lists every change staff made, the status kept, with who made it and each field before and after", async (t) => {
  const { service, staff } = await operatorService(t)
  const { booking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 })
  const patch = async (body: Record<string, unknown>) => {
    const res = await staff.patch(`/bookings/${booking.code}`, body)
    assert.equal(res.status, 200, res.text)
    service.clock.advance({ minutes: 1 })
  }
  service.clock.advance({ minutes: 1 })
  await patch({ start: '2026-06-02T14:00:00+01:00' })
  await patch({ party: 3, addons: { 'illustrated-map': 1 } })
  await patch({ contact: { email: 'ana.silva@example.pt', phone: '+351 912 345 678' } })
  await patch({ internal_note: 'Pays cash' })
  const key = await keyOf(service, 'staff')
  assert.equal((await key.post(`/bookings/${booking.code}/resend-confirmation`)).status, 202)

  const history: Entry[] = (await staff.get(`/bookings/${booking.code}`)).body.history
  assert.deepEqual(history.map((h) => [h.from, h.to, h.action, h.actor.type]), [
    [null, 'held', null, 'guest'],
    ['held', 'confirmed', null, 'guest'],
    ['confirmed', 'confirmed', 'booking.changed', 'staff'],
    ['confirmed', 'confirmed', 'booking.changed', 'staff'],
    ['confirmed', 'confirmed', 'booking.changed', 'staff'],
    ['confirmed', 'confirmed', 'booking.changed', 'staff'],
    ['confirmed', 'confirmed', 'booking.confirmation_resent', 'key'],
  ])
  assert.ok(history.slice(2, 6).every((h) => h.actor.name === 'A staff'))
  const [moved, resized, contact, note, resent] = history.slice(2)
  assert.deepEqual(moved.changes, [{ field: 'start', from: '2026-06-02T09:30:00+01:00', to: '2026-06-02T14:00:00+01:00' }])
  assert.deepEqual(resized.changes, [
    { field: 'party', from: 2, to: 3 },
    { field: 'addons', from: '', to: '1 × illustrated-map' },
    { field: 'total', from: 3800, to: 6300 },
  ])
  assert.deepEqual(contact.changes, [
    { field: 'contact.email', from: CONTACT.email, to: 'ana.silva@example.pt' },
    { field: 'contact.phone', from: null, to: '+351912345678' },
  ])
  assert.deepEqual(note.changes, [{ field: 'internal_note', from: null, to: 'Pays cash' }])
  assert.deepEqual(resent.changes, [])
  assert.ok(history.every((h, i) => i === 0 || history[i - 1].at <= h.at), 'oldest first')
  assert.ok(moved.at < resized.at && resized.at < contact.at, 'each at its own time')

  // Erased, the booking keeps its history, but not the contact it had.
  const manager = await keyOf(service, 'manager')
  assert.equal((await manager.delete('/privacy?email=ana.silva@example.pt')).status, 200)
  const after: Entry[] = (await staff.get(`/bookings/${booking.code}`)).body.history
  assert.deepEqual([after[4].action, after[4].actor.name], ['booking.changed', 'A staff'], 'the change is still listed')
  assert.ok(!JSON.stringify(after).includes('example.pt'), 'no address left in the history')
})

test('a status action lists what it set beside the status: the check-in time', async (t) => {
  const { service, key } = await operatorService(t)
  const { booking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 })
  service.clock.set('2026-06-02T08:00:00Z')
  assert.equal((await key.post(`/bookings/${booking.code}/check-in`)).status, 200)
  const history: Entry[] = (await key.get(`/bookings/${booking.code}`)).body.history
  const checkedIn = history.at(-1)!
  assert.deepEqual([checkedIn.from, checkedIn.to, checkedIn.action, checkedIn.actor.type], ['confirmed', 'completed', 'booking.checked_in', 'key'])
  assert.deepEqual(checkedIn.changes, [{ field: 'checked_in_at', from: null, to: '2026-06-02T09:00:00+01:00' }])
})
