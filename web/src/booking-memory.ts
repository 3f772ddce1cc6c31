import type { Booking } from '../../src/schemas/booking.ts'

/**
 * Whether this browser may still hold seats at this instance. The page cannot see its
 * session (the sid cookie is HttpOnly), and asking GET /booking when there is no booking
 * gets a 404 that the browser logs as an error. So the page remembers the holds it makes,
 * until they lapse, and only then asks. Where storage is blocked the page asks anyway.
 */
export class HoldMemory {
  private readonly key: string

  constructor(apiBase: string, private readonly serverNow: () => number) {
    this.key = `tourdesk.hold-expires:${apiBase}`
  }

  /** Remembers a live hold until its expiry; any other booking, or none, forgets. */
  note(booking: Booking | null): void {
    const expires = booking?.status === 'held' ? Date.parse(booking.hold_expires_at ?? '') : Number.NaN
    // Kept in this device's clock: the next visit reads it before any answer tells the server's.
    this.write(Number.isNaN(expires) ? null : String(expires - (this.serverNow() - Date.now())))
  }

  /** False only when the page knows there is no live hold to resume. */
  mayHoldSeats(): boolean {
    let stored: string | null
    try {
      stored = localStorage.getItem(this.key)
    } catch {
      return true
    }
    return stored !== null && Number(stored) > Date.now()
  }

  private write(value: string | null): void {
    try {
      if (value === null) localStorage.removeItem(this.key)
      else localStorage.setItem(this.key, value)
    } catch {
      // storage blocked: mayHoldSeats() then answers true and the page asks
    }
  }
}
