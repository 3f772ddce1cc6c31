import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { BOOKING_SESSION_DAYS, bookingSessionExpiry } from '../domain/session-lifetime.ts'
import { ApiError } from '../errors/api-error.ts'
import { fillsDecoy } from '../http/decoys.ts'
import { runIdempotent } from '../http/idempotency.ts'
import { renewSessionCookie, sessionCookieHeader } from '../http/session.ts'
import { Booking, BookingLookup, BookingRequest } from '../schemas/booking.ts'
import { NoBody } from '../schemas/common.ts'
import type { BookingContext } from '../services/booking-context.ts'
import { manageLinkOf, readManageToken } from '../services/manage-token.ts'
import type { RecordAnswer } from '../store/write-plan.ts'
import { guestBookingView, type GuestView } from './booking-view.ts'
import type { BookingRecord } from '../domain/booking.ts'
import { defaultLanguageOf } from '../domain/translation.ts'
import { LanguageQuery } from '../schemas/language.ts'

export function bookingContext(request: FastifyRequest): BookingContext {
  if (request.session === null) throw new ApiError('no_booking', 'This request names no live session, so it has no booking')
  return {
    catalog: request.catalog,
    sessionId: request.session.id,
    lookedUpBookingId: request.session.lookedUpBookingId,
    now: request.server.tourdesk.clock.now(),
    language: request.language,
  }
}

/** How this request's answers show a booking: as of the request's moment, with manage links on TOURDESK_PUBLIC_URL, as in emails (never on the request's Host). */
export function guestView(request: FastifyRequest, now = request.server.tourdesk.clock.now()): GuestView {
  const { secret, emailSettings } = request.server.tourdesk
  return {
    catalog: request.catalog, now, language: request.language ?? defaultLanguageOf(request.catalog.instance),
    manageUrl: (row) => manageLinkOf(secret, emailSettings.publicUrl, request.catalog.instance, row, now),
  }
}

/** The idempotency record of a wire answer, for a service that answers stored rows: the row is mapped as the route maps it. */
export function asRows(record: RecordAnswer<Booking> | undefined, view: GuestView): RecordAnswer<BookingRecord> | undefined {
  return record && ((row) => record(guestBookingView(row, view)))
}

/** The session's booking after `work`, as the guest sees it at the request's moment; never cached. */
async function sessionBooking(request: FastifyRequest, reply: FastifyReply, work: (ctx: BookingContext) => Promise<BookingRecord>): Promise<Booking> {
  reply.header('Cache-Control', 'no-store')
  const ctx = bookingContext(request)
  return guestBookingView(await work(ctx), guestView(request, ctx.now))
}

const SESSION_RENEWED = `A hold or a lookup makes its session last ${BOOKING_SESSION_DAYS} days from then, and the cookie as long.`

export const bookingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/booking', {
    schema: { querystring: LanguageQuery, response: { 200: Booking } },
    config: {
      language: true,
      session: 'read',
      sessionFromQuery: true,
      summary: "The session's most recent booking that it has not released",
      description: 'The booking as it stands: held (until hold_expires_at), expired, requested, confirmed, declined, cancelled, '
        + 'completed or no_show, with its price, its meeting point, what cancelling would cost now (cancellation_now) and, once '
        + 'checked out, its code, contact and manage link. After POST /booking/lookup it is the booking found, until the session '
        + 'holds seats again.',
      errors: ['no_booking'],
    },
  }, (request, reply) => sessionBooking(request, reply, (ctx) => app.tourdesk.bookings.current(ctx)))

  app.post('/booking', {
    schema: { body: BookingRequest, querystring: LanguageQuery, response: { 200: Booking } },
    config: {
      language: true,
      session: 'read',
      csrf: true,
      idempotent: true,
      summary: "Hold seats on a departure; replaces the session's current hold",
      description: "Holds the party's seats for the instance's hold_minutes (GET /policies). A per-person add-on's quantity counts "
        + "the people who take it (at most the party), a per-booking one's the items; each costs its price times its quantity. A "
        + "new hold releases the session's current one in the same transaction; when it fails, the current one is kept.",
      responseHeaders: {
        'Set-Cookie': sessionCookieHeader('When the sid cookie named the session', BOOKING_SESSION_DAYS * 24 * 3600, SESSION_RENEWED),
      },
      errors: ['csrf_missing', 'csrf_invalid', 'tour_not_found', 'insufficient_capacity', 'idempotency_in_flight', 'slot_not_found', 'cutoff_passed',
        'party_out_of_range', 'invalid_unit', 'unit_not_allowed', 'party_mismatch', 'language_not_offered', 'invalid_addon', 'invalid_promo_code', 'date_out_of_range',
        'idempotency_key_reused'],
    },
  }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store')
    const quarantined = fillsDecoy(request.catalog.instance, request.body)
    return runIdempotent<Booking>(request, reply, async (record) => {
      const ctx = bookingContext(request)
      const view = guestView(request, ctx.now)
      const booking = guestBookingView(await app.tourdesk.bookings.hold(ctx, request.body, quarantined, asRows(record, view)), view)
      // The hold made the session last BOOKING_SESSION_DAYS from ctx.now (src/services/bookings.ts).
      renewSessionCookie(request, reply, bookingSessionExpiry(ctx.now), ctx.now)
      return booking
    })
  })

  app.delete('/booking', {
    schema: { body: NoBody, querystring: LanguageQuery, response: { 200: Booking } },
    config: {
      language: true,
      session: 'read',
      csrf: true,
      summary: 'Release the held booking, or cancel a requested or confirmed one under the cancellation policy',
      description: 'A held booking is released. A requested or confirmed one is cancelled while cancellable_until is in the '
        + "future, with the fee of the policy tier the notice falls in recorded as information; nothing is charged. The booking's "
        + 'cancellation_now (GET /booking) tells beforehand what this does. After POST /booking/lookup it acts on the booking found.',
      errors: ['csrf_missing', 'csrf_invalid', 'origin_not_allowed', 'no_booking', 'cancellation_not_allowed'],
    },
  }, (request, reply) => sessionBooking(request, reply, (ctx) => app.tourdesk.bookings.releaseOrCancel(ctx)))

  app.post('/booking/lookup', {
    schema: { body: BookingLookup, querystring: LanguageQuery, response: { 200: Booking } },
    config: {
      language: true,
      session: 'read',
      csrf: true,
      rateClass: 'forms',
      summary: "Make a checked-out booking the session's booking, found by its code and email or by its manage link",
      description: 'For a guest on another device, or back after the session was lost. Send the booking code with the email address '
        + 'given at checkout (any case), or the token of the manage link: the booking record carries the link as manage_url from '
        + 'checkout until the departure ends, the booking page shows it after checkout, and emails to the guest carry it. The '
        + "booking found becomes this session's booking: GET /booking answers it and DELETE /booking cancels it (with the fee "
        + "cancellation_now states), until the session holds seats again. A hold the session has is released (expired if it had "
        + `lapsed), as a new hold would release it. The session then lasts ${BOOKING_SESSION_DAYS} days, like after a hold. `
        + 'A wrong code and email pair is 404 no_booking with the same answer whether or not the code exists, as is a manage link '
        + 'that is not valid or whose departure has ended; nothing changes then. Limited like the forms (rate class forms).',
      responseHeaders: {
        'Set-Cookie': sessionCookieHeader('When the sid cookie named the session', BOOKING_SESSION_DAYS * 24 * 3600, SESSION_RENEWED),
      },
      errors: ['csrf_missing', 'csrf_invalid', 'no_booking'],
    },
  }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store')
    const ctx = bookingContext(request)
    const { body } = request
    const key = 'token' in body
      ? { bookingId: readManageToken(app.tourdesk.secret, ctx.catalog.instance.ref, body.token, ctx.now) }
      : { code: body.code, email: body.email }
    const booking = guestBookingView(await app.tourdesk.bookings.lookUp(ctx, key), guestView(request, ctx.now))
    renewSessionCookie(request, reply, bookingSessionExpiry(ctx.now), ctx.now)
    return booking
  })
}
