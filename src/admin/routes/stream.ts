import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { roleMay, type Permission } from '../../domain/roles.ts'
import { ApiError } from '../../errors/api-error.ts'
import { addSecurityHeaders } from '../../http/security-headers.ts'
import type { EventRow } from '../../store/events.ts'
import { eventView } from '../event-view.ts'
import { EventStreamHub, STREAM_BEHIND_LIMIT_MS, STREAM_LIMITS, STREAM_RECHECK_MS, type StreamSubscriber } from '../event-stream.ts'

/** Who may open a stream, and keep it open: checked at the start by the one access check (access.ts), then again by the hub. */
const STREAM_ACCESS: Permission = 'bookings.read'
const HEARTBEAT_MS = 15_000
const EVENT_ID = /^evt_[0-9a-f]{32}$/
/** How long a browser waits before reconnecting (it then sends Last-Event-ID). */
const RETRY_MS = 2_000

/** The answer's headers as Fastify would have sent them: the stream writes the socket itself. */
function streamHeaders(reply: FastifyReply): Record<string, string> {
  addSecurityHeaders(reply)
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = String(value)
  return {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    // Proxies such as nginx would otherwise hold the messages back in their buffer.
    'x-accel-buffering': 'no',
  }
}

/** GET /stream: the event feed as server-sent events, for screens that update without reloading (the back office's Requests). */
export const streamRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { eventFeed, staff, clock } = app.tourdesk
  // The catalog of now, so names and zone follow live edits.
  const render = (instanceId: string, row: EventRow) => {
    const catalog = app.tourdesk.catalogs.byRef(instanceId)
    if (!catalog) throw new Error(`event stream: no catalog for instance ${instanceId}`)
    return `id: ${row.id}\ndata: ${JSON.stringify(eventView(row, catalog))}\n\n`
  }
  const hub = new EventStreamHub(eventFeed, clock, render, (err) => app.log.warn({ err }, 'event stream: could not read the feed'))
  app.addHook('preClose', (done) => {
    hub.endAll()
    done()
  })

  app.get('/stream', {
    config: {
      access: STREAM_ACCESS,
      eventStream: true,
      errors: ['validation_failed', 'too_many_streams'],
      summary: 'The event feed as server-sent events, live',
      description: 'A text/event-stream that stays open: every event (as GET /events gives it) once its change has committed, in commit order, '
        + 'as a message whose id is the event id and whose data is the event as JSON. Without Last-Event-ID it starts with the next event; '
        + 'with it (browsers send it when they reconnect) it first sends every event after that one, so nothing is missed or repeated. '
        + 'A Last-Event-ID the feed no longer holds (older than 30 days) is 404 not_found: read the current state again and reconnect without it. '
        + `Events reach the stream within about a second, from whichever node made them. A comment line (":") is sent every ${HEARTBEAT_MS / 1000} s `
        + 'so proxies keep the connection. The same roles as GET /events may read it, and only while the credential holds: '
        + `it is read again every ${STREAM_RECHECK_MS / 1000} s and before each event, and the stream ends once the session is signed out, `
        + 'expired (12 hours) or idle (2 hours; the stream itself does not keep a session alive), the account disabled or its role no longer '
        + 'one that reads events, or the API key revoked; reconnecting then answers 401 or 403. The stream also ends when the node shuts down, and the client reconnects. '
        + `A node serves at most ${STREAM_LIMITS.perNode} streams and one staff member or API key may hold ${STREAM_LIMITS.perCredential}; `
        + 'past either, opening one answers 429 too_many_streams. Events are sent only as fast as the reader takes them: '
        + `a stream whose reader takes nothing for ${STREAM_BEHIND_LIMIT_MS / 1000} s while events wait is closed, and the reader resumes with Last-Event-ID.`,
    },
  }, async (request, reply) => {
    const { ref } = request.catalog.instance
    const lastEventId = request.headers['last-event-id']
    let afterSeq: number
    if (typeof lastEventId === 'string' && lastEventId !== '') {
      if (!EVENT_ID.test(lastEventId)) {
        throw new ApiError('validation_failed', 'Last-Event-ID must be an event id such as evt_…', { errors: [{ field: 'Last-Event-ID', message: 'must be an event id' }] })
      }
      const seq = await eventFeed.seqOf(ref, lastEventId)
      if (seq === null) throw new ApiError('not_found', `The feed holds no event ${lastEventId}: it is older than 30 days, or was never made`)
      afterSeq = seq
    } else {
      afterSeq = await eventFeed.lastSeq(ref)
    }

    const identity = request.staff!
    const socket = reply.raw
    const subscriber: StreamSubscriber = {
      instanceId: ref,
      afterSeq,
      credential: `${identity.kind} ${identity.sessionId ?? identity.id}`,
      holder: `${identity.kind} ${identity.id}`,
      async mayStillRead() {
        const current = await staff.recheck(ref, identity, clock.now())
        return current !== null && roleMay(current.role, STREAM_ACCESS)
      },
      write: (message) => socket.write(message),
      end: () => socket.end(),
      drop: () => socket.destroy(),
    }
    hub.add(subscriber)
    reply.hijack()
    socket.writeHead(200, streamHeaders(reply))
    socket.write(`retry: ${RETRY_MS}\n\n`)
    // A full socket gets no heartbeat either: it already has plenty to send.
    const heartbeat = setInterval(() => socket.writableNeedDrain || socket.write(': heartbeat\n\n'), HEARTBEAT_MS)
    socket.on('drain', () => hub.drained(subscriber))
    socket.on('close', () => {
      clearInterval(heartbeat)
      hub.remove(subscriber)
    })
  })
}
