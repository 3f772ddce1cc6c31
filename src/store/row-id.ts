import { randomUUID } from 'node:crypto'

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then random bits (those of a
 * version 4 UUID, whose generator draws from a cached entropy pool). Rows made around the
 * same time get neighbouring keys, so inserts land at the right edge of the primary-key
 * and history indexes instead of on a random page each: fewer pages written per commit.
 */
export function newRowId(now = Date.now()): string {
  const time = now.toString(16).padStart(12, '0')
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${randomUUID().slice(15)}`
}
