/**
 * Every word of the back office's language views (catalog-languages.tsx,
 * catalog-translations.tsx, the policy's translations in catalog-policy.tsx and the
 * translation lines of the catalog list), in English, the back office's one language for now.
 * They are kept here, apart from the views, so that translating the back office later means
 * giving this module's shape in another language (docs/languages.md, "The back office").
 */

/** The language the back office is written in: language names are given in it, whatever the browser speaks. */
export const BACK_OFFICE_LANGUAGE = 'en'

const languageNames = new Intl.DisplayNames([BACK_OFFICE_LANGUAGE], { type: 'language', fallback: 'code' })

/** "Portuguese (pt)"; a tag that names no language reads as itself. */
export function languageName(tag: string): string {
  let name: string | undefined
  try {
    name = languageNames.of(tag)
  } catch {
    // Intl refuses a malformed tag (a manager's typo): it is shown as typed, and the API names it.
  }
  return name && name !== tag ? `${name} (${tag})` : tag
}

const texts = (count: number) => `${count} ${count === 1 ? 'text' : 'texts'}`

export const STRINGS = {
  nav: 'Languages',
  missing: 'Missing',
  complete: 'Complete',
  saving: 'Saving…',
  undo: 'Undo my changes',
  /** "2 of 9 texts missing". */
  missingOf: (missing: number, total: number) => (missing === 0 ? 'complete' : `${missing} of ${texts(total)} missing`),

  languages: {
    heading: 'Languages',
    intro: 'The languages guests read the catalog in. Every text of the catalog is written in the first, the default; '
      + 'the others are translations of it, and a text a translation leaves out is read in the default.',
    legend: 'Languages guests read',
    field: 'Languages, the default first',
    fieldHint: 'Codes such as en, pt, es or pt-BR, separated by commas. A language that tours are translated into cannot be removed '
      + 'or made the default until those translations are removed.',
    inOrder: (names: string) => `In this order: ${names}.`,
    asDefault: (name: string) => `${name} as the default`,
    none: 'No language yet: list at least one.',
    save: 'Save the languages',
    nothingChanged: 'Nothing to save: the languages have not changed.',
    saved: (names: string) => `Saved: guests can read the catalog in ${names}.`,
    gapsHeading: 'Missing translations',
    gapsIntro: 'For each tour, how many of its texts each language still lacks. Open a tour to translate it.',
    onlyDefault: 'The catalog has one language, so there is nothing to translate. Add a language above to translate the catalog into it.',
    gapsCaption: 'Texts left to translate, by tour and language',
    whatColumn: 'What guests read',
    policyRow: 'Cancellation policy',
    archived: '(archived)',
  },

  tour: {
    heading: 'Translations',
    backToTour: (title: string) => `Back to ${title}`,
    link: 'Translate its texts',
    linkHint: 'Each text beside its translation into the instance\'s other languages.',
    onlyDefault: 'The catalog has one language, so there is nothing to translate.',
    addLanguage: 'Add a language to translate into',
    intro: (defaultName: string) => `Each text in ${defaultName}, the default, with its translations beside it. `
      + 'A translation left empty is missing: guests who read that language see the default text.',
    countsLabel: 'Missing, by language',
    count: (name: string, missing: number, total: number) => `${name}: ${missing === 0 ? `all ${texts(total)} translated` : `${missing} of ${texts(total)} missing`}`,
    sectionTour: 'The tour',
    sectionUnits: 'Price categories',
    sectionAddons: 'Add-ons',
    unitHeading: (name: string) => `Price category: ${name}`,
    addonHeading: (name: string) => `Add-on: ${name}`,
    fields: { title: 'Title', summary: 'Summary', description: 'Description', meeting_point: 'Meeting point', name: 'Name' } as Record<string, string>,
    defaultText: (name: string) => `${name}, the default`,
    missingHint: (name: string) => `Guests reading ${name} see the default text.`,
    save: 'Save the translations',
    nothingChanged: 'Nothing to save: no translation has changed.',
    saved: 'Translations saved; guests reading those languages see them now.',
    /** A tour's line in the catalog list. */
    listLine: 'Translations',
  },

  policy: {
    heading: 'The summary in other languages',
    hint: (defaultName: string) => `Guests who read another language than ${defaultName} read the summary in theirs; left empty, in ${defaultName}.`,
    field: (name: string) => `In ${name}`,
    missingHint: (name: string) => `Guests reading ${name} read the default summary.`,
  },
}
