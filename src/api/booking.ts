import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { BOOKING_SESSION_DAYS, bookingSessionExpiry } from '../domain/session-lifetime.ts'
import { ApiError } from '../errors/api-error.ts'
import { fillsDecoy } from '../http/decoys.ts'
import { runIdempotent } from '../http/idempotency.ts'
import { renewSessionCookie, sessionCookieHeader } from '../http/session.ts'
import { Booking, BookingRequest } from '../schemas/booking.ts'
import { NoBody } from '../schemas/common.ts'
import type { BookingContext } from '../services/bookings.ts'
import type { BookingRow } from '../store/bookings.ts'
import type { RecordAnswer } from '../store/write-plan.ts'
import { bookingView } from './booking-view.ts'

export function bookingContext(request: FastifyRequest): BookingContext {
  if (request.session === null) throw new ApiError('no_booking', 'This request names no live session, so it has no booking')
  return { catalog: request.catalog, sessionId: request.session.id, now: request.server.tourdesk.clock.now() }
}

/** The idempotency record of a wire answer, for a service that answers stored rows: the row is mapped as the route maps it. */
export function asRows(record: RecordAnswer<Booking> | undefined, request: FastifyRequest): RecordAnswer<BookingRow> | undefined {
  return record && ((row) => record(bookingView(row, request.catalog)))
}

export const bookingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/booking', {
    schema: { response: { 200: Booking } },
    config: {
      session: 'read',
      sessionFromQuery: true,
      summary: "The session's most recent booking that it has not released",
      description: 'The booking as it stands: held (until hold_expires_at), expired, requested, confirmed, declined, cancelled, '
        + 'completed or no_show, with its price and, once checked out, its code and contact.',
      errors: ['no_booking'],
    },
  }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store')
    return bookingView(await app.tourdesk.bookings.current(bookingContext(request)), request.catalog)
  })

  app.post('/booking', {
    schema: { body: BookingRequest, response: { 200: Booking } },
    config: {
      session: 'read',
      csrf: true,
      idempotent: true,
      summary: "Hold seats on a departure; replaces the session's current hold",
      description: "Holds the party's seats for the instance's hold_minutes (GET /policies). A per-person add-on's quantity counts "
        + "the people who take it (at most the party), a per-booking one's the items; each costs its price times its quantity. A "
        + "new hold releases the session's current one in the same transaction; when it fails, the current one is kept.",
      responseHeaders: {
        'Set-Cookie': sessionCookieHeader('When the sid cookie named the session', BOOKING_SESSION_DAYS * 24 * 3600,
          `A hold makes its session last ${BOOKING_SESSION_DAYS} days from the hold, and the cookie as long.`),
      },
      errors: ['csrf_missing', 'csrf_invalid', 'tour_not_found', 'insufficient_capacity', 'idempotency_in_flight', 'slot_not_found', 'cutoff_passed',
        'party_out_of_range', 'invalid_addon', 'invalid_promo_code', 'date_out_of_range', 'idempotency_key_reused'],
    },
  }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store')
    const quarantined = fillsDecoy(request.catalog.instance, request.body)
    return runIdempotent<Booking>(request, reply, async (record) => {
      const ctx = bookingContext(request)
      const booking = bookingView(await app.tourdesk.bookings.hold(ctx, request.body, quarantined, asRows(record, request)), request.catalog)
      // The hold made the session last BOOKING_SESSION_DAYS from ctx.now (src/services/bookings.ts).
      renewSessionCookie(request, reply, bookingSessionExpiry(ctx.now), ctx.now)
      return booking
    })
  })

  app.delete('/booking', {
    schema: { body: NoBody, response: { 200: Booking } },
    config: {
      session: 'read',
      csrf: true,
      summary: 'Release the held booking, or cancel a requested or confirmed one under the cancellation policy',
      description: 'A held booking is released. A requested or confirmed one is cancelled while cancellable_until is in the '
        + "future, with the fee of the policy tier the notice falls in recorded as information; nothing is charged.",
      errors: ['csrf_missing', 'csrf_invalid', 'origin_not_allowed', 'no_booking', 'cancellation_not_allowed'],
    },
  }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store')
    return bookingView(await app.tourdesk.bookings.releaseOrCancel(bookingContext(request)), request.catalog)
  })
}
