import assert from 'node:assert/strict'
import { test } from 'node:test'
import { bookingRow } from '../helpers/booking-fixtures.ts'
import { keyOf, operatorService } from './bookings-fixtures.ts'

// A walk-in without an email address (issue 25, item 2): a staff booking needs a name and an
// email or a phone, and no guest email is made without an address.

const ALFAMA_THU = '2026-06-04T08:30:00Z'
const PHONE_ONLY = { name: 'Walk In', phone: '912 345 678' }

test('a walk-in is booked with a name and a phone: no email address, and no guest email is made, now or at its reminder', async (t) => {
  const { service, staff, key } = await operatorService(t)
  const made = await staff.post('/bookings', { tour_id: 'alfama-walk', start: ALFAMA_THU, party: 2, contact: PHONE_ONLY })
  assert.equal(made.status, 201, made.text)
  assert.deepEqual(made.body.contact, { name: 'Walk In', email: null, phone: '+351912345678' })
  assert.equal((await bookingRow(service, made.body.id)).contact_email, null)
  const found = await staff.get(`/bookings?q=${encodeURIComponent('Walk In')}`)
  assert.deepEqual(found.body.bookings.map((b: { code: string }) => b.code), [made.body.code])

  // Confirmed, then the reminder window: nothing for the guest. (The staff session goes idle meanwhile: a key acts from here.)
  service.clock.set('2026-06-03T09:00:00Z')
  await service.context.scheduler.runNow('emails')
  await service.context.scheduler.runNow('email-reminders')
  const manager = await keyOf(service, 'manager')
  assert.deepEqual((await manager.get(`/emails?booking=${made.body.code}`)).body.emails, [], 'no email is made without an address')

  const resend = await key.post(`/bookings/${made.body.code}/resend-confirmation`)
  assert.equal(resend.status, 409, resend.text)
  assert.match(resend.body.detail, /no email address/)

  const manifest = await key.get(`/departures/alfama-walk/${ALFAMA_THU}`)
  assert.equal(manifest.status, 200, manifest.text)
  assert.deepEqual(manifest.body.manifest.map((b: { name: string, email: string | null, phone: string | null }) => [b.name, b.email, b.phone]), [['Walk In', null, '+351912345678']])
  const csv = await key.get('/exports/bookings.csv')
  assert.equal(csv.status, 200)
  assert.match(csv.text, /,Walk In,,\+351912345678,/, 'the export leaves the email empty')

  // The contact can gain an email; losing both email and phone is refused and changes nothing.
  const bare = await key.patch(`/bookings/${made.body.code}`, { contact: { phone: null } })
  assert.equal(bare.status, 400, bare.text)
  assert.deepEqual(bare.body.errors, [{ field: 'contact', message: 'needs an email or a phone' }])
  assert.equal((await bookingRow(service, made.body.id)).contact_phone, '+351912345678')
  const withEmail = await key.patch(`/bookings/${made.body.code}`, { contact: { email: 'walkin@example.com', phone: null } })
  assert.equal(withEmail.status, 200, withEmail.text)
  assert.deepEqual(withEmail.body.contact, { name: 'Walk In', email: 'walkin@example.com', phone: null })
})

test('a staff booking with neither email nor phone, or asking to email a guest who has no address, is refused and changes nothing', async (t) => {
  const { service, staff } = await operatorService(t)
  const nameOnly = await staff.post('/bookings', { tour_id: 'alfama-walk', start: ALFAMA_THU, party: 2, contact: { name: 'Nobody Reachable' } })
  assert.equal(nameOnly.status, 400, nameOnly.text)
  assert.equal(nameOnly.body.code, 'validation_failed')
  assert.deepEqual(nameOnly.body.errors, [{ field: 'contact', message: 'needs an email or a phone' }])
  const emptyPhone = await staff.post('/bookings', { tour_id: 'alfama-walk', start: ALFAMA_THU, party: 2, contact: { name: 'Nobody Reachable', phone: ' ' } })
  assert.equal(emptyPhone.status, 400, emptyPhone.text)
  const notify = await staff.post('/bookings', { tour_id: 'alfama-walk', start: ALFAMA_THU, party: 2, contact: PHONE_ONLY, notify_guest: true })
  assert.equal(notify.status, 400, notify.text)
  assert.deepEqual(notify.body.errors, [{ field: 'notify_guest', message: 'needs contact.email' }])
  const rows = await service.context.store.db.selectFrom('bookings').select('id').where('channel', '=', 'staff').execute()
  assert.deepEqual(rows, [], 'nothing was booked')
})
