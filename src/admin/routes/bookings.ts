import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ErrorCode } from '../../errors/codes.ts'
import { ApiError } from '../../errors/api-error.ts'
import { runIdempotent } from '../../http/idempotency.ts'
import {
  BookingChange, BookingList, BookingListQuery, BookingParams, CancelRequest, DeclineRequest, OperatorBooking, OperatorBookingDetail,
  StaffBookingRequest, type BookingFilterQuery,
} from '../../schemas/admin/booking.ts'
import { NoBody } from '../../schemas/common.ts'
import type { OperatorContext } from '../../services/operator-booking-plan.ts'
import { parseStatuses, type BookingQuery } from '../../services/operator-bookings.ts'
import { actorOf } from '../../services/staff-auth.ts'
import type { RecordAnswer } from '../../store/write-plan.ts'
import { bookingDetailView, operatorBookingView, versionTag } from '../booking-view.ts'
import { decodeCursor, encodeCursor } from '../list-cursor.ts'
import { resellerNamesOf, type ResellerNames } from '../reseller-view.ts'
import type { BookingRecord } from '../../domain/booking.ts'

/** The list's and the export's filters, from the query string. */
export function bookingQueryOf(query: BookingFilterQuery): BookingQuery {
  return {
    from: query.from,
    to: query.to,
    tour: query.tour,
    statuses: parseStatuses(query.status),
    q: query.q,
    channel: query.channel,
    reseller: query.reseller,
    quarantined: query.quarantined === undefined ? undefined : query.quarantined === 'true',
    language: query.language,
  }
}

/** If-Match as a version: `"7"`, `W/"7"` or bare `7`; `*` (any version) or none is no condition. */
function ifMatchOf(request: FastifyRequest): number | null {
  const header = request.headers['if-match']
  if (header === undefined || header.trim() === '*') return null
  const version = /^\s*(?:W\/)?"?([0-9]{1,15})"?\s*$/.exec(header)?.[1]
  if (version === undefined) {
    throw new ApiError('validation_failed', 'If-Match must name a version, as "<version>"', { errors: [{ field: 'If-Match', message: 'must be "<version>"' }] })
  }
  return Number(version)
}

const ACTION_ERRORS: ErrorCode[] = ['not_found', 'invalid_transition', 'precondition_failed', 'idempotency_in_flight', 'idempotency_key_reused']
const UNDO_ERRORS: ErrorCode[] = ['not_found', 'invalid_transition', 'precondition_failed']
const RULES = 'Repeating an action that already took effect answers 200 with the booking unchanged; an action that does not apply to '
  + "the booking's status is 409 invalid_transition with booking_status. Of two operators acting at once, exactly one makes the transition. "
  + 'If-Match: "<version>" makes it conditional (412 precondition_failed with the current version when stale); the answer carries ETag.'

export const operatorBookingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { clock, store } = app.tourdesk
  const service = app.tourdesk.operatorBookings

  const contextOf = (request: FastifyRequest): OperatorContext => ({
    catalog: request.catalog, now: clock.now(), actor: actorOf(request.staff!), requestId: request.id, ifMatch: ifMatchOf(request),
  })

  const resellersOf = (request: FastifyRequest) => resellerNamesOf(store, request.catalog.instance.ref)

  function answerWith(request: FastifyRequest, reply: FastifyReply, row: BookingRecord, resellers: ResellerNames) {
    reply.header('ETag', versionTag(row)).header('Cache-Control', 'no-store')
    return operatorBookingView(row, request.catalog, resellers)
  }

  const answer = async (request: FastifyRequest, reply: FastifyReply, row: BookingRecord) => answerWith(request, reply, row, await resellersOf(request))

  /** A POST, run once per Idempotency-Key; the stored answer is the operator's view of the booking, written with the change. */
  function once(request: FastifyRequest, reply: FastifyReply, work: (record?: RecordAnswer<BookingRecord>) => Promise<BookingRecord>, status = 200) {
    return runIdempotent<OperatorBooking>(request, reply, async (record) => {
      // Read before the change, as the answer kept with it is written inside its transaction.
      const resellers = await resellersOf(request)
      const row = await work(record && ((changed) => record(operatorBookingView(changed, request.catalog, resellers))))
      return answerWith(request, reply.code(status), row, resellers)
    }, status)
  }

  app.get('/bookings', {
    schema: { querystring: BookingListQuery, response: { 200: BookingList } },
    config: {
      access: 'bookings.read',
      summary: 'Bookings by departure date, filtered and searched',
      description: "from and to are departure dates in the instance's time zone, both inclusive; either may be left out (no bound). "
        + 'status takes a comma-separated list; by default every checked-out status (requested, confirmed, declined, cancelled, completed, '
        + 'no_show), so holds show only when asked for. channel web, staff or octo (a reseller); reseller a reseller key id. q matches part of the code, name, email or phone (by its digits), ignoring case and '
        + 'accents. quarantined=true lists only the bookings quarantined by a spam decoy; language=pt only those guided in Portuguese. Ordered by departure start, then id; '
        + 'pages of limit (default 50) follow next_cursor.',
    },
  }, async (request, reply) => {
    const limit = request.query.limit ?? 50
    const cursor = request.query.cursor === undefined ? null : decodeCursor(request.query.cursor, 2)
    const after = cursor && { start_at: cursor[0], id: cursor[1] }
    const rows = await service.list(request.catalog, bookingQueryOf(request.query), after, limit + 1)
    const page = rows.slice(0, limit)
    const resellers = await resellersOf(request)
    reply.header('Cache-Control', 'no-store')
    return {
      bookings: page.map((row) => operatorBookingView(row, request.catalog, resellers)),
      next_cursor: rows.length > limit ? encodeCursor([page[page.length - 1].start_at, page[page.length - 1].id]) : null,
    }
  })

  app.get('/bookings/:code', {
    schema: { params: BookingParams, response: { 200: OperatorBookingDetail } },
    config: {
      access: 'bookings.read',
      summary: 'One booking, by code or id, with its history',
      description: 'history lists every transition with its actor. The actor of a change made here, or by the system, is the one the '
        + 'audit log recorded with it; a transition without such an entry was made by the guest (hold, checkout, release, cancellation), '
        + 'or by the system when a hold expired.',
      errors: ['not_found'],
    },
  }, async (request, reply) => {
    const row = await service.find(request.catalog, request.params.code)
    const history = await service.history(request.catalog, row)
    reply.header('ETag', versionTag(row)).header('Cache-Control', 'no-store')
    return bookingDetailView(row, history, request.catalog, await resellersOf(request))
  })

  app.post('/bookings/:code/confirm', {
    schema: { params: BookingParams, body: NoBody, response: { 200: OperatorBooking } },
    config: { access: 'bookings.change', idempotent: true, summary: 'Confirm a request: requested → confirmed', description: RULES, errors: ACTION_ERRORS },
  }, async (request, reply) => once(request, reply, (record) => service.confirm(contextOf(request), request.params.code, record)))

  app.post('/bookings/:code/decline', {
    schema: { params: BookingParams, body: DeclineRequest, response: { 200: OperatorBooking } },
    config: {
      access: 'bookings.change', idempotent: true, summary: 'Decline a request: requested → declined; its seats are freed',
      description: `Its promo code's use is given back. ${RULES}`, errors: ACTION_ERRORS,
    },
  }, async (request, reply) => once(request, reply, (record) => service.decline(contextOf(request), request.params.code, request.body.reason, record)))

  app.post('/bookings/:code/cancel', {
    schema: { params: BookingParams, body: CancelRequest, response: { 200: OperatorBooking } },
    config: {
      access: 'bookings.change', idempotent: true, summary: 'Cancel a request or a confirmed booking; its seats are freed',
      description: "fee: waived (the default) records no fee; policy records the fee the booking's own cancellation policy gives at this "
        + `moment (nothing is charged either way). At any time, even after the start. Its promo code's use is given back. ${RULES}`,
      errors: ACTION_ERRORS,
    },
  }, async (request, reply) => once(request, reply, (record) => service.cancel(contextOf(request), request.params.code, request.body, record)))

  app.post('/bookings/:code/check-in', {
    schema: { params: BookingParams, body: NoBody, response: { 200: OperatorBooking } },
    config: {
      access: 'check-in', idempotent: true, summary: 'Check a guest in: confirmed → completed, with checked_in_at',
      description: 'From the start of the departure\'s day in the operator\'s time zone (before, 409 departure_not_today, whose detail names the day) until '
        + 'the departure ends (then 409 departure_ended). A checked-in booking keeps its seats, so checking in '
        + `before the start never frees a seat for sale. ${RULES}`,
      errors: [...ACTION_ERRORS, 'departure_not_today', 'departure_ended'],
    },
  }, async (request, reply) => once(request, reply, (record) => service.checkIn(contextOf(request), request.params.code, record)))

  app.delete('/bookings/:code/check-in', {
    schema: { params: BookingParams, body: NoBody, response: { 200: OperatorBooking } },
    config: {
      access: 'check-in', summary: 'Undo a check-in: completed → confirmed',
      description: `Until the departure ends (then 409 departure_ended). ${RULES}`, errors: [...UNDO_ERRORS, 'departure_ended'],
    },
  }, async (request, reply) => answer(request, reply, await service.undoCheckIn(contextOf(request), request.params.code)))

  app.post('/bookings/:code/no-show', {
    schema: { params: BookingParams, body: NoBody, response: { 200: OperatorBooking } },
    config: {
      access: 'check-in', idempotent: true, summary: 'Mark a guest no-show: confirmed → no_show',
      description: 'Once the departure has started (before, 409 departure_not_started). no_show in the answer gives the fee the booking\'s '
        + `policy sets for a no-show, as information. The booking keeps its seats. ${RULES}`,
      errors: [...ACTION_ERRORS, 'departure_not_started'],
    },
  }, async (request, reply) => once(request, reply, (record) => service.markNoShow(contextOf(request), request.params.code, record)))

  app.delete('/bookings/:code/no-show', {
    schema: { params: BookingParams, body: NoBody, response: { 200: OperatorBooking } },
    config: { access: 'check-in', summary: 'Undo a no-show mark: no_show → confirmed', description: RULES, errors: UNDO_ERRORS },
  }, async (request, reply) => answer(request, reply, await service.undoNoShow(contextOf(request), request.params.code)))

  app.patch('/bookings/:code', {
    schema: { params: BookingParams, body: BookingChange, response: { 200: OperatorBooking } },
    config: {
      access: 'bookings.change',
      summary: 'Move or resize a booking, or change its contact or internal note',
      description: 'start, tour_id, party and addons move or resize a requested or confirmed booking (any other status: 409 '
        + 'invalid_transition) in one transaction: the seats on the new departure are taken under the capacity rule (409 '
        + 'insufficient_capacity, also for a closed departure) before the old are freed. The new departure must be scheduled or added '
        + 'by hand and not yet ended; cutoff and horizon do not apply; the party stays within the tour\'s range. units gives the new mix '
        + '(seats Σ quantity × seats under the capacity rule); without it the booking keeps its units, and party alone resizes only a booking '
        + 'that is just its party of the first unit (else 422 units_required naming units). addons replaces the '
        + 'whole selection (left out: the current quantities, which must exist on the new tour). The price is recomputed from the '
        + 'current catalog; the promo code stays while the catalog has it for the tour, else it is dropped with its discount and its '
        + 'use given back; cancellable_until follows the new start under the booking\'s own policy. contact and internal_note can be '
        + 'changed on any checked-out booking; internal_note null or blank removes it. language, the one it is guided in, can be changed on '
        + 'any checked-out booking and must be one of the tour\'s languages (422 language_not_offered); a move to another tour keeps it, and is '
        + 'refused the same way when that tour is not guided in it. A change raises version; a body that changes '
        + 'nothing answers the booking unchanged. If-Match: "<version>" makes it conditional (412 when stale).',
      errors: ['not_found', 'invalid_transition', 'precondition_failed', 'tour_not_found', 'slot_not_found', 'departure_ended', 'party_out_of_range',
        'party_mismatch', 'invalid_unit', 'unit_not_allowed', 'units_required', 'invalid_addon', 'insufficient_capacity', 'language_not_offered'],
    },
  }, async (request, reply) => answer(request, reply, await service.change(contextOf(request), request.params.code, request.body)))

  app.post('/bookings', {
    schema: { body: StaffBookingRequest, response: { 201: OperatorBooking } },
    config: {
      access: 'bookings.change',
      idempotent: true,
      summary: 'Take a booking for a guest (phone, walk-in): channel staff',
      description: 'status is confirmed unless requested is asked for. Any departure of the tour that is scheduled or added by hand and '
        + 'has not ended can be booked: the cutoff and the horizon do not apply, capacity and closed departures do (409 '
        + 'insufficient_capacity, counting the seats of its units). units is the mix, as POST /booking takes it. The party stays within the tour\'s range; a promo code must be valid and have uses left, and its use '
        + 'is counted. language is one of the tour\'s languages (422 language_not_offered), by default its first. The booking keeps the cancellation policy in force now. It belongs to no guest session: its session is '
        + '"staff:<booking id>", which no guest can name. With notify_guest (default false) the guest is emailed as for a booking of their own: request received, or confirmed with its calendar file.',
      errors: ['tour_not_found', 'slot_not_found', 'departure_ended', 'party_out_of_range', 'party_mismatch', 'invalid_unit', 'unit_not_allowed',
        'language_not_offered', 'invalid_addon', 'invalid_promo_code', 'insufficient_capacity', 'idempotency_in_flight', 'idempotency_key_reused'],
    },
  }, async (request, reply) => once(request, reply, (record) => service.create(contextOf(request), request.body, record), 201))

  app.post('/bookings/:code/release-quarantine', {
    schema: { params: BookingParams, body: NoBody, response: { 200: OperatorBooking } },
    config: {
      access: 'bookings.change',
      idempotent: true,
      summary: 'Make a booking quarantined by a spam decoy an ordinary one',
      description: 'For a requested or confirmed booking (any other status: 409 invalid_transition). It keeps the status its checkout '
        + 'gave it; its seats are taken under the capacity rule (409 insufficient_capacity when they no longer fit) and its promo '
        + "code's use is counted (422 invalid_promo_code when none is left). A booking that is not quarantined is answered unchanged.",
      errors: [...ACTION_ERRORS, 'insufficient_capacity', 'invalid_promo_code'],
    },
  }, async (request, reply) => once(request, reply, (record) => service.releaseQuarantine(contextOf(request), request.params.code, record)))
}
