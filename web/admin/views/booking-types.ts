/** The records the Bookings view reads, as the schemas the API answers with (src/schemas). */
import type { Static } from 'typebox'
import type { BookingEmail as BookingEmailSchema } from '../../../src/schemas/admin/booking-email.ts'
import type { OperatorBooking, OperatorBookingDetail } from '../../../src/schemas/admin/booking.ts'
import type { CancellationPolicy as CancellationPolicySchema } from '../../../src/schemas/policy.ts'

export type { BookingStatus } from '../../../src/schemas/booking-status.ts'
export type { Actor } from '../../../src/schemas/admin/booking.ts'
export type { Tour as TourInfo } from '../../../src/schemas/tour.ts'
export type BookingRecord = OperatorBooking
export type BookingDetail = OperatorBookingDetail
export type BookingEmail = Static<typeof BookingEmailSchema>
/** The current cancellation policy (guest GET /policies). */
export type CancellationPolicy = Static<typeof CancellationPolicySchema>
