import { Type, type Static } from 'typebox'

/**
 * The request bodies of the OCTo API (docs/resellers.md) as this supplier validates them; the
 * answers are OCTo's own types (@octocloud/types). Ids are checked against the catalog by the
 * routes, which answer OCTo's INVALID_*_ID errors; a body that fails here is BAD_REQUEST.
 */
const Id = Type.String({ minLength: 1, maxLength: 200 })
const LocalDate = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', maxLength: 10 })
const Text = Type.String({ maxLength: 2000 })
const NullableText = Type.Union([Text, Type.Null()])

export const OctoUnitQuantity = Type.Object({ id: Id, quantity: Type.Integer({ minimum: 0, maximum: 1000 }) })

export const OctoCalendarBody = Type.Object({
  productId: Id,
  optionId: Id,
  localDateStart: LocalDate,
  localDateEnd: LocalDate,
  units: Type.Optional(Type.Array(OctoUnitQuantity, { maxItems: 10 })),
  currency: Type.Optional(Type.Union([Type.String(), Type.Null()])),
})
export type OctoCalendarBody = Static<typeof OctoCalendarBody>

export const OctoAvailabilityBody = Type.Object({
  productId: Id,
  optionId: Id,
  localDate: Type.Optional(LocalDate),
  localDateStart: Type.Optional(LocalDate),
  localDateEnd: Type.Optional(LocalDate),
  availabilityIds: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: 500 })),
  units: Type.Optional(Type.Array(OctoUnitQuantity, { maxItems: 10 })),
  currency: Type.Optional(Type.Union([Type.String(), Type.Null()])),
})
export type OctoAvailabilityBody = Static<typeof OctoAvailabilityBody>

export const OctoContact = Type.Object({
  fullName: Type.Optional(NullableText),
  firstName: Type.Optional(NullableText),
  lastName: Type.Optional(NullableText),
  emailAddress: Type.Optional(NullableText),
  phoneNumber: Type.Optional(NullableText),
  locales: Type.Optional(Type.Array(Type.String({ maxLength: 35 }), { maxItems: 10 })),
  postalCode: Type.Optional(NullableText),
  country: Type.Optional(NullableText),
  notes: Type.Optional(NullableText),
})
export type OctoContact = Static<typeof OctoContact>

const UnitItem = Type.Object({
  uuid: Type.Optional(Id),
  unitId: Id,
  resellerReference: Type.Optional(Text),
  contact: Type.Optional(OctoContact),
})

export const OctoReserveBody = Type.Object({
  uuid: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  productId: Id,
  optionId: Id,
  availabilityId: Id,
  expirationMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 60 })),
  notes: Type.Optional(NullableText),
  unitItems: Type.Array(UnitItem, { minItems: 1, maxItems: 1000 }),
  resellerReference: Type.Optional(Type.String({ maxLength: 200 })),
  contact: Type.Optional(OctoContact),
  currency: Type.Optional(Type.Union([Type.String(), Type.Null()])),
})
export type OctoReserveBody = Static<typeof OctoReserveBody>

export const OctoExtendBody = Type.Object({ expirationMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 60 })) })

export const OctoConfirmBody = Type.Object({
  contact: OctoContact,
  resellerReference: Type.Optional(Type.String({ maxLength: 200 })),
  emailReceipt: Type.Optional(Type.Boolean()),
  notes: Type.Optional(NullableText),
  unitItems: Type.Optional(Type.Array(UnitItem, { maxItems: 1000 })),
})
export type OctoConfirmBody = Static<typeof OctoConfirmBody>

export const OctoUpdateBody = Type.Object({
  resellerReference: Type.Optional(Type.String({ maxLength: 200 })),
  productId: Type.Optional(Id),
  optionId: Type.Optional(Id),
  availabilityId: Type.Optional(Id),
  unitItems: Type.Optional(Type.Array(UnitItem, { minItems: 1, maxItems: 1000 })),
  contact: Type.Optional(OctoContact),
  notes: Type.Optional(NullableText),
  emailReceipt: Type.Optional(Type.Boolean()),
  /** A reservation's hold from now, as extend sets it; refused on a booking no longer on hold. */
  expirationMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 60 })),
})

export const OctoCancelBody = Type.Object({ reason: Type.Optional(NullableText), force: Type.Optional(Type.Boolean()) })

export const OctoBookingQuery = Type.Object({
  resellerReference: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  supplierReference: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  localDate: Type.Optional(LocalDate),
  localDateStart: Type.Optional(LocalDate),
  localDateEnd: Type.Optional(LocalDate),
  productId: Type.Optional(Id),
  optionId: Type.Optional(Id),
})
export type OctoBookingQuery = Static<typeof OctoBookingQuery>

export const OctoUuidParams = Type.Object({ instance: Type.String(), uuid: Type.String({ minLength: 1, maxLength: 100 }) })
export const OctoProductParams = Type.Object({ instance: Type.String(), id: Type.String({ minLength: 1, maxLength: 200 }) })
