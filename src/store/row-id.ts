import { randomBytes } from 'node:crypto'

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then random bits. Rows made
 * around the same time get neighbouring keys, so inserts land at the right edge of the
 * primary-key and history indexes instead of on a random page each: fewer pages written
 * per commit on both databases.
 */
export function newRowId(now = Date.now()): string {
  const bytes = randomBytes(16)
  bytes.writeUIntBE(now, 0, 6)
  bytes[6] = (bytes[6] & 0x0f) | 0x70
  bytes[8] = (bytes[8] & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
