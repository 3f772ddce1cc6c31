import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { ApiError } from '../../errors/api-error.ts'
import { runIdempotent } from '../../http/idempotency.ts'
import {
  Departure, DepartureCancelled, DepartureCancelRequest, DepartureChange, DepartureList, DepartureListQuery, DepartureManifest, DepartureParams, NewDeparture,
} from '../../schemas/admin/departure.ts'
import { MAX_LIST_DAYS, parseStart, type Cancellation, type ChangeContext } from '../../services/departure-requests.ts'
import { actorOf } from '../../services/staff-auth.ts'
import { departureData } from '../../services/departure-record.ts'
import { manifestCsv, manifestFileName, manifestView } from '../departure-view.ts'
import { decodeCursor, encodeCursor } from '../list-cursor.ts'
import { resellerNamesOf } from '../reseller-view.ts'

/** `If-Match: "<version>"` (or bare digits, or `*` for any); null when absent. */
export function ifMatchVersion(request: FastifyRequest): number | null {
  const header = request.headers['if-match']
  if (header === undefined || header.trim() === '*') return null
  const version = /^\s*"?(\d{1,15})"?\s*$/.exec(header)?.[1]
  if (version === undefined) {
    throw new ApiError('validation_failed', 'If-Match must be a version such as "3"', { errors: [{ field: 'If-Match', message: 'must be a version such as "3"' }] })
  }
  return Number(version)
}

/** True when the Accept header ranks text/csv above application/json (JSON when it names neither). */
function wantsCsv(accept: string | undefined): boolean {
  if (accept === undefined) return false
  let csv = 0
  let json = 0
  for (const part of accept.split(',')) {
    const [type, ...params] = part.trim().toLowerCase().split(';').map((s) => s.trim())
    const q = Number(params.find((p) => p.startsWith('q='))?.slice(2) ?? 1)
    if (type === 'text/csv') csv = Math.max(csv, q)
    else if (type === 'application/json' || type === 'application/*' || type === '*/*') json = Math.max(json, type === 'application/json' ? q : q - 0.001)
  }
  return csv > 0 && csv > json
}

const changeContext = (request: FastifyRequest): ChangeContext => ({
  catalog: request.catalog,
  now: request.server.tourdesk.clock.now(),
  actor: actorOf(request.staff!),
  requestId: request.id,
})

/** A departure's start as stored (the form a list's cursor holds), and a real instant. */
const isStoredInstant = (text: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(text) && !Number.isNaN(Date.parse(text))
  && new Date(text).toISOString() === text

const IF_MATCH = 'If-Match: "<version>" (or bare digits) makes the change conditional: a stale version is 412 precondition_failed and changes nothing.'

/** Departures and their manifests (docs/operator-api.md, "Departures"). */
export const departureRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const departures = app.tourdesk.departures

  app.get('/departures', {
    schema: { querystring: DepartureListQuery, response: { 200: DepartureList } },
    config: {
      access: 'departures.read',
      summary: 'Every departure in a window of local dates: scheduled, added by hand and orphaned, with or without bookings',
      description: `In start order, then tour id, in pages of limit (default 50) that follow next_cursor. from defaults to today and to to from + 13 days (the instance's zone); the window is at most ${MAX_LIST_DAYS} days `
        + '(422 date_out_of_range beyond that, or when to is before from). Past dates are listed too. A departure stored but no longer in the schedule is listed '
        + 'while it holds bookings (held, requested, confirmed, completed or no-show: orphaned), as is one whose tour has left the catalog. '
        + 'seats counts guests per status; quarantined bookings take no seat and are not counted. closed is the operator\'s flag (the cutoff does not set it). '
        + 'A departure nobody has booked or changed is at version 1. min_participants is the tour\'s minimum to run (null when it sets none); guaranteed tells '
        + 'whether the guests of its requested, confirmed, completed and no-show bookings reach it.',
      errors: ['tour_not_found', 'date_out_of_range'],
    },
  }, async (request) => {
    const { from, to, tour, cursor } = request.query
    const limit = request.query.limit ?? 50
    const position = cursor === undefined ? null : decodeCursor(cursor, 2)
    if (position !== null && !isStoredInstant(position[0])) {
      throw new ApiError('validation_failed', 'cursor is not one this list gave', { errors: [{ field: 'cursor', message: 'must be a next_cursor this list gave' }] })
    }
    const page = await departures.list({ catalog: request.catalog, now: app.tourdesk.clock.now() }, {
      from, to, tour, limit, after: position && { startKey: position[0], tourId: position[1] },
    })
    return {
      departures: page.departures.map(departureData),
      next_cursor: page.next === null ? null : encodeCursor([page.next.startKey, page.next.tourId]),
    }
  })

  app.get('/departures/:tour_id/:start', {
    schema: { params: DepartureParams, response: { 200: DepartureManifest } },
    config: {
      access: 'departures.read',
      csv: 'alternative',
      summary: 'A departure and its manifest; Accept: text/csv gives the manifest as CSV',
      description: 'The manifest lists every requested, confirmed, completed (checked-in) and no-show booking, sorted by name, with contact details '
        + "(guides see them too), party, add-ons, the amount due on arrival (none for a reseller's booking, paid via the reseller), check-in time and the booking's internal note; quarantined bookings are left out. "
        + 'Totals: bookings and guests per status; guests, add-ons and the amount due over the requested, confirmed and completed bookings (a no-show owes '
        + 'only its policy fee, which is information). With Accept: text/csv (ranked above application/json) the answer is the manifest as RFC 4180 CSV '
        + '(text/csv; charset=utf-8, CRLF line ends, a header row, money in major units (45.50) beside a currency column, cells a guest typed that start with = + - or @ prefixed with an '
        + "apostrophe; the last columns the channel and a reseller's name, reference and net). 404 departure_not_found when the start is neither scheduled, added nor stored; tour_not_found when the tour is unknown and nothing is stored.",
      errors: ['tour_not_found', 'departure_not_found'],
      responseHeaders: { 'Content-Disposition': 'With Accept: text/csv, attachment; filename="manifest-<tour>-<date>-<HHMM>.csv"' },
    },
  }, async (request, reply) => {
    const { catalog } = request
    const detail = await departures.detail({ catalog, now: app.tourdesk.clock.now() }, request.params.tour_id, parseStart(request.params.start, 'start'))
    const view = manifestView(detail.departure, detail.manifest, catalog, await resellerNamesOf(app.tourdesk.store, catalog.instance.ref))
    reply.header('Cache-Control', 'no-store')
    reply.header('Vary', 'Accept')
    if (!wantsCsv(request.headers.accept)) return view
    // The CSV is sent as text, past the route's JSON answer schema.
    return (reply as FastifyReply).type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${manifestFileName(view)}"`)
      .send(manifestCsv(view))
  })

  app.patch('/departures/:tour_id/:start', {
    schema: { params: DepartureParams, body: DepartureChange, response: { 200: Departure } },
    config: {
      access: 'departures.change',
      summary: 'Change the capacity, close or reopen, or set the note',
      description: `${IF_MATCH} A capacity below the seats taken (held, requested, confirmed, completed and no-show guests; lapsed holds are expired first) `
        + 'is 409 capacity_below_booked with seats_taken, decided by the update itself, so it is exact against holds arriving at the same moment. '
        + "The capacity set here stays until changed here, whatever the tour's default becomes (capacity_source: operator). closed: true stops new holds "
        + '(guests see the departure closed; its bookings stand), false reopens it; a cancelled departure cannot be reopened (409 departure_cancelled). '
        + 'A blank note removes it. A change that changes nothing answers the departure as it is, at the same version; every other raises the version '
        + 'and is written to the audit log (departure.changed).',
      errors: ['tour_not_found', 'departure_not_found', 'capacity_below_booked', 'departure_cancelled', 'precondition_failed'],
    },
  }, async (request) => {
    const record = await departures.change(changeContext(request), request.params.tour_id, parseStart(request.params.start, 'start'), request.body, ifMatchVersion(request))
    return departureData(record)
  })

  app.post('/departures/:tour_id/:start/cancel', {
    schema: { params: DepartureParams, body: DepartureCancelRequest, response: { 200: DepartureCancelled } },
    config: {
      access: 'departures.change',
      idempotent: true,
      summary: 'Cancel the departure: closes it, cancels its bookings with the fee waived, releases its holds',
      description: `${IF_MATCH} In one transaction: the departure is closed and marked cancelled, every requested and confirmed booking is cancelled `
        + '(cancelled_by operator, the reason kept, fee waived), every hold is released (a lapsed one expired), their seats are freed and their promo '
        + 'code uses given back. Checked-in and no-show bookings stay as they are. Cancelling a cancelled departure answers it as it is (0 and 0). '
        + 'notify_guests (default true) emails each guest that the departure is cancelled. Audited as departure.cancelled and one '
        + 'booking.cancelled per booking.',
      errors: ['tour_not_found', 'departure_not_found', 'precondition_failed', 'idempotency_in_flight', 'idempotency_key_reused'],
    },
  }, async (request, reply) => {
    const start = parseStart(request.params.start, 'start')
    const ifMatch = ifMatchVersion(request)
    const view = (c: Cancellation) => ({ departure: departureData(c.departure), cancelled_bookings: c.cancelledBookings, released_holds: c.releasedHolds })
    return runIdempotent(request, reply, async (record) => view(await departures.cancel(changeContext(request), request.params.tour_id, start, request.body, ifMatch,
      record && ((answer) => record(view(answer))))))
  })

  app.post('/departures', {
    schema: { body: NewDeparture, response: { 201: Departure } },
    config: {
      access: 'departures.change',
      idempotent: true,
      summary: 'Add a departure by hand (extra): guests can book it like a scheduled one',
      description: "The start must be in the future (422 date_out_of_range) and on a whole minute; the end follows from the tour's duration. capacity defaults "
        + "to the tour's (and then follows it, capacity_source tour); given, it stays (operator). A start the schedule already gives, or one already added, is "
        + '409 departure_exists. A stored departure the schedule no longer gives (orphaned) is added back, its bookings kept. Guests see it in availability '
        + 'within the booking horizon and until its cutoff like any other. Audited as departure.added.',
      errors: ['tour_not_found', 'date_out_of_range', 'departure_exists', 'departure_cancelled', 'capacity_below_booked', 'idempotency_in_flight', 'idempotency_key_reused'],
    },
  }, async (request, reply) => {
    reply.code(201)
    return runIdempotent(request, reply, async (record) => departureData(await departures.add(changeContext(request), request.body,
      record && ((answer) => record(departureData(answer))))), 201)
  })
}
