import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ApiError } from '../../errors/api-error.ts'
import { EventList, EventQuery } from '../../schemas/admin/event.ts'
import { isEventType, type EventType } from '../../schemas/event-type.ts'
import { eventView } from '../event-view.ts'

function typesOf(list: string | undefined): EventType[] | null {
  if (list === undefined) return null
  const types = [...new Set(list.split(','))]
  const unknown = types.find((type) => !isEventType(type))
  if (unknown) throw new ApiError('validation_failed', `"${unknown}" is not an event type`, { errors: [{ field: 'types', message: `"${unknown}" is not an event type` }] })
  return types as EventType[]
}

/** The event feed (docs/events-and-webhooks.md, "Events"): what happened, in commit order, for 30 days. */
export const eventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { eventFeed } = app.tourdesk

  app.get('/events', {
    schema: { querystring: EventQuery, response: { 200: EventList } },
    config: {
      access: 'bookings.read',
      summary: 'The event feed, in commit order',
      description: 'Every event since `after` (exclusive), oldest first, in the order their changes committed: a consumer that keeps the id of the last '
        + 'event it processed and asks again with it never misses one and never sees one twice. Events are kept 30 days; an `after` the feed no '
        + 'longer holds is 404 not_found (start again without it). Holds and quarantined submissions make no events.',
    },
  }, async (request) => {
    const { ref } = request.catalog.instance
    const { after } = request.query
    const limit = request.query.limit ?? 50
    const types = typesOf(request.query.types)
    const afterSeq = after === undefined ? 0 : await eventFeed.seqOf(ref, after)
    if (afterSeq === null) throw new ApiError('not_found', `The feed holds no event ${after}: it is older than 30 days, or was never made`)
    const rows = await eventFeed.list(ref, { afterSeq, types, limit: limit + 1 })
    const page = rows.slice(0, limit)
    return {
      events: page.map((row) => eventView(row, request.catalog)),
      next_cursor: rows.length > limit ? page[page.length - 1].id : null,
    }
  })
}
