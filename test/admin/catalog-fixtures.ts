import assert from 'node:assert/strict'
import { demoCatalog, type TestService } from '../helpers/build.ts'
import { db } from '../helpers/booking-fixtures.ts'
import type { OperatorClient } from '../helpers/operator.ts'
import { operator } from './departures-fixtures.ts'

/** An operator API client holding a manager's API key on the lisbon instance, every answer checked against the operator openapi.json. */
export const manager = (service: TestService) => operator(service, 'manager')

/** The demo catalog with alfama-walk's capacity raised, so many guests fit on one departure. */
export function roomyCatalog(capacity: number): any {
  const catalog = demoCatalog()
  const alfama = catalog.instances[0].tours.find((tour: any) => tour.id === 'alfama-walk')
  alfama.capacity = capacity
  return catalog
}

/** Audit entries of catalog changes, oldest first, their fields parsed. */
export async function catalogAudit(service: TestService, action?: string) {
  let query = db(service).selectFrom('audit_log').selectAll().where('action', 'like', 'catalog.%')
  if (action) query = query.where('action', '=', action)
  const rows = await query.orderBy('at').orderBy('id').execute()
  return rows.map((row) => ({ ...row, before: row.before === null ? null : JSON.parse(row.before), after: row.after === null ? null : JSON.parse(row.after) }))
}

/** The instance's catalog version as the database holds it. */
export async function catalogVersion(service: TestService, ref = 'lx4t7k2m'): Promise<number> {
  const row = await db(service).selectFrom('catalog_instances').select('catalog_version').where('instance_id', '=', ref).executeTakeFirstOrThrow()
  return Number(row.catalog_version)
}

/** Asserts a problem answer: status, code, and (when given) the fields errors[] names. */
export function assertProblem(res: { status: number, body: any, text: string }, status: number, code: string, fields?: string[]) {
  assert.equal(res.status, status, res.text)
  assert.equal(res.body.code, code, res.text)
  if (fields) assert.deepEqual(res.body.errors.map((e: { field: string }) => e.field).sort(), [...fields].sort(), res.text)
}

/** A guest's view of one tour: status and, when offered, its price per person. */
export async function guestTour(service: TestService, id: string) {
  const res = await service.client().get(`/tours/${id}`)
  return { status: res.status, price: res.status === 200 ? res.body.price.amount as number : null, body: res.body }
}

export type { OperatorClient }
