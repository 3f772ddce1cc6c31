import assert from 'node:assert/strict'
import type { Role } from '../../src/domain/roles.ts'
import type { TestService } from '../helpers/build.ts'
import { CONTACT, db, holding } from '../helpers/booking-fixtures.ts'
import { apiKeyClient } from '../helpers/operator.ts'
import { checked, operatorContract } from '../helpers/operator-contract.ts'

/** The operator URL of one departure: the start as an instant in any offset, URL-encoded. */
export const departurePath = (tourId: string, start: string) => `/departures/${tourId}/${encodeURIComponent(start)}`

/** An operator API client holding an API key of `role` on the lisbon instance, every JSON answer checked against the operator openapi.json. */
export async function operator(service: TestService, role: Role = 'staff') {
  return checked((await apiKeyClient(service, role)).client, await operatorContract(service))
}

/** A guest booking made over the guest API: a hold, then checkout with `contact`. */
export async function guestBooking(service: TestService, body: Record<string, unknown>, contact: Record<string, unknown> = CONTACT) {
  const client = service.client()
  const { session } = await holding(client, body)
  const res = await client.post('/checkout', contact, { headers: { 'x-session': session.session } })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return { client, session, booking: res.body }
}

/** A guest hold (not checked out). */
export async function guestHold(service: TestService, body: Record<string, unknown>) {
  const client = service.client()
  const { session, booking } = await holding(client, body)
  return { client, session, booking }
}

/** The stored departure row, if any (start compared as an instant). */
export async function departureRow(service: TestService, tourId: string, start: string) {
  const rows = await db(service).selectFrom('departures').selectAll().where('tour_id', '=', tourId).execute()
  return rows.find((r) => Date.parse(r.start_at) === Date.parse(start))
}

/** Audit entries with this action, oldest first. */
export async function auditEntries(service: TestService, action: string) {
  return db(service).selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('at').orderBy('id').execute()
}

/**
 * Moves a departure's row and bookings to another start, as a schedule edit would leave
 * them: stored, holding bookings, no longer given by the schedule (orphaned).
 */
export async function orphan(service: TestService, tourId: string, from: string, to: string) {
  const fromKey = new Date(from).toISOString()
  const toKey = new Date(to).toISOString()
  await db(service).updateTable('departures').set({ start_at: toKey }).where('tour_id', '=', tourId).where('start_at', '=', fromKey).execute()
  await db(service).updateTable('bookings').set({ start_at: toKey }).where('tour_id', '=', tourId).where('start_at', '=', fromKey).execute()
}
