import { type Static } from 'typebox'
import { OneOf } from './common.ts'
import { MAX_UNITS, UNIT_TYPES } from './unit-type-list.ts'

/** The unit types (src/schemas/unit-type-list.ts) as a schema. */
export { MAX_UNITS, UNIT_TYPES }
export const UnitType = OneOf(UNIT_TYPES, { description: "What the unit is, one of OCTo's unit types in lower case" })
export type UnitType = Static<typeof UnitType>

/** A unit's id: lower-case letters, digits and dashes, unique in its tour. */
export const UNIT_ID_PATTERN = '^[a-z0-9-]{1,40}$'
/** The most of one unit one booking takes. */
export const MAX_UNIT_QUANTITY = 100
