import { createHmac, timingSafeEqual } from 'node:crypto'

/** A token bound to one session of one instance: HMAC-SHA256 of both with the server secret. */
export function csrfToken(secret: string, instanceRef: string, sessionId: string): string {
  return createHmac('sha256', secret).update(`${instanceRef}.${sessionId}`).digest('base64url')
}

export function csrfTokenMatches(secret: string, instanceRef: string, sessionId: string, presented: string): boolean {
  const expected = Buffer.from(csrfToken(secret, instanceRef, sessionId))
  const given = Buffer.from(presented)
  return given.length === expected.length && timingSafeEqual(given, expected)
}
