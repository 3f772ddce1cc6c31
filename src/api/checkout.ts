import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { fillsDecoy } from '../http/decoys.ts'
import { runIdempotent } from '../http/idempotency.ts'
import { Booking, CheckoutRequest } from '../schemas/booking.ts'
import { LanguageQuery } from '../schemas/language.ts'
import { normalisePhone } from '../services/phone-number.ts'
import { asRows, bookingContext, guestView } from './booking.ts'
import { guestBookingView } from './booking-view.ts'

export const checkoutRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/checkout', {
    schema: { body: CheckoutRequest, querystring: LanguageQuery, response: { 200: Booking } },
    config: {
      language: true,
      session: 'read',
      idempotent: true,
      summary: 'Request the held booking (confirmed at once for instant tours); payment is taken on arrival',
      description: "Turns the session's live hold into a booking with the guest's contact details and a booking code: confirmed at "
        + 'once for instant tours, requested where the operator confirms. A repeat answers the same booking and changes nothing; a '
        + 'lapsed hold is 410 hold_expired. A checkout that fills a decoy field, or of a hold that did, answers the same but is quarantined. '
        + 'The booking answered carries its manage link (manage_url): show it to the guest, who can open the booking with it on any device.',
      errors: ['no_booking', 'hold_expired', 'invalid_promo_code', 'idempotency_in_flight', 'idempotency_key_reused'],
    },
  }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store')
    const { instance } = request.catalog
    const details = { name: request.body.name, email: request.body.email, phone: normalisePhone(request.body.phone, instance.phone_region) }
    const quarantined = fillsDecoy(instance, request.body)
    return runIdempotent<Booking>(request, reply, async (record) => {
      const ctx = bookingContext(request)
      const view = guestView(request, ctx.now)
      return guestBookingView(await app.tourdesk.bookings.checkout(ctx, details, quarantined, asRows(record, view)), view)
    })
  })
}
