import type { CatalogPolicy, CatalogTour, TourTranslation } from '../../../src/schemas/catalog.ts'
import { DEFAULT_LANGUAGES } from '../../../src/schemas/language-list.ts'
import { unitsOf } from '../../../src/domain/units.ts'

/**
 * The catalog's translations as the back office edits them (docs/languages.md): which texts of
 * a tour a translation may give, the drafts the translation forms hold (by language, by the
 * text's path in a translation, as typed), and the translations a draft makes. A translation
 * is whole in the API (PATCH /tours/{id} replaces `translations`, PUT /policy the terms), so
 * what the form does not show (words kept for a unit the tour no longer has) is carried over
 * as it was loaded.
 */

/** What a text belongs to: the tour itself, one of its units (price categories), or one of its add-ons. */
export type TextOwner = { kind: 'tour' } | { kind: 'unit', id: string, name: string } | { kind: 'addon', id: string, name: string }

/** One text of a tour that a translation may give. */
export interface TranslatableText {
  /** Its path in a translation, dotted: `title`, `meeting_point.name`, `units.child.name`. */
  path: string
  owner: TextOwner
  field: 'title' | 'summary' | 'description' | 'meeting_point' | 'name'
  /** The text in the default language, the one a translation stands beside. */
  source: string
  multiline: boolean
}

/** By language, by a text's path: what the form holds for each translation. */
export type TranslationDraft = Record<string, Record<string, string>>

/** The instance's languages, its default first (`languages` of GET /settings; null: the default list). */
export const instanceLanguages = (languages: readonly string[] | null | undefined): readonly string[] => languages ?? DEFAULT_LANGUAGES

/**
 * The texts of a tour guests read, in the order the tour editor shows them; a text left empty
 * in the default language (a unit without description) has nothing to translate. A tour
 * without units has its implicit "person" (src/domain/units.ts), which guests see named.
 */
export function translatableTexts(tour: CatalogTour): TranslatableText[] {
  const texts: TranslatableText[] = [
    { path: 'title', owner: { kind: 'tour' }, field: 'title', source: tour.title, multiline: false },
    { path: 'summary', owner: { kind: 'tour' }, field: 'summary', source: tour.summary, multiline: true },
    { path: 'description', owner: { kind: 'tour' }, field: 'description', source: tour.description, multiline: true },
    { path: 'meeting_point.name', owner: { kind: 'tour' }, field: 'meeting_point', source: tour.meeting_point.name, multiline: false },
  ]
  const named = (kind: 'unit' | 'addon', item: { id: string, name: string, description: string }) => {
    const owner: TextOwner = { kind, id: item.id, name: item.name }
    const base = `${kind === 'unit' ? 'units' : 'addons'}.${item.id}`
    texts.push({ path: `${base}.name`, owner, field: 'name', source: item.name, multiline: false })
    texts.push({ path: `${base}.description`, owner, field: 'description', source: item.description, multiline: true })
  }
  for (const unit of unitsOf(tour)) named('unit', unit)
  for (const addon of tour.addons) named('addon', addon)
  return texts.filter((text) => text.source.trim() !== '')
}

type Tree = Record<string, unknown>

function valueAt(tree: Tree | undefined, path: string): string {
  let node: unknown = tree
  for (const key of path.split('.')) node = node !== null && typeof node === 'object' ? (node as Tree)[key] : undefined
  return typeof node === 'string' ? node : ''
}

/** `tree` with `value` at `path`, or without it when the value is empty, and without the objects that leaves empty. */
function withValue(tree: Tree, [key, ...rest]: string[], value: string): Tree {
  const next: Tree = { ...tree }
  if (rest.length === 0) {
    if (value === '') delete next[key]
    else next[key] = value
  } else {
    const child = withValue((tree[key] ?? {}) as Tree, rest, value)
    if (Object.keys(child).length === 0) delete next[key]
    else next[key] = child
  }
  return next
}

/** What the form shows of `translations` for each of `languages` (the instance's others) and each text. */
export function translationDraft(translations: Record<string, Tree> | undefined, languages: readonly string[], paths: readonly string[]): TranslationDraft {
  return Object.fromEntries(languages.map((language) => [language, Object.fromEntries(paths.map((path) => [path, valueAt(translations?.[language], path)]))]))
}

/**
 * The translations a draft makes from those loaded: each text shown set as typed (trimmed;
 * empty removes it, so the guest reads the default's), everything else kept; null when no
 * language keeps any text (PATCH removes them, PUT /policy leaves them out).
 */
export function translationsOf<T extends Tree>(loaded: Record<string, T> | undefined, draft: TranslationDraft): Record<string, T> | null {
  const result: Record<string, Tree> = { ...loaded }
  for (const [language, texts] of Object.entries(draft)) {
    let tree: Tree = result[language] ?? {}
    for (const [path, typed] of Object.entries(texts)) tree = withValue(tree, path.split('.'), typed.trim())
    if (Object.keys(tree).length === 0) delete result[language]
    else result[language] = tree
  }
  return Object.keys(result).length === 0 ? null : result as Record<string, T>
}

/** The paths of `texts` that the translation into `language` leaves to the default language. */
function missingTexts(texts: readonly TranslatableText[], translation: TourTranslation | Tree | undefined): string[] {
  return texts.filter((text) => valueAt(translation as Tree | undefined, text.path).trim() === '').map((text) => text.path)
}

/** How many of a tour's texts each of `languages` lacks. */
export function tourGaps(tour: CatalogTour, languages: readonly string[]): { total: number, missing: Record<string, number> } {
  const texts = translatableTexts(tour)
  return { total: texts.length, missing: Object.fromEntries(languages.map((language) => [language, missingTexts(texts, tour.translations?.[language]).length])) }
}

/** The languages among `languages` that have no summary of the policy. */
export const policyGaps = (policy: CatalogPolicy, languages: readonly string[]): string[] =>
  languages.filter((language) => (policy.translations?.[language]?.summary ?? '').trim() === '')
