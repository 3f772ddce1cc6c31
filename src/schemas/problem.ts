import { Type, type Static } from 'typebox'
import { named } from './named.ts'

export const FieldError = named('FieldError', Type.Object({
  field: Type.String({ description: 'The parameter or body field at fault' }),
  message: Type.String(),
}))

export const Problem = named('Problem', Type.Object({
  type: Type.String({ description: 'URI reference naming the problem type' }),
  title: Type.String(),
  status: Type.Integer(),
  detail: Type.String(),
  code: Type.String({ description: 'Machine-readable error code; see x-error-codes' }),
  request_id: Type.String(),
  errors: Type.Optional(Type.Array(FieldError)),
  remaining: Type.Optional(Type.Integer({ description: 'insufficient_capacity: seats still open' })),
  min: Type.Optional(Type.Integer({ description: 'party_out_of_range: smallest allowed party' })),
  max: Type.Optional(Type.Integer({ description: 'party_out_of_range: largest allowed party' })),
  booking_status: Type.Optional(Type.String({ description: "invalid_transition (operator API): the booking's status now" })),
  seats_taken: Type.Optional(Type.Integer({ description: 'capacity_below_booked (operator API): the seats already taken' })),
  version: Type.Optional(Type.Integer({ description: 'precondition_failed (operator API): the current version' })),
}, { additionalProperties: false }))
export type Problem = Static<typeof Problem>
