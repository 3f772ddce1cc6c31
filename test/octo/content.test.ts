import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, demoCatalog, type TestService } from '../helpers/build.ts'
import { OctoClient } from './octo-client.ts'

// octo/content (docs/resellers.md, "Capabilities"): product texts in the instance's language
// Accept-Language asks for, each from the tour's translation else the default's; answers
// checked against OCTo's OpenAPI description (octo-client.ts).

async function resellerKey(service: TestService, capabilities: string) {
  const catalog = service.context.catalogs.get('lisbon')!
  const { secret } = await service.context.staff.createKey(catalog.instance.ref, { name: 'OTA', role: 'reseller' }, { type: 'system', id: null, name: 'test' }, service.clock.now())
  return new OctoClient(service, 'lisbon', secret, capabilities)
}

test('octo/content answers the texts in the language Accept-Language asks for, with Content-Language, falling back field by field', async (t) => {
  const catalog = demoCatalog()
  const alfama = catalog.instances[0].tours.find((tour: any) => tour.id === 'alfama-walk')
  const service = await build(t, { catalog })
  const octo = await resellerKey(service, 'octo/pricing, octo/content')

  const portuguese = await octo.request('GET', '/products/alfama-walk', '/products/{id}', undefined, { 'accept-language': 'pt-PT, en;q=0.5' })
  assert.equal(portuguese.status, 200)
  assert.equal(portuguese.headers.get('octo-capabilities'), 'octo/pricing, octo/content')
  assert.equal(portuguese.headers.get('content-language'), 'pt')
  assert.equal(portuguese.headers.get('available-languages'), 'en, pt, es')
  assert.match(portuguese.headers.get('vary') ?? '', /Accept-Language/)
  const product = portuguese.body
  assert.deepEqual([product.locale, product.title, product.shortDescription], ['pt', alfama.translations.pt.title, alfama.translations.pt.summary])
  assert.equal(product.description, alfama.translations.pt.description ?? alfama.description, 'an untranslated field is read in the default language')
  assert.equal(product.internalName, alfama.title, 'the internal name stays the operator\'s')
  assert.deepEqual([product.locations[0].title, product.locations[0].types, product.locations[0].place.latitude], [alfama.meeting_point.name, ['START'], alfama.meeting_point.lat])
  assert.deepEqual([product.durationMinutesFrom, product.durationMinutesTo], [alfama.duration_minutes, null])
  assert.deepEqual(product.commentary.map((c: any) => c.language), alfama.languages)

  const unknown = await octo.request('GET', '/products', '/products/', undefined, { 'accept-language': 'de' })
  assert.equal(unknown.headers.get('content-language'), 'en', 'a language the instance lacks: its default')
  assert.equal(unknown.body.find((p: any) => p.id === 'alfama-walk').title, alfama.title)
  const booking = await octo.request('POST', '/bookings', '/bookings/', {
    uuid: '0d1e2f3a-0001-4b5c-8d6e-7f8a9b0c0001', productId: 'alfama-walk', optionId: 'DEFAULT', availabilityId: '2026-06-02T09:30:00+01:00', unitItems: [{ unitId: 'person' }],
  }, { 'accept-language': 'es' })
  assert.deepEqual([booking.headers.get('content-language'), booking.body.product.title], ['es', alfama.translations.es.title ?? alfama.title])
})

test('without octo/content the product has no content fields and no Content-Language; its locale is the instance default', async (t) => {
  const catalog = demoCatalog()
  // An instance written in Portuguese: its texts are the fields themselves, with no translations.
  const lisbon = catalog.instances[0]
  lisbon.languages = ['pt', 'en']
  delete lisbon.cancellation_policy.translations
  for (const tour of lisbon.tours) delete tour.translations
  const service = await build(t, { catalog })
  const octo = await resellerKey(service, 'octo/pricing')
  const res = await octo.request('GET', '/products/alfama-walk', '/products/{id}', undefined, { 'accept-language': 'en' })
  assert.equal(res.headers.get('octo-capabilities'), 'octo/pricing')
  assert.equal(res.headers.get('content-language'), null)
  assert.deepEqual([res.body.locale, res.body.title, res.body.locations], ['pt', undefined, undefined])
})
