import { createHmac, timingSafeEqual } from 'node:crypto'
import { LruMap } from '../domain/lru-map.ts'

/**
 * Tokens already computed, by secret, instance and session: every write of the guest API checks
 * one, and a guest's session sends several (hold, checkout, cancel); an HMAC costs more than the
 * lookup (bench/profile.ts hold-release, 2026-11-27). Bounded, so sessions that come and go do
 * not grow it.
 */
const KNOWN_TOKENS_PER_SECRET = 4096
const knownBySecret = new Map<string, LruMap<string, string>>()

/** A token bound to one session of one instance: HMAC-SHA256 of both with the server secret. */
export function csrfToken(secret: string, instanceRef: string, sessionId: string): string {
  let known = knownBySecret.get(secret)
  if (!known) {
    known = new LruMap<string, string>(KNOWN_TOKENS_PER_SECRET)
    knownBySecret.set(secret, known)
  }
  const subject = `${instanceRef}.${sessionId}`
  let token = known.get(subject)
  if (token === undefined) {
    token = createHmac('sha256', secret).update(subject).digest('base64url')
    known.set(subject, token)
  }
  return token
}

export function csrfTokenMatches(secret: string, instanceRef: string, sessionId: string, presented: string): boolean {
  const expected = Buffer.from(csrfToken(secret, instanceRef, sessionId))
  const given = Buffer.from(presented)
  return given.length === expected.length && timingSafeEqual(given, expected)
}
