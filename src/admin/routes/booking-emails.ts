import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { roleMay } from '../../domain/roles.ts'
import { runIdempotent } from '../../http/idempotency.ts'
import { BookingParams } from '../../schemas/admin/booking.ts'
import { BookingEmailList, BookingEmailQuery } from '../../schemas/admin/booking-email.ts'
import { Email } from '../../schemas/admin/email.ts'
import { NoBody } from '../../schemas/common.ts'
import type { EmailRow } from '../../store/emails.ts'
import { actorOf } from '../../services/staff-auth.ts'
import { decodeCursor, encodeCursor } from '../list-cursor.ts'
import { emailView } from './emails.ts'

/**
 * The text of an email with the token of any manage link in it withheld: whoever holds the
 * token can act as the guest (POST /booking/lookup), so only managers, who read the email log
 * (GET /emails), see it.
 */
function withoutManageToken(text: string): string {
  return text.replace(/(\/manage#)[A-Za-z0-9_-]+/g, '$1withheld')
}

/** What was emailed about one booking, and sending its confirmation again (the back office's booking detail). */
export const bookingEmailRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { store, clock } = app.tourdesk
  const resend = app.tourdesk.confirmationResend

  app.get('/bookings/:code/emails', {
    schema: { params: BookingParams, querystring: BookingEmailQuery, response: { 200: BookingEmailList } },
    config: {
      access: 'bookings.read',
      summary: "The emails about one booking, newest first, without their bodies",
      description: 'Every message the booking made, to the guest and to the operator, with its state (see GET /emails). For anyone who may '
        + "read bookings; the bodies, which carry the guest's manage link, stay with GET /emails?booking= (managers). Pages of limit (default 50) follow next_cursor.",
      errors: ['not_found'],
    },
  }, async (request, reply) => {
    const { timezone } = request.catalog.instance
    const booking = await app.tourdesk.operatorBookings.find(request.catalog, request.params.code)
    const limit = request.query.limit ?? 50
    const before = request.query.cursor === undefined ? null : decodeCursor(request.query.cursor, 2) as [string, string]
    const rows = await store.read(() => store.emails.list(booking.instance_id, { recipient: null, bookingId: booking.id, before, limit: limit + 1 }))
    const page = rows.slice(0, limit)
    const last = page[page.length - 1]
    reply.header('Cache-Control', 'no-store')
    return {
      emails: page.map((row) => {
        const { text: _body, ...listed } = emailView(row, timezone)
        return listed
      }),
      next_cursor: rows.length > limit ? encodeCursor([last.created_at, last.id]) : null,
    }
  })

  app.post('/bookings/:code/resend-confirmation', {
    schema: { params: BookingParams, body: NoBody, response: { 202: Email } },
    config: {
      access: 'bookings.change',
      idempotent: true,
      summary: "Send a confirmed booking's confirmation to the guest again",
      description: "Queues a new copy of the guest's confirmation, with its .ics calendar file, to the booking's contact email as it is "
        + 'now (after a corrected address, to the new one). It is made as the original is, from the booking as it stands, and listed '
        + 'in the email log as confirmation_resent. Only for a confirmed booking that is not quarantined and still has a contact: '
        + 'else 409 invalid_transition with booking_status. The per-recipient cap (emails_per_recipient_per_hour) applies as to every '
        + 'message, so a flood of resends cannot reach an inbox: a copy over the cap, or made without SMTP_URL, is kept as not_sent '
        + 'with its state_reason, which the answer shows. The booking does not change (its version stays); the resend is audited '
        + '(booking.confirmation_resent). The answer shows the text sent; the token of its manage link, which lets whoever holds it act as '
        + 'the guest, only to managers (to others the link ends in #withheld). 202: the message is queued, not yet sent.',
      errors: ['not_found', 'invalid_transition', 'idempotency_in_flight', 'idempotency_key_reused'],
    },
  }, async (request, reply) => runIdempotent(request, reply, async (record) => {
    const { timezone } = request.catalog.instance
    const managerSees = roleMay(request.staff!.role, 'access.manage')
    const shown = (row: EmailRow) => {
      const view = emailView(row, timezone)
      return managerSees ? view : { ...view, text: withoutManageToken(view.text) }
    }
    const ctx = { catalog: request.catalog, now: clock.now(), actor: actorOf(request.staff!), requestId: request.id, ifMatch: null }
    const email = await resend(ctx, request.params.code, record && ((kept) => record(shown(kept))))
    reply.code(202).header('Cache-Control', 'no-store')
    return shown(email)
  }, 202))
}
