/**
 * Every status a booking can be in, and its named subsets: the lists the BookingStatus schema
 * (src/schemas/booking.ts), the store's SQL and the back office are made from. This module
 * imports nothing, so the back office's bundle takes the lists without TypeBox. Which status
 * may follow which is src/domain/booking-status.ts.
 */
export const BOOKING_STATUSES = ['held', 'released', 'expired', 'requested', 'confirmed', 'declined', 'cancelled', 'completed', 'no_show'] as const
export type BookingStatus = typeof BOOKING_STATUSES[number]

const statuses = <const T extends readonly BookingStatus[]>(list: T): T => list

/** Live statuses: the guest can still release or cancel the booking (DELETE /booking acts on these). */
export const LIVE = statuses(['held', 'requested', 'confirmed'])

/**
 * Statuses whose seats count against the departure's capacity (departures.seats_taken): the
 * live ones, and a booking checked in (completed) or marked no-show, which keeps its seats: a
 * guest checked in before the start must not free a seat for sale, and undoing either never
 * needs a seat back. Only declined, cancelled, released and expired give seats back.
 */
export const SEATED = statuses([...LIVE, 'completed', 'no_show'])

/** Every status a booking reaches once checked out: what the operator's list shows unless asked otherwise. */
export const CHECKED_OUT = statuses(['requested', 'confirmed', 'declined', 'cancelled', 'completed', 'no_show'])

/** Live and checked out: what a cancellation, a move or resize, and a release from quarantine act on. */
export const LIVE_CHECKED_OUT = statuses(['requested', 'confirmed'])

/** Seated and checked out: the bookings a departure's manifest lists and the events of a booking's changes report. */
export const ON_MANIFEST = statuses(['requested', 'confirmed', 'completed', 'no_show'])

/** On the manifest but for no-shows: the guests expected or present, whom a manifest's totals cover. */
export const EXPECTED = statuses(['requested', 'confirmed', 'completed'])

/**
 * Statuses whose total is due on arrival (price.due_on_arrival): a booking held, waiting,
 * confirmed or checked in. A declined, cancelled, released or expired booking owes none of it,
 * and neither does a no-show: what those owe, if anything, is their cancellation or no-show
 * fee, shown as that fee.
 */
export const OWES_ITS_TOTAL = statuses(['held', 'requested', 'confirmed', 'completed'])

/**
 * A reseller's sales it owes the operator its net for (the per-reseller summary, docs/resellers.md):
 * confirmed, checked in, or a no-show, whose guest paid the reseller all the same. A request is
 * not sold yet; a cancellation's fee stays between the reseller and its guest.
 */
export const RESELLER_OWES = statuses(['confirmed', 'completed', 'no_show'])

/** What a guest's session shows as its booking: every status but released (a released hold was replaced or let go). */
export const SHOWN_TO_GUEST = statuses(['held', 'expired', ...CHECKED_OUT])

/** Whether a status (as stored: text) is one of `subset`. */
export const isOneOf = <S extends BookingStatus>(subset: readonly S[], status: string): status is S => (subset as readonly string[]).includes(status)

export const isBookingStatus = (text: string): text is BookingStatus => isOneOf(BOOKING_STATUSES, text)
