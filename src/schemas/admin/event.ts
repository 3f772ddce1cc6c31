import { Type } from 'typebox'
import { Instant } from '../common.ts'
import { named } from '../named.ts'
import { EVENT_TYPES, EventType } from '../event-type.ts'
import { PageQuery } from './page.ts'

export const EventQuery = Type.Object({
  after: Type.Optional(Type.String({ pattern: '^evt_[0-9a-f]{32}$', maxLength: 36, description: 'The id of the last event you processed: the feed continues after it. Absent: from the oldest event kept (30 days).' })),
  types: Type.Optional(Type.String({
    pattern: '^[a-z_]+\\.[a-z_]+(,[a-z_]+\\.[a-z_]+)*$', maxLength: 1000,
    description: `Comma-separated event types to include (default all): ${EVENT_TYPES.join(', ')}`,
  })),
  ...PageQuery,
}, { additionalProperties: false })

export const OperatorEvent = named('OperatorEvent', Type.Object({
  id: Type.String({ description: 'evt_…; the same id on every delivery of the event (webhook-id)' }),
  type: EventType,
  occurred_at: Instant,
  instance: Type.Object({ prefix: Type.String(), ref: Type.String() }),
  data: Type.Record(Type.String(), Type.Unknown(), {
    description: 'booking.*: the operator record of the booking as the change left it (OperatorBooking, with its version); departure.*: the Departure '
      + 'record; contact.received: the message; newsletter.subscribed: the subscriber',
  }),
}))

export const EventList = named('EventList', Type.Object({
  events: Type.Array(OperatorEvent),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'When more events are already waiting, the id to pass as after; null when the feed is read to its end' }),
}))
