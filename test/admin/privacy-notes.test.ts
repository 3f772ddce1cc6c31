import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, type TestService } from '../helpers/build.ts'
import { OctoClient } from '../octo/octo-client.ts'
import { ALFAMA_TUE, guestBooking, keyOf } from './bookings-fixtures.ts'

// DELETE /privacy?email= empties the free-text notes about the erased guest: the operator's
// internal_note and the reseller's notes (OCTo), on the booking and in every copy kept of
// them (booking history, audit log, event feed). Another guest's notes stay. Real HTTP, a real
// database (SQLite, or PostgreSQL under TEST_DATABASE_URL).
const ANA = { name: 'Ana Silva', email: 'ana.silva@example.pt' }
const ANA_NOTES = ['wheelchair user', 'allergic to nuts', 'pregnant', 'vegetarian lunch']
const RUI_NOTE = 'Rui is deaf: speak facing him'
const RUI_RESELLER_NOTE = 'Rui travels with a guide dog'
const AT_0930 = '2026-06-02T09:30:00+01:00'
const persons = (n: number) => Array.from({ length: n }, () => ({ unitId: 'person' }))

function assertNoNote(text: string, where: string) {
  for (const note of ANA_NOTES) assert.ok(!text.toLowerCase().includes(note), `${where} holds no "${note}"`)
}

async function resellerKey(service: TestService) {
  const catalog = service.context.catalogs.get('lisbon')!
  const { secret } = await service.context.staff.createKey(catalog.instance.ref, { name: 'OTA', role: 'reseller' }, { type: 'system', id: null, name: 'test' }, service.clock.now())
  return new OctoClient(service, 'lisbon', secret)
}

/** A reseller booking reserved and confirmed for `contact` with `notes`, then its notes changed to `changedNotes`. */
async function resold(octo: OctoClient, uuid: string, contact: { name: string, email: string }, notes: string, changedNotes: string) {
  const reserved = await octo.request('POST', '/bookings', '/bookings/',
    { uuid, productId: 'alfama-walk', optionId: 'DEFAULT', availabilityId: AT_0930, unitItems: persons(1), notes })
  assert.equal(reserved.status, 200, JSON.stringify(reserved.body))
  const confirmed = await octo.request('POST', `/bookings/${uuid}/confirm`, '/bookings/{uuid}/confirm',
    { contact: { fullName: contact.name, emailAddress: contact.email }, notes })
  assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body))
  const patched = await octo.request('PATCH', `/bookings/${uuid}`, '/bookings/{uuid}', { notes: changedNotes })
  assert.equal(patched.body.notes, changedNotes)
  return confirmed.body.supplierReference as string
}

test('an erasure empties the operator\'s and the reseller\'s notes about the guest, and every copy of them; another guest\'s notes stay', async (t) => {
  const service = await build(t)
  const manager = await keyOf(service, 'manager')
  const staff = await keyOf(service, 'staff')
  const octo = await resellerKey(service)

  const { booking: anaBooking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1 }, ANA)
  const { booking: ruiBooking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1 }, { name: 'Rui Costa', email: 'rui@example.pt' })
  for (const [code, note] of [[anaBooking.code, 'Wheelchair user, allergic to nuts'], [ruiBooking.code, RUI_NOTE]]) {
    const noted = await staff.patch(`/bookings/${code}`, { internal_note: note })
    assert.equal(noted.status, 200, noted.text)
    // A change after the note, so the feed has an event of the booking that carries it.
    const changed = await staff.patch(`/bookings/${code}`, { contact: { phone: '+351 912 000 111' } })
    assert.equal(changed.status, 200, changed.text)
  }
  const anaResold = await resold(octo, '0c1d2e3f-0001-4a5b-8c6d-7e8f9a0b0001', ANA, 'Ana is pregnant', 'Ana wants a vegetarian lunch')
  const ruiResold = await resold(octo, '0c1d2e3f-0002-4a5b-8c6d-7e8f9a0b0002', { name: 'Rui Costa', email: 'rui@example.pt' }, RUI_RESELLER_NOTE, RUI_RESELLER_NOTE)
  const feedBefore = await staff.get('/events?limit=200')
  assert.ok(feedBefore.text.toLowerCase().includes('allergic to nuts') && feedBefore.text.includes('Ana is pregnant'), 'the feed carried her notes')

  const erased = await manager.delete(`/privacy?email=${encodeURIComponent(ANA.email)}`)
  assert.equal(erased.status, 200, erased.text)
  assert.equal(erased.body.bookings_anonymised, 2)

  for (const code of [anaBooking.code, anaResold]) {
    const seen = await staff.get(`/bookings/${code}`)
    assert.equal(seen.status, 200, seen.text)
    assert.equal(seen.body.internal_note, null)
    assertNoNote(seen.text, `booking ${code} and its history`)
  }
  assert.equal((await staff.get(`/bookings/${anaResold}`)).body.reseller.notes, null)
  const octoSeen = await octo.request('GET', '/bookings/0c1d2e3f-0001-4a5b-8c6d-7e8f9a0b0001', '/bookings/{uuid}')
  assert.equal(octoSeen.body.notes, null, 'OCTo answers her booking without notes')
  assertNoNote(JSON.stringify(octoSeen.body), 'the OCTo booking')
  assertNoNote((await manager.get('/audit?limit=200')).text, 'the audit log')
  const feed = await staff.get('/events?limit=200')
  assertNoNote(feed.text, 'the feed')

  assert.equal((await staff.get(`/bookings/${ruiBooking.code}`)).body.internal_note, RUI_NOTE, 'Rui\'s note stays')
  assert.equal((await staff.get(`/bookings/${ruiResold}`)).body.reseller.notes, RUI_RESELLER_NOTE)
  assert.equal((await octo.request('GET', '/bookings/0c1d2e3f-0002-4a5b-8c6d-7e8f9a0b0002', '/bookings/{uuid}')).body.notes, RUI_RESELLER_NOTE)
  assert.ok(feed.text.includes(RUI_NOTE) && feed.text.includes(RUI_RESELLER_NOTE), 'the feed keeps Rui\'s notes')
  assert.ok((await manager.get('/audit?limit=200')).text.includes(RUI_NOTE), 'the audit log keeps Rui\'s note')
})
