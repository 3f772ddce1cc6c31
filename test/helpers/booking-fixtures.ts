import assert from 'node:assert/strict'
import type { TestService } from './build.ts'
import type { ApiClient } from './client.ts'

// Departures of the bundled demo, seen from DEFAULT_NOW (2026-06-01T08:00:00Z, Monday 09:00 in Lisbon, +01:00).
/** alfama-walk (instant confirmation) 09:30 on Tuesday 2 June. */
export const ALFAMA_TUE_0930 = '2026-06-02T08:30:00Z'
/** alfama-walk 14:00 on Tuesday 2 June. */
export const ALFAMA_TUE_1400 = '2026-06-02T13:00:00Z'
/** pastel-de-nata-workshop 10:00 on Tuesday 2 June (capacity 4, cutoff 720 minutes). */
export const WORKSHOP_TUE = '2026-06-02T09:00:00Z'
/** pastel-de-nata-workshop 10:00 on Thursday 4 June. */
export const WORKSHOP_THU = '2026-06-04T09:00:00Z'
export const ALFAMA = { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 2 }
export const CONTACT = { name: 'Ana Silva', email: 'ana@example.pt' }

export type Session = Awaited<ReturnType<ApiClient['session']>>

/** The test's database, for asserting what a request did or did not change. */
export const db = (service: TestService) => service.context.store.db

export async function bookingRow(service: TestService, id: string) {
  return db(service).selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

/** The booking's recorded transitions, e.g. ['->held', 'held>expired']. */
export async function transitions(service: TestService, bookingId: string): Promise<string[]> {
  const rows = await db(service).selectFrom('booking_events').selectAll().where('booking_id', '=', bookingId).orderBy('at').execute()
  return rows.map((r) => `${r.from_status ?? '-'}>${r.to_status}`)
}

/** departures.seats_taken for one departure; 0 when no row was ever written for it. */
export async function seatsTaken(service: TestService, tourId: string, start: string): Promise<number> {
  const rows = await db(service).selectFrom('departures').selectAll().where('tour_id', '=', tourId).execute()
  return rows.find((r) => Date.parse(r.start_at) === Date.parse(start))?.seats_taken ?? 0
}

export async function promoUses(service: TestService, code: string): Promise<number> {
  const row = await db(service).selectFrom('promo_redemptions').select('uses').where('code', '=', code).executeTakeFirst()
  return row?.uses ?? 0
}

/** A new session holding `body`, asserted to succeed. */
export async function holding(client: ApiClient, body: Record<string, unknown>) {
  const session = await client.session()
  const res = await client.post('/booking', body, { headers: session.headers })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return { session, booking: res.body }
}
