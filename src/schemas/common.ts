import { Type, type Static, type TLiteral, type TSchema, type TSchemaOptions, type TUnion } from 'typebox'
import { named } from './named.ts'

export const NonBlankString = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, pattern: '\\S', description })

export const SessionId = named('SessionId', Type.String({
  minLength: 12,
  maxLength: 12,
  pattern: '^[a-z0-9]{12}$',
  description: '12 lowercase alphanumeric characters',
  examples: ['k3v9x2m7q1pz'],
}))

/** One of these strings, written as `anyOf` of `const`s (the form openapi.json gives these lists; an enum would read differently). */
export const OneOf = <const T extends readonly string[]>(values: T, options?: TSchemaOptions) =>
  Type.Union(values.map((value) => Type.Literal(value)), options) as unknown as TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }>

/** A party's size, wherever one is given: a booking's, or a tour's smallest and largest. */
export const PartySize = Type.Integer({ minimum: 1, maximum: 100000 })

export const Instant = Type.String({
  format: 'date-time',
  description: "RFC 3339 time with the operator zone's offset at that instant",
})

export const LocalDate = Type.String({ format: 'date', description: 'Calendar date, YYYY-MM-DD' })

export const Currency = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code' })

export const Money = named('Money', Type.Object({
  amount: Type.Integer({ description: 'Integer minor units (cents)' }),
  currency: Currency,
}))
export type Money = Static<typeof Money>

export const Nullable = <T extends TSchema>(schema: T) =>
  Type.Union([schema, Type.Null()])

/** The body of an operation that takes none: nothing, or `{}`; any field is refused like an unknown field anywhere else. */
export const NoBody = named('NoBody', Type.Object({}, {
  additionalProperties: false,
  description: 'This operation takes no body: send none, or an empty JSON object',
  examples: [{}],
}))
