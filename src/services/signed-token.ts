import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Temporal } from 'temporal-polyfill'

/**
 * A stateless token for a link: an id and an expiry, signed with the server secret for one
 * instance and one purpose (HMAC-SHA256), in base64url. Nothing is stored, so a link can be
 * made again at will and checked on any node.
 */
const MAC_BYTES = 32

function mac(secret: string, purpose: string, instanceRef: string, claim: string): Buffer {
  // The purpose keeps tokens of one kind from passing for another, and apart from the other HMACs made with the same secret (CSRF tokens).
  return createHmac('sha256', secret).update(`${purpose}.${instanceRef}.${claim}`).digest()
}

export function signedToken(secret: string, purpose: string, instanceRef: string, id: string, validUntil: Temporal.Instant): string {
  const claim = `${id}.${Math.floor(validUntil.epochMilliseconds / 1000)}`
  return Buffer.concat([Buffer.from(claim, 'utf8'), mac(secret, purpose, instanceRef, claim)]).toString('base64url')
}

/** The id a token names, or null when it was not made for this purpose and instance with this secret, or has run out by `now`. */
export function readSignedToken(secret: string, purpose: string, instanceRef: string, token: string, now: Temporal.Instant): string | null {
  const bytes = Buffer.from(token, 'base64url')
  if (bytes.length <= MAC_BYTES) return null
  const claim = bytes.subarray(0, bytes.length - MAC_BYTES).toString('utf8')
  if (!timingSafeEqual(bytes.subarray(bytes.length - MAC_BYTES), mac(secret, purpose, instanceRef, claim))) return null
  const parts = /^(.+)\.(\d+)$/.exec(claim)
  if (!parts || now.epochMilliseconds >= Number(parts[2]) * 1000) return null
  return parts[1]
}
