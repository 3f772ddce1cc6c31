import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { ApiError } from '../errors/api-error.ts'
import { fillsDecoy } from '../http/decoys.ts'
import { runIdempotent } from '../http/idempotency.ts'
import { Booking, BookingRequest } from '../schemas/booking.ts'
import { NoBody } from '../schemas/common.ts'
import type { BookingContext } from '../services/bookings.ts'

export function bookingContext(request: FastifyRequest): BookingContext {
  if (request.session === null) throw new ApiError('no_booking', 'This request names no live session, so it has no booking')
  return { catalog: request.catalog, sessionId: request.session.id, now: request.server.tourdesk.clock.now() }
}

export const bookingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/booking', {
    schema: { response: { 200: Booking } },
    config: { session: 'read', sessionFromQuery: true, summary: "The session's most recent booking that it has not released", errors: ['no_booking'] },
  }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store')
    return app.tourdesk.bookings.current(bookingContext(request))
  })

  app.post('/booking', {
    schema: { body: BookingRequest, response: { 200: Booking } },
    config: {
      session: 'read',
      csrf: true,
      idempotent: true,
      summary: "Hold seats on a departure; replaces the session's current hold",
      errors: ['csrf_missing', 'csrf_invalid', 'tour_not_found', 'insufficient_capacity', 'idempotency_in_flight', 'slot_not_found', 'cutoff_passed',
        'party_out_of_range', 'invalid_addon', 'invalid_promo_code', 'date_out_of_range', 'idempotency_key_reused'],
    },
  }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store')
    const quarantined = fillsDecoy(request.catalog.instance, request.body)
    return runIdempotent(request, reply, (record) => app.tourdesk.bookings.hold(bookingContext(request), request.body, quarantined, record))
  })

  app.delete('/booking', {
    schema: { body: NoBody, response: { 200: Booking } },
    config: {
      session: 'read',
      csrf: true,
      summary: 'Release the held booking, or cancel a requested or confirmed one under the cancellation policy',
      errors: ['csrf_missing', 'csrf_invalid', 'origin_not_allowed', 'no_booking', 'cancellation_not_allowed'],
    },
  }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store')
    return app.tourdesk.bookings.releaseOrCancel(bookingContext(request))
  })
}
