import assert from 'node:assert/strict'
import { test } from 'node:test'
import { policyInLanguage, tourInLanguage, tourTexts } from '../../src/domain/translation.ts'
import { unitsOf } from '../../src/domain/units.ts'
import { demoCatalog } from '../helpers/build.ts'
import type { CatalogTour } from '../../src/schemas/catalog.ts'

const alfama = (): CatalogTour => {
  const tour = structuredClone(demoCatalog().instances[0].tours.find((t: CatalogTour) => t.id === 'alfama-walk')) as CatalogTour
  tour.translations = {
    pt: {
      title: 'Alfama e Mouraria a pé',
      meeting_point: { name: 'Miradouro de Santa Luzia (junto ao quiosque)' },
      units: { person: { name: 'Pessoa' } },
      addons: { 'ginjinha-tasting': { name: 'Prova de ginjinha' } },
    },
  }
  return tour
}

test('each text falls back to the default on its own: a translated title beside an untranslated summary and description', () => {
  const tour = alfama()
  const texts = tourTexts(tour, 'pt')
  assert.equal(texts.title, 'Alfama e Mouraria a pé')
  assert.equal(texts.summary, tour.summary)
  assert.equal(texts.description, tour.description)
  assert.equal(texts.meeting_point.name, 'Miradouro de Santa Luzia (junto ao quiosque)')
  assert.deepEqual(texts.units.person, { name: 'Pessoa', description: '' })
  assert.deepEqual(texts.addons['ginjinha-tasting'], { name: 'Prova de ginjinha', description: tour.addons[0].description })
  assert.deepEqual(texts.addons['illustrated-map'], { name: tour.addons[1].name, description: tour.addons[1].description })
  assert.deepEqual(tourTexts(tour, 'es').title, tour.title, 'a language without a translation reads the default')
})

test('tourInLanguage gives the tour its texts in the language, its implicit unit named, everything else as it was', () => {
  const tour = alfama()
  const pt = tourInLanguage(tour, 'pt')
  assert.equal(pt.translations, undefined)
  assert.deepEqual([pt.title, pt.summary, pt.meeting_point.address, pt.price], [tour.translations!.pt.title, tour.summary, tour.meeting_point.address, tour.price])
  assert.deepEqual(unitsOf(pt).map((unit) => [unit.id, unit.name, unit.price]), [['person', 'Pessoa', tour.price]])
  assert.equal(pt.addons[0].name, 'Prova de ginjinha')
  assert.equal(tourInLanguage(tour, 'es'), tour, 'no translation: the tour itself')
})

test('the policy summary in a language, else the default summary', () => {
  const policy = { ...demoCatalog().instances[0].cancellation_policy, translations: { pt: { summary: 'Cancelamento gratuito até 48 horas antes.' } } }
  assert.equal(policyInLanguage(policy, 'pt').summary, 'Cancelamento gratuito até 48 horas antes.')
  assert.equal(policyInLanguage(policy, 'es').summary, policy.summary)
  assert.equal('translations' in policyInLanguage(policy, 'pt'), false)
})
