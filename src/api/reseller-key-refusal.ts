import type { FastifyRequest } from 'fastify'
import { ApiError } from '../errors/api-error.ts'

/**
 * The guest API needs no credential, but a reseller's key sent to it is refused (403): a
 * reseller books through the OCTo API (docs/resellers.md), whose bookings carry its commission
 * and reference; a booking made here would carry neither. Other Authorization headers are
 * ignored, as they always were.
 */
export async function refuseResellerKey(request: FastifyRequest): Promise<void> {
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1]
  if (bearer === undefined) return
  if (await request.server.tourdesk.staff.isResellerKey(request.catalog.instance.ref, bearer)) {
    throw new ApiError('reseller_key_refused', 'A reseller key works only on the OCTo API (/octo/<prefix>), not on the guest API')
  }
}
