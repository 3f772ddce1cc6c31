import { Type } from 'typebox'
import { Instant, LocalDate, Nullable } from '../common.ts'
import { named } from '../named.ts'
import { PageQuery } from './page.ts'

const Bound = (description: string) => Type.Optional(Type.Union([LocalDate, Instant], { description }))

export const AuditQuery = Type.Object({
  from: Bound("Entries at or after this: an RFC 3339 instant, or a date (from the start of that day in the instance's time zone)"),
  to: Bound("Entries before this instant, or up to the end of this date (inclusive) in the instance's time zone"),
  actor: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'An actor id (staff account or API key), or an actor type: staff, key, system or guest' })),
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'One action, e.g. staff.added, api_key.revoked, privacy.erased' })),
  booking: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "One booking's entries, by its code or id; an unknown one lists nothing" })),
  ...PageQuery,
}, { additionalProperties: false })

const Fields = Nullable(Type.Record(Type.String(), Type.Unknown(), { description: 'The changed fields' }))

export const AuditActor = named('AuditActor', Type.Object({
  type: Type.Union([Type.Literal('staff'), Type.Literal('key'), Type.Literal('system'), Type.Literal('guest')]),
  id: Nullable(Type.String()),
  name: Nullable(Type.String()),
}))

export const AuditEntry = named('AuditEntry', Type.Object({
  id: Type.String(),
  at: Instant,
  actor: AuditActor,
  action: Type.String(),
  target: Type.Object({
    type: Type.String(),
    id: Type.String(),
    ref: Nullable(Type.String({
      description: "The target as people know it: a booking's code, a departure's tour title and start, a staff member's email, an API key's or a "
        + "webhook's name; null in entries written before it was kept, and for a privacy request (whose target is the address's keyed hash)",
    })),
  }),
  before: Fields,
  after: Fields,
  request_id: Nullable(Type.String({ description: 'The id of the HTTP request that made the change; null for the CLI and the system' })),
}))

export const AuditList = named('AuditList', Type.Object({ entries: Type.Array(AuditEntry), next_cursor: Nullable(Type.String()) }))
