import { Type } from 'typebox'
import { Nullable } from '../common.ts'
import { named } from '../named.ts'
import { Email } from './email.ts'
import { PageQuery } from './page.ts'

const { text: _body, ...listedFields } = Email.properties

/** One message about a booking, as anyone who may read bookings sees it: without its body, which holds the guest's manage link. */
export const BookingEmail = named('BookingEmail', Type.Object(listedFields, {
  description: 'An email about the booking, without its body (GET /emails?booking=, for managers, has it)',
}))

export const BookingEmailList = named('BookingEmailList', Type.Object({
  emails: Type.Array(BookingEmail),
  next_cursor: Nullable(Type.String({ description: 'Pass as cursor for the next (older) page; null on the last' })),
}))

export const BookingEmailQuery = Type.Object({ ...PageQuery }, { additionalProperties: false })
