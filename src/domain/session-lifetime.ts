import type { Temporal } from 'temporal-polyfill'

/**
 * A guest session that has never held a booking lasts a day, so readers without cookies
 * (crawlers, uptime checks) leave no lasting rows: the sweep deletes theirs the next day.
 */
export const NEW_SESSION_HOURS = 24
/** A hold makes its session last this long from the hold: long enough to come back to the booking. */
export const BOOKING_SESSION_DAYS = 30

export const newSessionExpiry = (now: Temporal.Instant): Temporal.Instant => now.add({ hours: NEW_SESSION_HOURS })
export const bookingSessionExpiry = (now: Temporal.Instant): Temporal.Instant => now.add({ hours: 24 * BOOKING_SESSION_DAYS })
