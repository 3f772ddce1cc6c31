/**
 * The language settings' constants that the back office needs besides the schemas. This module
 * imports nothing, so the back office's bundle takes them without TypeBox (as
 * src/schemas/unit-type-list.ts does); the schemas are src/schemas/language.ts.
 */

/** An instance that lists no languages speaks this one only. */
export const DEFAULT_LANGUAGES: readonly string[] = ['en']
