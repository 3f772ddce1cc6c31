import type { Booking } from '../../src/schemas/booking.ts'

/**
 * Whether this browser may have a booking to show at this instance. The page cannot see its
 * session (the sid cookie is HttpOnly), and asking GET /booking when there is no booking
 * gets a 404 that the browser logs as an error. So the page remembers the bookings it makes
 * or looks up, for as long as they are worth coming back to: a hold until it lapses, a
 * checked-out booking until its departure ends. Only then does it ask. Where storage is
 * blocked the page asks anyway.
 */
export class BookingMemory {
  private readonly key: string

  constructor(apiBase: string, private readonly serverNow: () => number) {
    this.key = `tourdesk.booking-until:${apiBase}`
  }

  /** Remembers a hold until its expiry and a checked-out booking until its departure ends; anything else, or none, forgets. */
  note(booking: Booking | null): void {
    const until = booking === null ? Number.NaN
      : booking.status === 'held' ? Date.parse(booking.hold_expires_at ?? '')
        : booking.code !== null ? Date.parse(booking.end) : Number.NaN
    // Kept in this device's clock: the next visit reads it before any answer tells the server's.
    this.write(Number.isNaN(until) ? null : String(until - (this.serverNow() - Date.now())))
  }

  /** False only when the page knows there is no booking to show. */
  mayHaveBooking(): boolean {
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
      // storage blocked: mayHaveBooking() then answers true and the page asks
    }
  }
}
