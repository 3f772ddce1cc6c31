import assert from 'node:assert/strict'
import { test } from 'node:test'
import { guidedLanguage, languageOfBooking } from '../../src/domain/booking-language.ts'
import { ApiError } from '../../src/errors/api-error.ts'

const tour = { title: 'Belém by bike', languages: ['en', 'pt', 'de'] }

test('guidedLanguage: the language asked for, else the preferred one the tour offers, else the tour\'s first', () => {
  const cases: Array<[string | undefined, string | null | undefined, string]> = [
    [undefined, undefined, 'en'],
    [undefined, null, 'en'],
    [undefined, 'pt', 'pt'],
    [undefined, 'es', 'en'],
    ['de', 'pt', 'de'],
    ['DE', undefined, 'de'],
  ]
  for (const [asked, preferred, guided] of cases) assert.equal(guidedLanguage(tour, asked, preferred), guided, `${asked} ${preferred}`)
  assert.throws(() => guidedLanguage(tour, 'es', 'pt'), (err: ApiError) => err.code === 'language_not_offered' && err.status === 422
    && JSON.stringify(err.extra.errors) === JSON.stringify([{ field: 'language', message: "must be one of the tour's languages: en, pt, de" }]))
  assert.throws(() => guidedLanguage(tour, 'pt-BR'), (err: ApiError) => err.code === 'language_not_offered', 'a more precise tag is not the tour\'s')
})

test('languageOfBooking: its own, else (a booking from before migration 028) its tour\'s first, else the instance\'s default', () => {
  const instance = { languages: ['pt', 'en'] }
  assert.equal(languageOfBooking({ language: 'de' }, tour, instance), 'de')
  assert.equal(languageOfBooking({ language: null }, tour, instance), 'en')
  assert.equal(languageOfBooking({ language: null }, undefined, instance), 'pt')
  assert.equal(languageOfBooking({ language: null }, undefined, {}), 'en')
})
