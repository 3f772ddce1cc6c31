import { randomUUID } from 'node:crypto'

let lastMs = 0
let sequence = 0

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, a 12-bit sequence that keeps ids
 * made in the same millisecond by this process in order (the RFC's method 1), then random
 * bits (those of a version 4 UUID, whose generator draws from a cached entropy pool). Rows
 * made around the same time get neighbouring keys, so inserts land at the right edge of the
 * primary-key and history indexes instead of on a random page each, and entries written in
 * one transaction (history, audit) sort in the order they were made.
 */
export function newRowId(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now
    sequence = 0
  } else if (++sequence > 0xfff) {
    lastMs++
    sequence = 0
  }
  const time = lastMs.toString(16).padStart(12, '0')
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${sequence.toString(16).padStart(3, '0')}-${randomUUID().slice(19)}`
}
