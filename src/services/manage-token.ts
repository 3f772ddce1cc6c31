import { createHmac, timingSafeEqual } from 'node:crypto'
import { Temporal } from 'temporal-polyfill'
import { managePagePath } from '../web/booking-page.ts'

/**
 * A manage link lets whoever has it look a booking up from any device (POST /booking/lookup)
 * until its departure ends. The token is stateless: the booking's id and that end, signed
 * with the server secret for one instance (HMAC-SHA256), in base64url. Nothing is stored, so
 * every email and every answer about the booking carries the same link.
 */
const MAC_BYTES = 32

function mac(secret: string, instanceRef: string, claim: string): Buffer {
  // The "manage" label keeps these apart from the other HMACs made with the same secret (CSRF tokens).
  return createHmac('sha256', secret).update(`manage.${instanceRef}.${claim}`).digest()
}

/** The token for one booking, valid until `validUntil` (the departure's end). */
export function manageToken(secret: string, instanceRef: string, bookingId: string, validUntil: Temporal.Instant): string {
  const claim = `${bookingId}.${Math.floor(validUntil.epochMilliseconds / 1000)}`
  return Buffer.concat([Buffer.from(claim, 'utf8'), mac(secret, instanceRef, claim)]).toString('base64url')
}

/** The booking id a token names, or null when it was not made for this instance with this secret, or has run out by `now`. */
export function readManageToken(secret: string, instanceRef: string, token: string, now: Temporal.Instant): string | null {
  const bytes = Buffer.from(token, 'base64url')
  if (bytes.length <= MAC_BYTES) return null
  const claim = bytes.subarray(0, bytes.length - MAC_BYTES).toString('utf8')
  if (!timingSafeEqual(bytes.subarray(bytes.length - MAC_BYTES), mac(secret, instanceRef, claim))) return null
  const parts = /^(.+)\.(\d+)$/.exec(claim)
  if (!parts || now.epochMilliseconds >= Number(parts[2]) * 1000) return null
  return parts[1]
}

/** `<origin>/book/<prefix>/manage#<token>`: the fragment never reaches a server or a Referer. */
export function manageLink(origin: string, prefix: string, token: string): string {
  return `${origin}${managePagePath(prefix)}#${token}`
}

/**
 * The manage link of a booking, for answers and emails: null before checkout (a hold has no
 * code to manage) and once its departure has ended.
 */
export function manageLinkOf(secret: string, origin: string, instance: { ref: string, prefix: string },
  booking: { id: string, code: string | null, end_at: string }, now: Temporal.Instant): string | null {
  const end = Temporal.Instant.from(booking.end_at)
  if (booking.code === null || Temporal.Instant.compare(end, now) <= 0) return null
  return manageLink(origin, instance.prefix, manageToken(secret, instance.ref, booking.id, end))
}
