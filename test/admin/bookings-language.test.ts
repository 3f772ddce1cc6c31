import assert from 'node:assert/strict'
import { test } from 'node:test'
import { CONTACT, db } from '../helpers/booking-fixtures.ts'
import { parseCsv } from '../helpers/csv.ts'
import { departurePath } from './departures-fixtures.ts'
import { ALFAMA_TUE, guestBooking, operatorService, WORKSHOP_TUE } from './bookings-fixtures.ts'

// The language a booking is guided in, on the operator's side (docs/languages.md): staff
// bookings and changes choose it under the guests' rule, the list filters by it. On the
// Lisbon demo the walk is guided in en, pt and es, the workshop in en and pt.

const ALFAMA = { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 }
const fieldsOf = (body: { errors?: Array<{ field: string }> }) => body.errors?.map((e) => e.field)

test('a staff booking is guided in the language given, else the tour\'s first; one the tour lacks is 422 and nothing is booked', async (t) => {
  const { service, staff } = await operatorService(t)
  const pt = await staff.post('/bookings', { ...ALFAMA, contact: CONTACT, language: 'pt' })
  assert.equal(pt.status, 201, pt.text)
  assert.equal(pt.body.language, 'pt')
  const unsaid = await staff.post('/bookings', { ...ALFAMA, contact: CONTACT }, { 'accept-language': 'es' })
  assert.equal(unsaid.body.language, 'en', 'the operator API does not read Accept-Language')
  const refused = await staff.post('/bookings', { ...ALFAMA, contact: CONTACT, language: 'de' })
  assert.equal(refused.status, 422, refused.text)
  assert.equal(refused.body.code, 'language_not_offered')
  assert.deepEqual(fieldsOf(refused.body), ['language'])
  assert.equal((await db(service).selectFrom('bookings').select('id').execute()).length, 2)
})

test('PATCH language alone is a change: a new version, its event and its history line; the same language changes nothing', async (t) => {
  const { service, staff } = await operatorService(t)
  const { booking } = await guestBooking(service, ALFAMA)
  assert.equal(booking.language, 'en')
  const before = (await staff.get(`/bookings/${booking.code}`)).body
  const changed = await staff.patch(`/bookings/${booking.code}`, { language: 'es' })
  assert.equal(changed.status, 200, changed.text)
  assert.deepEqual([changed.body.language, changed.body.version], ['es', before.version + 1])
  const { events } = (await staff.get('/events?types=booking.changed')).body
  assert.deepEqual(events.map((e: any) => [e.data.code, e.data.language]), [[booking.code, 'es']])
  const detail = (await staff.get(`/bookings/${booking.code}`)).body
  assert.deepEqual(detail.history.at(-1).changes, [{ field: 'language', from: 'en', to: 'es' }])

  const same = await staff.patch(`/bookings/${booking.code}`, { language: 'ES' })
  assert.equal(same.body.version, changed.body.version, 'the language it has already')
  const refused = await staff.patch(`/bookings/${booking.code}`, { language: 'fr' })
  assert.equal(refused.status, 422, refused.text)
  assert.equal(refused.body.code, 'language_not_offered')
  assert.deepEqual(fieldsOf(refused.body), ['language'])
  const after = (await staff.get(`/bookings/${booking.code}`)).body
  assert.deepEqual([after.language, after.version], ['es', changed.body.version])
})

test('a move keeps the language when the new tour is guided in it, else is refused until a language is given', async (t) => {
  const { service, staff } = await operatorService(t)
  const { booking } = await guestBooking(service, { ...ALFAMA, language: 'es' })
  const move = { tour_id: 'pastel-de-nata-workshop', start: WORKSHOP_TUE }
  const refused = await staff.patch(`/bookings/${booking.code}`, move)
  assert.equal(refused.status, 422, refused.text)
  assert.equal(refused.body.code, 'language_not_offered')
  assert.deepEqual(fieldsOf(refused.body), ['language'])
  assert.equal((await staff.get(`/bookings/${booking.code}`)).body.tour.id, 'alfama-walk', 'nothing moved')
  const moved = await staff.patch(`/bookings/${booking.code}`, { ...move, language: 'pt' })
  assert.equal(moved.status, 200, moved.text)
  assert.deepEqual([moved.body.tour.id, moved.body.language], ['pastel-de-nata-workshop', 'pt'])
  const back = await staff.patch(`/bookings/${booking.code}`, { tour_id: 'alfama-walk', start: ALFAMA_TUE })
  assert.equal(back.status, 200, back.text)
  assert.equal(back.body.language, 'pt', 'kept, as the walk is guided in it')
})

test('GET /bookings?language= lists the bookings guided in it; one from before bookings kept a language counts as its tour\'s first', async (t) => {
  const { service, staff } = await operatorService(t)
  const en = await guestBooking(service, ALFAMA)
  const pt = await guestBooking(service, { ...ALFAMA, language: 'pt' })
  const old = await guestBooking(service, { ...ALFAMA, language: 'es' })
  await db(service).updateTable('bookings').set({ language: null }).where('id', '=', old.booking.id).execute()
  const codes = async (query: string) => {
    const res = await staff.get(`/bookings${query}`)
    assert.equal(res.status, 200, res.text)
    return res.body.bookings.map((b: { code: string }) => b.code).sort()
  }
  assert.deepEqual(await codes('?language=pt'), [pt.booking.code])
  assert.deepEqual(await codes('?language=PT'), [pt.booking.code])
  assert.deepEqual(await codes('?language=en'), [en.booking.code, old.booking.code].sort())
  assert.deepEqual(await codes('?language=es'), [])
  assert.deepEqual(await codes('?language=de'), [])
  assert.equal((await staff.get(`/bookings/${old.booking.code}`)).body.language, 'en')
  const malformed = await staff.get('/bookings?language=p%C3%B6')
  assert.equal(malformed.status, 400, malformed.text)
  assert.deepEqual(fieldsOf(malformed.body), ['language'])
})

test('the manifest gives each booking\'s language and the guests per language; both CSV exports end with a language column', async (t) => {
  const { service, staff } = await operatorService(t)
  const en = await guestBooking(service, ALFAMA, { name: 'Ana Silva', email: 'ana@example.pt' })
  const pt = await guestBooking(service, { ...ALFAMA, party: 3, language: 'pt' }, { name: 'Bruno Sousa', email: 'bruno@example.pt' })
  const old = await guestBooking(service, { ...ALFAMA, party: 1, language: 'es' }, { name: 'Carla Dias', email: 'carla@example.pt' })
  await db(service).updateTable('bookings').set({ language: null }).where('id', '=', old.booking.id).execute()
  const cancelled = await staff.post('/bookings', { ...ALFAMA, party: 4, contact: { name: 'Dora Reis', email: 'dora@example.pt' }, language: 'es' })
  assert.equal((await staff.post(`/bookings/${cancelled.body.code}/cancel`, {})).status, 200)

  const path = departurePath('alfama-walk', ALFAMA_TUE)
  const { manifest, totals } = (await staff.get(path)).body
  assert.deepEqual(manifest.map((e: { code: string, language: string }) => [e.code, e.language]),
    [[en.booking.code, 'en'], [pt.booking.code, 'pt'], [old.booking.code, 'en']])
  assert.deepEqual(totals.languages, [{ language: 'en', bookings: 2, guests: 3 }, { language: 'pt', bookings: 1, guests: 3 }],
    "in the tour's order; the cancelled booking's Spanish counts nowhere, the booking that kept no language as its tour's first")

  const manifestCsv = parseCsv((await staff.get(path, { accept: 'text/csv' })).text)
  assert.equal(manifestCsv[0].at(-1), 'language')
  assert.deepEqual(manifestCsv.slice(1).map((row) => [row[0], row.at(-1)]), [[en.booking.code, 'en'], [pt.booking.code, 'pt'], [old.booking.code, 'en']])
  const exported = parseCsv((await staff.get('/exports/bookings.csv?language=pt')).text)
  assert.equal(exported[0].at(-1), 'language')
  assert.deepEqual(exported.slice(1).map((row) => [row[0], row.at(-1)]), [[pt.booking.code, 'pt']])
})
