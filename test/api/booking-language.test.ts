import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build } from '../helpers/build.ts'
import type { ApiClient } from '../helpers/client.ts'
import { ALFAMA, bookingRow, CONTACT, db, seatsTaken } from '../helpers/booking-fixtures.ts'

// The language a guest booking is guided in (docs/languages.md), on the Lisbon demo instance,
// which reads en, pt and es. The walk is guided in en, pt and es, the workshop in en and pt,
// the sail in en, pt, es and fr (French is not one of the instance's reading languages).

const WORKSHOP = { tour_id: 'pastel-de-nata-workshop', start: '2026-06-04T09:00:00Z', party: 1 }
const SAIL = { tour_id: 'tagus-sunset-sail', start: '2026-06-02T16:30:00Z', party: 1 }

async function hold(client: ApiClient, body: Record<string, unknown>, headers: Record<string, string> = {}, query = '') {
  const session = await client.session()
  const res = await client.post(`/booking${query}`, body, { headers: { ...session.headers, ...headers } })
  return { session, res }
}

test('a hold without language is guided in the reader\'s language when the tour offers it, else in the tour\'s first', async (t) => {
  const service = await build(t)
  const client = service.client()
  const cases: Array<[Record<string, unknown>, Record<string, string>, string, string]> = [
    [ALFAMA, {}, '', 'en'],
    [ALFAMA, { 'accept-language': 'pt-PT,pt;q=0.9,en;q=0.5' }, '', 'pt'],
    [ALFAMA, { 'accept-language': 'pt' }, '?lang=es', 'es'],
    [WORKSHOP, { 'accept-language': 'pt' }, '', 'pt'],
    [WORKSHOP, { 'accept-language': 'es' }, '', 'en'],
    [SAIL, { 'accept-language': 'fr' }, '', 'en'],
  ]
  for (const [body, headers, query, language] of cases) {
    const { res } = await hold(client, body, headers, query)
    assert.equal(res.status, 200, res.text)
    assert.equal(res.body.language, language, `${body.tour_id} ${JSON.stringify(headers)}${query}`)
    assert.equal((await bookingRow(service, res.body.id)).language, language)
  }
})

test('a language asked for is kept when the tour is guided in it, in the tour\'s spelling, whatever the reader reads', async (t) => {
  const service = await build(t)
  const client = service.client()
  const french = await hold(client, { ...SAIL, language: 'fr' }, { 'accept-language': 'pt' })
  assert.equal(french.res.status, 200, french.res.text)
  assert.equal(french.res.body.language, 'fr')
  assert.equal(french.res.headers.get('content-language'), 'pt', 'the record is still read in the reader\'s language')
  const upper = await hold(client, { ...ALFAMA, language: 'PT' })
  assert.equal(upper.res.body.language, 'pt')
})

test('a language the tour is not guided in is 422 language_not_offered naming language, and nothing is held', async (t) => {
  const service = await build(t)
  const client = service.client()
  for (const language of ['fr', 'pt-BR', 'de']) {
    const { res } = await hold(client, { ...ALFAMA, language })
    assert.equal(res.status, 422, res.text)
    assert.equal(res.headers.get('content-type')?.split(';')[0], 'application/problem+json')
    assert.equal(res.body.code, 'language_not_offered')
    assert.deepEqual(res.body.errors.map((e: { field: string }) => e.field), ['language'])
    assert.match(res.body.errors[0].message, /en, pt, es/)
  }
  const malformed = await hold(client, { ...ALFAMA, language: 'português' })
  assert.equal(malformed.res.status, 400, malformed.res.text)
  assert.equal(malformed.res.body.code, 'validation_failed')
  assert.equal(malformed.res.body.errors[0].field, 'language')
  assert.equal(await seatsTaken(service, ALFAMA.tour_id, ALFAMA.start), 0)
  assert.deepEqual(await db(service).selectFrom('bookings').select('id').execute(), [])
})

test('the language survives checkout and reads the same in every language; a booking from before languages reads its tour\'s first', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { session, res } = await hold(client, ALFAMA, { 'accept-language': 'es' })
  assert.equal(res.body.language, 'es')
  const checkedOut = await client.post('/checkout', CONTACT, { headers: { ...session.headers, 'accept-language': 'pt' } })
  assert.equal(checkedOut.status, 200, checkedOut.text)
  assert.equal(checkedOut.body.language, 'es', 'checkout does not choose again')
  const read = await client.get('/booking', { headers: { ...session.headers, 'accept-language': 'en' } })
  assert.equal(read.body.language, 'es')
  assert.equal((await bookingRow(service, res.body.id)).language, 'es')

  // As migration 028 leaves a booking made before it.
  await db(service).updateTable('bookings').set({ language: null }).where('id', '=', res.body.id).execute()
  const old = await client.get('/booking', { headers: { ...session.headers, 'accept-language': 'pt' } })
  assert.equal(old.status, 200, old.text)
  assert.equal(old.body.language, 'en')
})
