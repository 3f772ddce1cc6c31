import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import ts from 'typescript'
import { PROJECT_ROOT } from '../../src/project-root.ts'
import { chooseLanguage, localeFor, PAGE_LANGUAGES } from '../../web/src/page-language.ts'
import { PAGE_CATALOGUES } from '../helpers/page-words.ts'

type Entry = string | ((...args: never[]) => string) | { [key: string]: Entry }

/** Every leaf of a catalogue by its path ("hold.startTimeOn"), with its kind and, for a sentence with blanks, how many. */
function leaves(entry: Entry, path = ''): Map<string, Entry> {
  if (typeof entry !== 'object') return new Map([[path, entry]])
  return new Map(Object.entries(entry).flatMap(([key, value]) => [...leaves(value, path ? `${path}.${key}` : key)]))
}

const shape = (entry: Entry) => typeof entry === 'function' ? `function of ${entry.length}` : typeof entry

/** A sentence with blanks filled in with sample values: numbers where the English one counts, words elsewhere. */
function fill(sentence: (...args: never[]) => string, english: (...args: never[]) => string): string {
  const params = /^\(?([^)=]*)\)?\s*=>/.exec(String(english))?.[1].split(',') ?? []
  assert.equal(params.length, english.length, `the parameters of ${String(english)}`)
  const args = params.map((param, i) => /\b(n|min|max|hours|from|to|seats|seconds)\b/.test(param) ? i + 2 : `«${i}»`)
  return (sentence as (...args: unknown[]) => string)(...args)
}

test('each catalogue of the booking page has exactly the English keys, of the same kind, with nothing left empty', () => {
  const english = leaves(PAGE_CATALOGUES.en)
  assert.ok(english.size > 150, `the English catalogue has ${english.size} entries`)
  for (const language of PAGE_LANGUAGES) {
    const words = leaves(PAGE_CATALOGUES[language])
    assert.deepEqual([...words.keys()].sort(), [...english.keys()].sort(), `${language} has the English keys, no more, no fewer`)
    for (const [path, entry] of words) {
      const model = english.get(path)!
      assert.equal(shape(entry), shape(model), `${language} ${path}`)
      const text = typeof entry === 'function' ? fill(entry as never, model as never) : entry as string
      assert.ok(text.trim().length > 0 && !/undefined|NaN|\[object/.test(text), `${language} ${path}: "${text}"`)
    }
  }
})

test('the other languages are translations, not copies of the English words', () => {
  const english = leaves(PAGE_CATALOGUES.en)
  for (const language of PAGE_LANGUAGES.filter((l) => l !== 'en')) {
    const same = [...leaves(PAGE_CATALOGUES[language])].filter(([path, entry]) => {
      const model = english.get(path)!
      return typeof entry === 'function' ? fill(entry as never, model as never) === fill(model as never, model as never) : entry === model
    }).map(([path]) => path)
    // A few words are the same in both ("Total", "Extras (optional)", "Tickets" in German).
    assert.ok(same.length <= 8, `${language} repeats the English of ${same.join(', ')}`)
  }
})

test('the page follows the browser among its languages, the switch wins, and money is written in the browser\'s own variant', () => {
  assert.equal(chooseLanguage(null, ['pt-PT', 'en-GB']), 'pt')
  assert.equal(chooseLanguage(null, ['nl-NL', 'de-AT', 'en']), 'de')
  assert.equal(chooseLanguage(null, ['nl', 'ja']), 'en')
  assert.equal(chooseLanguage(null, []), 'en')
  assert.equal(chooseLanguage('fr', ['pt-PT']), 'fr')
  assert.equal(chooseLanguage('xx', ['es-MX']), 'es', 'a stored value the page does not speak is ignored')
  assert.equal(localeFor('pt', ['pt-PT', 'en']), 'pt-PT')
  assert.equal(localeFor('en', ['pt-PT']), 'en', 'a Portuguese browser switched to English reads English formats')
})

// Where the page's text is written: every view, the page itself, its error sentences and its formats.
const SOURCES = ['web/src/views', 'web/src/page.ts', 'web/src/problems.ts', 'web/src/format.ts']
/**
 * Attributes whose values are names for the code, never read by a guest; `message` is a field
 * problem's, worded as the API's own (web/src/views/group-choice.ts), for which the page shows
 * its sentence from the catalogue (web/src/problems.ts).
 */
const CODE_ATTRIBUTES = new Set(['class', 'id', 'for', 'type', 'name', 'role', 'autocomplete', 'autocapitalize', 'inputmode', 'spellcheck', 'aria-live', 'aria-describedby', 'aria-labelledby', 'aria-controls', 'aria-current', 'aria-atomic', 'href', 'tone', 'place', 'message'])
/**
 * Files whose literals a guest never reads: the spam decoys' labels are for bots, hidden from
 * sight and from assistive technology (web/src/views/decoy-fields.ts).
 */
const NOT_READ = new Set(['web/src/views/decoy-fields.ts'])

/** String and template literals of a file that read as words: two words in a row, or a capitalised word. */
function wordLiterals(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(PROJECT_ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true)
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isTypeNode(node)) return
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      // The literal as an expression: a template's parts belong to the whole template.
      const literal = ts.isTemplateHead(node) ? node.parent : ts.isTemplateMiddle(node) || ts.isTemplateTail(node) ? node.parent.parent : node
      const parent = literal.parent
      const attribute = ts.isPropertyAssignment(parent) && parent.initializer === literal ? parent.name.getText(source).replace(/['"]/g, '') : null
      const isCall = ts.isCallExpression(parent) && parent.arguments[0] === literal
      const called = isCall ? parent.expression.getText(source) : ''
      // h('p', …) names a tag; errors thrown for developers and codes compared with === are not shown.
      const codeUse = attribute !== null && CODE_ATTRIBUTES.has(attribute)
        || ['h', 'document.getElementById', 'querySelector', 'addEventListener', 'setAttribute', 'getAttribute', 'removeAttribute', 'hasAttribute', 'Error'].some((name) => called.endsWith(name))
        || (ts.isBinaryExpression(parent) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(parent.operatorToken.kind))
        || ts.isCaseClause(parent)
      const text = node.text
      if (!codeUse && (/\b[a-z]{2,} [a-z]{2,}\b/.test(text) || /(^|[\s(])[A-Z][a-z]{2,}\b/.test(text))) found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${JSON.stringify(text)}`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

test('the page\'s views, errors and formats write no words of their own: every sentence comes from the catalogues', () => {
  const files = SOURCES.flatMap((path) => path.endsWith('.ts') ? [path] : readdirSync(join(PROJECT_ROOT, path)).map((name) => `${path}/${name}`))
  assert.ok(files.length > 15)
  const bare = files.filter((file) => !NOT_READ.has(file)).flatMap(wordLiterals)
  assert.deepEqual(bare, [])
  // The scan finds what it looks for: the decoys' labels are words.
  assert.ok(wordLiterals('web/src/views/decoy-fields.ts').length >= 1)
})
