import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, demoCatalog } from '../helpers/build.ts'
import { parseCatalogFile } from '../../src/catalog/catalog-file.ts'
import { assertProblem, catalogVersion, manager } from './catalog-fixtures.ts'

// The instance's languages and the translations of tours and the policy (docs/languages.md),
// through the operator API's catalog routes, and the rules that keep them to the instance's
// languages and to units and add-ons the tour has.

/** The demo catalog as it was before languages: no languages listed, nothing translated. */
function untranslatedCatalog() {
  const catalog = demoCatalog()
  for (const instance of catalog.instances) {
    delete instance.languages
    delete instance.cancellation_policy.translations
    for (const tour of instance.tours) delete tour.translations
  }
  return catalog
}

const ALFAMA_PT = {
  title: 'Passeio a pé por Alfama e Mouraria',
  meeting_point: { name: 'Largo de São Miguel' },
  units: { person: { name: 'Pessoa' } },
  addons: { 'ginjinha-tasting': { name: 'Prova de ginjinha', description: 'Um copo de ginjinha num bar antigo.' } },
}

test('languages and translations round-trip through the settings, tour and policy routes; PUT /policy without translations drops them', async (t) => {
  const service = await build(t, { catalog: untranslatedCatalog() })
  const operator = await manager(service)
  assert.equal((await operator.get('/settings')).body.languages, null, 'unset: the default, ["en"]')
  const languages = await operator.patch('/settings', { languages: ['en', 'pt', 'es'] })
  assert.equal(languages.status, 200, languages.text)
  assert.deepEqual((await operator.get('/settings')).body.languages, ['en', 'pt', 'es'])

  const patched = await operator.patch('/tours/alfama-walk', { translations: { pt: ALFAMA_PT, es: { summary: 'Las callejuelas de Alfama.' } } })
  assert.equal(patched.status, 200, patched.text)
  assert.deepEqual(patched.body.tour.translations, { pt: ALFAMA_PT, es: { summary: 'Las callejuelas de Alfama.' } })
  assert.deepEqual((await operator.get('/tours/alfama-walk')).body.translations.pt, ALFAMA_PT)
  assert.deepEqual((await operator.get('/catalog')).body.tours[0].translations.pt, ALFAMA_PT, 'the whole catalog carries them too')

  const { summary, tiers, no_show_fee_percent } = (await operator.get('/policy')).body
  const translated = await operator.put('/policy', { summary, tiers, no_show_fee_percent, translations: { pt: { summary: 'Cancelamento gratuito até 48 horas antes.' } } })
  assert.equal(translated.status, 200, translated.text)
  assert.deepEqual((await operator.get('/policy')).body.translations, { pt: { summary: 'Cancelamento gratuito até 48 horas antes.' } })
  const untranslated = await operator.put('/policy', { summary, tiers, no_show_fee_percent })
  assert.equal(untranslated.status, 200, untranslated.text)
  assert.equal((await operator.get('/policy')).body.translations, undefined, 'PUT replaces the terms whole, translations included')
})

test('translations only in the instance\'s other languages: 422 catalog_invalid naming the field, nothing changed; words for a unit the tour has not are kept unread', async (t) => {
  const service = await build(t, { catalog: untranslatedCatalog() })
  const operator = await manager(service)
  assert.equal((await operator.patch('/settings', { languages: ['en', 'pt'] })).status, 200)
  const version = await catalogVersion(service)
  assertProblem(await operator.patch('/tours/alfama-walk', { translations: { fr: { title: 'Promenade' } } }), 422, 'catalog_invalid', ['translations.fr'])
  assertProblem(await operator.patch('/tours/alfama-walk', { translations: { en: { title: 'Walk' } } }), 422, 'catalog_invalid', ['translations.en'])
  assertProblem(await operator.patch('/tours/alfama-walk', { translations: { pt: { subtitle: 'x' } } }), 400, 'validation_failed')
  assertProblem(await operator.patch('/settings', { languages: ['en', 'pt-BR', 'pt-br'] }), 422, 'catalog_invalid', ['languages'])
  const { summary, tiers, no_show_fee_percent } = (await operator.get('/policy')).body
  assertProblem(await operator.put('/policy', { summary, tiers, no_show_fee_percent, translations: { es: { summary: 'x' } } }), 422, 'catalog_invalid', ['translations.es'])
  assert.equal(await catalogVersion(service), version, 'a refused edit changes nothing')

  // Words for a unit or add-on the tour has not are kept, unread: the tour reads as before.
  const kept = { pt: { units: { child: { name: 'Criança' } }, addons: { 'no-such': { name: 'x' } } } }
  assert.equal((await operator.patch('/tours/alfama-walk', { translations: kept })).status, 200)
  assert.deepEqual((await operator.get('/tours/alfama-walk')).body.translations, kept)
  assert.equal((await operator.patch('/tours/alfama-walk', { translations: null })).status, 200)

  assert.equal((await operator.patch('/tours/alfama-walk', { translations: { pt: { title: 'Alfama a pé' } } })).status, 200)
  assertProblem(await operator.patch('/settings', { languages: ['en'] }), 422, 'catalog_invalid', ['languages'])
  assertProblem(await operator.patch('/settings', { languages: ['pt', 'en'] }), 422, 'catalog_invalid', ['languages'])
  assert.equal((await operator.patch('/tours/alfama-walk', { translations: null })).status, 200)
  assert.equal((await operator.patch('/settings', { languages: ['pt', 'en'] })).status, 200, 'once no tour is translated into it, pt may become the default')
})

test('the catalog file takes languages and translations under the same rules, naming the field in the file', () => {
  const catalog = untranslatedCatalog()
  const lisbon = catalog.instances[0]
  lisbon.languages = ['en', 'pt']
  lisbon.tours[0].translations = { pt: { title: 'Alfama a pé' } }
  lisbon.cancellation_policy.translations = { pt: { summary: 'Cancelamento gratuito.' } }
  const [parsed] = parseCatalogFile(JSON.stringify(catalog), 'test')
  assert.deepEqual([parsed.languages, parsed.tours[0].translations, parsed.cancellation_policy.translations],
    [['en', 'pt'], { pt: { title: 'Alfama a pé' } }, { pt: { summary: 'Cancelamento gratuito.' } }])
  lisbon.tours[0].translations = { es: { title: 'Alfama a pie' } }
  assert.throws(() => parseCatalogFile(JSON.stringify(catalog), 'test'), /instances\[0\]\.tours\[0\]\.translations\.es is not one of the instance's languages/)
})

test('a refused translation or language names the field the back office shows it at, and nothing changes', async (t) => {
  const service = await build(t)
  const operator = await manager(service)
  const version = await catalogVersion(service)
  const { translations } = (await operator.get('/tours/tagus-sunset-sail')).body
  const tooLong = { ...translations, pt: { ...translations.pt, title: 'x'.repeat(201) } }
  assertProblem(await operator.patch('/tours/tagus-sunset-sail', { translations: tooLong }), 400, 'validation_failed', ['translations.pt.title'])
  const unit = { ...translations, pt: { ...translations.pt, units: { child: { name: '' } } } }
  assertProblem(await operator.patch('/tours/tagus-sunset-sail', { translations: unit }), 400, 'validation_failed', ['translations.pt.units.child.name'])
  assertProblem(await operator.patch('/settings', { languages: ['en', 'PT'] }), 400, 'validation_failed', ['languages.1'])
  // The policy too is translated into pt: its translation is named as well.
  assertProblem(await operator.patch('/settings', { languages: ['en', 'es'] }), 422, 'catalog_invalid', ['cancellation_policy.translations.pt', 'languages'])
  const { summary, tiers, no_show_fee_percent } = (await operator.get('/policy')).body
  assertProblem(await operator.put('/policy', { summary, tiers, no_show_fee_percent, translations: { pt: { summary: '' } } }), 400, 'validation_failed', ['translations.pt.summary'])
  assert.equal(await catalogVersion(service), version, 'a refused edit changes nothing')
})
