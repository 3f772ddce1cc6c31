import { Temporal } from 'temporal-polyfill'
import { fromStoredInstant } from '../domain/instant-format.ts'
import { manageLink } from '../domain/links.ts'
import { readSignedToken, signedToken } from './signed-token.ts'

/**
 * A manage link lets whoever has it look a booking up from any device (POST /booking/lookup)
 * until its departure ends. The token is stateless (src/services/signed-token.ts), so every
 * email and every answer about the booking carries the same link.
 */
export function manageToken(secret: string, instanceRef: string, bookingId: string, validUntil: Temporal.Instant): string {
  return signedToken(secret, 'manage', instanceRef, bookingId, validUntil)
}

/** The booking id a token names, or null when it was not made for this instance with this secret, or has run out by `now`. */
export function readManageToken(secret: string, instanceRef: string, token: string, now: Temporal.Instant): string | null {
  return readSignedToken(secret, 'manage', instanceRef, token, now)
}

/**
 * The manage link of a booking, for answers and emails: null before checkout (a hold has no
 * code to manage) and once its departure has ended.
 */
export function manageLinkOf(secret: string, origin: string, instance: { ref: string, prefix: string },
  booking: { id: string, code: string | null, end_at: string }, now: Temporal.Instant): string | null {
  // Asked for every answer about a hold, which has no code yet: decided before reading the end.
  if (booking.code === null) return null
  const end = fromStoredInstant(booking.end_at)
  if (Temporal.Instant.compare(end, now) <= 0) return null
  return manageLink(origin, instance.prefix, manageToken(secret, instance.ref, booking.id, end))
}
