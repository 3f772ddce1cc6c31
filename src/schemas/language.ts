import { Type } from 'typebox'

/**
 * Language tags (BCP 47, as RFC 5646 writes them: `en`, `pt`, `pt-BR`): the one pattern the
 * catalog's instance languages, translation keys and a tour's guided languages share, and the
 * shape `?lang=` takes (docs/languages.md).
 */
export const LANGUAGE_TAG_PATTERN = '^[a-z]{2,3}(-[A-Za-z0-9]+)*$'
export const LANGUAGE_TAG_MAX_LENGTH = 35
/** The most languages an instance lists (and so the most translations a text has). */
export const MAX_INSTANCE_LANGUAGES = 20
export { DEFAULT_LANGUAGES } from './language-list.ts'

export const LanguageTag = (description?: string) =>
  Type.String({ pattern: LANGUAGE_TAG_PATTERN, maxLength: LANGUAGE_TAG_MAX_LENGTH, ...(description ? { description } : {}) })

/** A language tag as a client may write it: in any case (a browser's `pt-PT`, `PT`). */
export const ANY_CASE_TAG_PATTERN = '^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$'

/**
 * `?lang=` of the guest reads that carry catalog texts: any well-formed tag, in any case (a
 * browser's `pt-PT`, `PT`); one the instance does not list is passed over like an
 * Accept-Language entry it lacks (src/domain/language-negotiation.ts).
 */
export const LangParameter = Type.String({
  pattern: ANY_CASE_TAG_PATTERN, maxLength: LANGUAGE_TAG_MAX_LENGTH,
  description: "The language of the answer's texts, chosen over Accept-Language: one of the instance's languages, or a more precise tag of one "
    + "(pt-PT reads pt); one the instance lacks is passed over, and Accept-Language, then the instance's default, decide",
  examples: ['pt'],
})

/** The query of a guest read that takes only `lang`; other parameters are let through, as before it took one. */
export const LanguageQuery = Type.Object({ lang: Type.Optional(LangParameter) })

/**
 * The `language` a booking is asked to be guided in (guest and staff bookings, a booking's
 * change): one of the tour's languages, in any case; src/domain/booking-language.ts checks it.
 */
export const GuidedLanguageParameter = (description: string) =>
  Type.String({ pattern: ANY_CASE_TAG_PATTERN, maxLength: LANGUAGE_TAG_MAX_LENGTH, description, examples: ['pt'] })
