import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build } from '../helpers/build.ts'
import { holding } from '../helpers/booking-fixtures.ts'
import { manager } from '../admin/catalog-fixtures.ts'

// Guest reads in the reader's language (docs/languages.md), on the Lisbon demo instance,
// which lists en, pt and es and translates its tours and policy into pt and es.

const ALFAMA = { tour_id: 'alfama-walk', start: '2026-06-02T08:30:00Z', party: 1 }

test('the tour, the list and the policies answer in the language chosen, with Content-Language and Vary: Accept-Language', async (t) => {
  const service = await build(t)
  const client = service.client()
  const cases: Array<[Record<string, string>, string, string]> = [
    [{}, '', 'en'],
    [{ 'accept-language': 'pt-PT,pt;q=0.9,en;q=0.8' }, '', 'pt'],
    [{ 'accept-language': 'de, es;q=0.5' }, '', 'es'],
    [{ 'accept-language': 'fr' }, '', 'en'],
    [{ 'accept-language': 'pt;q=nope' }, '', 'en'],
    [{ 'accept-language': 'pt' }, '?lang=es', 'es'],
    [{ 'accept-language': 'es' }, '?lang=PT-br', 'pt'],
  ]
  for (const [headers, query, language] of cases) {
    const tour = await client.get(`/tours/alfama-walk${query}`, { headers })
    assert.equal(tour.status, 200, tour.text)
    assert.equal(tour.headers.get('content-language'), language, JSON.stringify(headers) + query)
    assert.match(tour.headers.get('vary') ?? '', /Accept-Language/)
  }
  const en = (await client.get('/tours/alfama-walk')).body
  const pt = (await client.get('/tours/alfama-walk', { headers: { 'accept-language': 'pt' } })).body
  assert.equal(en.title, 'Alfama & Mouraria Walking Tour')
  assert.equal(pt.title, 'Passeio a pé por Alfama e Mouraria')
  assert.equal(pt.description, en.description, 'an untranslated field reads the default')
  assert.equal(pt.addons[0].name, 'Prova de ginjinha')
  assert.equal(pt.units[0].name, 'Pessoa')
  assert.deepEqual({ ...pt, title: en.title, summary: en.summary, addons: en.addons, units: en.units }, en, 'only the texts differ')

  const policies = await client.get('/policies?lang=es')
  assert.match(policies.body.cancellation.summary, /^Cancelación gratuita/)
  assert.equal(policies.headers.get('content-language'), 'es')
  assert.equal((await client.get('/policies')).body.cancellation.summary.startsWith('Cancel free of charge'), true)
  const malformed = await client.get('/tours?lang=%21%21')
  assert.equal(malformed.status, 400, 'a lang of no language shape is refused, naming it')
  assert.equal(malformed.body.errors[0].field, 'lang')
  assert.equal(malformed.headers.get('content-language'), null, 'a problem is not said to be in the reader\'s language')
})

test('kept tour lists are kept per language: a pt list after an en one answers pt, and en again en', async (t) => {
  const service = await build(t)
  const client = service.client()
  const titles = async (headers: Record<string, string>) => (await client.get('/tours', { headers })).body.tours.map((tour: any) => tour.title)
  const en = await titles({})
  const pt = await titles({ 'accept-language': 'pt' })
  assert.notDeepEqual(pt, en)
  assert.equal(pt[0], 'Passeio a pé por Alfama e Mouraria')
  assert.deepEqual(await titles({}), en)
  assert.deepEqual(await titles({ 'accept-language': 'pt' }), pt)
  const page = await client.get('/tours?limit=2&lang=es')
  assert.deepEqual(page.body.tours.map((tour: any) => tour.title), ['Paseo a pie por Alfama y Mouraria', 'Paseo en velero al atardecer por el Tajo'])
})

test('search in pt finds a Portuguese title typed without accents, and the default texts still match', async (t) => {
  const service = await build(t)
  const client = service.client()
  const ids = async (q: string, headers: Record<string, string> = {}) =>
    (await client.get(`/tours?q=${encodeURIComponent(q)}`, { headers })).body.tours.map((tour: any) => tour.id)
  assert.deepEqual(await ids('pasteis nata', { 'accept-language': 'pt' }), ['pastel-de-nata-workshop'])
  assert.deepEqual(await ids('passeio veleiro', { 'accept-language': 'pt' }), ['tagus-sunset-sail'])
  assert.deepEqual(await ids('veleiro'), [], 'in English, the Portuguese words are not searched')
  assert.deepEqual(await ids('sunset veleiro', { 'accept-language': 'pt' }), ['tagus-sunset-sail'], 'a word of each language')
  assert.deepEqual(await ids('excursion autocar', { 'accept-language': 'es' }), ['sintra-day-trip'])
})

test('the guest booking record names the tour and meeting point in the reader\'s language', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { session } = await holding(client, ALFAMA)
  const en = await client.get('/booking', { headers: session.headers })
  const pt = await client.get('/booking', { headers: { ...session.headers, 'accept-language': 'pt' } })
  assert.equal(en.body.tour.title, 'Alfama & Mouraria Walking Tour')
  assert.equal(pt.body.tour.title, 'Passeio a pé por Alfama e Mouraria')
  assert.equal(pt.headers.get('content-language'), 'pt')
  assert.equal(pt.body.meeting_point.address, en.body.meeting_point.address)
})

test('a translation edited through the operator API is read and searched in its language at once; the old words are gone', async (t) => {
  const service = await build(t)
  const client = service.client()
  const operator = await manager(service)
  const pt = { 'accept-language': 'pt' }
  const ids = async (q: string) => (await client.get(`/tours?q=${encodeURIComponent(q)}`, { headers: pt })).body.tours.map((tour: any) => tour.id)
  assert.deepEqual(await ids('veleiro'), ['tagus-sunset-sail'])
  const { translations } = (await operator.get('/tours/tagus-sunset-sail')).body
  const edited = await operator.patch('/tours/tagus-sunset-sail', { translations: { ...translations, pt: { ...translations.pt, title: 'Vela ao entardecer no Tejo' } } })
  assert.equal(edited.status, 200, edited.text)
  assert.deepEqual(await ids('veleiro'), [])
  assert.deepEqual(await ids('entardecer'), ['tagus-sunset-sail'])
  assert.equal((await client.get('/tours/tagus-sunset-sail', { headers: pt })).body.title, 'Vela ao entardecer no Tejo')
  assert.equal((await client.get('/tours/tagus-sunset-sail')).body.title, 'Tagus Sunset Sail', 'the default stands')
})
