import assert from 'node:assert/strict'
import { test } from 'node:test'
import { EMAIL_TEXTS } from '../../src/notify/email-language.ts'
import { en } from '../../src/notify/email-texts/en.ts'

// The catalogues of the guest's emails (docs/languages.md, "Emails and calendar files"): each is
// typed by the English one, so a missing key is a type error; this test fails on it too, and on
// a text left empty, so a catalogue cannot ship with a hole when the typecheck is skipped.

/** Every text of a catalogue by its path ("subjects.confirmed"), strings and the functions that write them. */
function leaves(value: unknown, path = ''): Map<string, unknown> {
  if (typeof value !== 'object' || value === null) return new Map([[path, value]])
  return new Map(Object.entries(value).flatMap(([key, child]) => [...leaves(child, path ? `${path}.${key}` : key)]))
}

/** What a text says: a string as it is, a function called with a sample for each argument it takes. */
const said = (text: unknown): unknown => (typeof text === 'function' ? text(...Array.from({ length: text.length }, () => 'Alfama & Tejo Tours')) : text)

const english = leaves(en)

test('the emails speak en, pt, es, fr and de', () => {
  assert.deepEqual(Object.keys(EMAIL_TEXTS).sort(), ['de', 'en', 'es', 'fr', 'pt'])
})

for (const [language, texts] of Object.entries(EMAIL_TEXTS)) {
  test(`the ${language} catalogue has every text of the English one, no other, each of the same kind and saying something`, () => {
    const own = leaves(texts)
    assert.deepEqual([...english.keys()].filter((key) => !own.has(key)), [], `${language} misses these`)
    assert.deepEqual([...own.keys()].filter((key) => !english.has(key)), [], `${language} has these the English one does not`)
    for (const [key, text] of own) {
      const model = english.get(key)
      assert.equal(typeof text, typeof model, `${language}.${key} is a ${typeof model} in English`)
      if (typeof text === 'function') assert.equal(text.length, (model as (...args: unknown[]) => unknown).length, `${language}.${key} takes what the English one takes`)
      if (key === 'zone') continue
      const words = said(text)
      assert.equal(typeof words, 'string', `${language}.${key} writes a string`)
      assert.ok((words as string).trim().length > 0 && !(words as string).includes('undefined'), `${language}.${key} says something: ${String(words)}`)
    }
  })
}

test('each catalogue names a locale Intl knows, and speaks its own language there', () => {
  for (const [language, texts] of Object.entries(EMAIL_TEXTS)) {
    assert.equal(new Intl.Locale(texts.locale).language, language, `${language}'s locale ${texts.locale}`)
    assert.deepEqual(Intl.DateTimeFormat.supportedLocalesOf([texts.locale]), [texts.locale])
  }
})
