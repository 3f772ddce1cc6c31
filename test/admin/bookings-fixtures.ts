import assert from 'node:assert/strict'
import type { Role } from '../../src/domain/roles.ts'
import { build, demoCatalog, type BuildOptions, type TestService } from '../helpers/build.ts'
import { CONTACT } from '../helpers/booking-fixtures.ts'
import { contractFor } from '../helpers/contract.ts'
import { apiKeyClient, OperatorClient, signedInStaff } from '../helpers/operator.ts'
import type { TestContext } from 'node:test'

// Departures of the bundled demo, seen from DEFAULT_NOW (2026-06-01T08:00:00Z, Monday 09:00 in Lisbon, +01:00).
/** fado-night (on request, capacity 24, cutoff 180 minutes) 20:30 on Monday 1 June. */
export const FADO_MON = '2026-06-01T19:30:00Z'
/** fado-night 20:30 on Tuesday 2 June. */
export const FADO_TUE = '2026-06-02T19:30:00Z'
/** alfama-walk (instant, capacity 16, 150 minutes) 09:30 and 14:00 on Tuesday 2 June. */
export const ALFAMA_TUE = '2026-06-02T08:30:00Z'
export const ALFAMA_TUE_PM = '2026-06-02T13:00:00Z'
/** pastel-de-nata-workshop (on request, capacity 4, party 1 to 4) 10:00 on Tuesday 2 June. */
export const WORKSHOP_TUE = '2026-06-02T09:00:00Z'

export interface Operator {
  service: TestService
  /** A signed-in staff member (cookie and CSRF token); answers checked against the operator openapi.json. */
  staff: OperatorClient
  /** An API key of the staff role, for tests that move the clock past a staff session's idle limit. */
  key: OperatorClient
}

/**
 * Checks every JSON answer of `client` against the operator API's own openapi.json: a success
 * against its schema, an error by its code, which the operation must list for that status.
 * (Error bodies are not checked against the Problem schema: it does not list the operator's
 * extra members yet, booking_status, version and seats_taken.)
 */
export async function contractChecked(client: OperatorClient): Promise<OperatorClient> {
  const document = await (await fetch(`${client.base}/openapi.json`)).json() as Record<string, any>
  const checker = contractFor(document)
  const request = client.request.bind(client)
  client.request = async (method, path, body, headers) => {
    const res = await request(method, path, body, headers)
    const type = res.headers.get('content-type')
    if (res.status < 400 && type?.includes('json')) checker.check(method, path, res.status, type, res.body)
    if (res.status >= 400) {
      assert.ok(type?.startsWith('application/problem+json'), `${method} ${path} ${res.status} answered ${type}`)
      const template = Object.keys(document.paths).find((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}/?$`).test(path.split('?')[0]))
      const codes: string[] = document.paths[template!]?.[method.toLowerCase()]?.responses[String(res.status)]?.['x-error-codes'] ?? []
      assert.ok(codes.includes(res.body.code), `${method} ${template} documents ${codes.join(', ')} for ${res.status}, answered ${res.body.code}`)
    }
    return res
  }
  return client
}

/** The app on a fresh database, and a signed-in member of staff. */
export async function operatorService(t: TestContext, options: BuildOptions = {}): Promise<Operator> {
  const service = await build(t, options)
  const { client } = await signedInStaff(service, 'staff')
  return { service, staff: await contractChecked(client), key: await keyOf(service, 'staff') }
}

export async function keyOf(service: TestService, role: Role, prefix = 'lisbon'): Promise<OperatorClient> {
  return contractChecked((await apiKeyClient(service, role, prefix)).client)
}

/** A guest's checked-out booking (held, then checkout) through the guest API. */
export async function guestBooking(service: TestService, body: Record<string, unknown>, contact: Record<string, unknown> = CONTACT, prefix = 'lisbon') {
  const client = service.client(prefix)
  const session = await client.session()
  const hold = await client.post('/booking', body, { headers: session.headers })
  assert.equal(hold.status, 200, hold.text)
  const checkout = await client.post('/checkout', contact, { headers: session.headers })
  assert.equal(checkout.status, 200, checkout.text)
  return { client, session, booking: checkout.body }
}

/** The demo catalog with New York's Brooklyn walk also at 22:00 local, which is the next day in UTC. */
export function catalogWithLateDeparture() {
  const catalog = demoCatalog()
  const nyc = catalog.instances.find((i: { prefix: string }) => i.prefix === 'nyc')
  nyc.tours.find((t: { id: string }) => t.id === 'brooklyn-bridge-dumbo').schedule[0].times.push('22:00')
  return catalog
}

export async function auditEntries(service: TestService, targetId: string) {
  return service.context.store.db.selectFrom('audit_log').selectAll().where('target_id', '=', targetId).orderBy('at').execute()
}
