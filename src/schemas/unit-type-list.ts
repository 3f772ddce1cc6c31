/**
 * What a price category is, in OCTo's words (its unit types) written in lower case: the one list
 * the catalog, the guest and operator records, the OCTo surface and the back office share. This
 * module imports nothing, so the back office's bundle takes the list without TypeBox (as
 * src/schemas/booking-status.ts does); the schema is src/schemas/unit-type.ts.
 */
export const UNIT_TYPES = ['adult', 'youth', 'child', 'infant', 'senior', 'student', 'military', 'family', 'other'] as const

/** The most units one tour lists. */
export const MAX_UNITS = 10
