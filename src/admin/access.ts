import type { FastifyRequest, RouteOptions } from 'fastify'
import { roleMay } from '../domain/roles.ts'
import { ApiError } from '../errors/api-error.ts'
import { STAFF_COOKIE, staffCsrfTokenMatches, type StaffIdentity } from '../services/staff-auth.ts'

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
const unauthenticated = (detail: string) =>
  new ApiError('unauthenticated', detail, { headers: { 'WWW-Authenticate': 'Bearer realm="tourdesk"' } })

/** The staff member or key behind the request: a Bearer API key, or else the td_staff cookie; null when neither. */
async function identify(request: FastifyRequest): Promise<StaffIdentity | null> {
  const { staff, clock } = request.server.tourdesk
  const ref = request.catalog.instance.ref
  const authorization = request.headers.authorization
  if (authorization !== undefined) {
    const bearer = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1]
    const identity = bearer ? await staff.identifyKey(ref, bearer, clock.now()) : null
    if (!identity) throw unauthenticated('This API key is unknown, revoked or of another instance')
    return identity
  }
  const token = request.cookies[STAFF_COOKIE]
  if (token === undefined || token === '') return null
  const identity = await staff.identifyStaff(ref, token, clock.now())
  if (!identity) throw unauthenticated('Your session has ended; sign in again')
  return identity
}

/** Writes under a staff session need the session's CSRF token and a same-origin (or absent) Origin; key requests need neither. */
function checkStaffWrite(request: FastifyRequest, identity: StaffIdentity): void {
  if (identity.kind !== 'staff' || !WRITE_METHODS.has(request.method)) return
  if (!sameOrigin(request)) throw new ApiError('origin_not_allowed', `Requests from ${request.headers.origin} are not accepted`)
  const token = request.headers['x-csrf-token']
  if (typeof token !== 'string' || token === '') throw new ApiError('csrf_missing', 'Send the X-CSRF-Token header; signing in gives the token')
  const { secret } = request.server.tourdesk
  if (!staffCsrfTokenMatches(secret, request.catalog.instance.ref, identity.sessionId!, token)) {
    throw new ApiError('csrf_invalid', 'X-CSRF-Token does not belong to this session; sign in again')
  }
}

/** Staff writes accept only this service's own origin (the back office), not the booking page's allowed origins. */
function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin
  return origin === undefined || origin === `${request.protocol}://${request.host}`
}

/** The one check of every operator route: the credential, then the role's permission, then CSRF and Origin for staff writes. */
export async function enforceAccess(request: FastifyRequest): Promise<void> {
  const access = request.routeOptions.config.access
  if (access === undefined) throw new Error(`${request.routeOptions.url} declares no access rule`)
  if (access === 'public') return
  const identity = await identify(request)
  if (!identity) throw unauthenticated('Sign in (POST /session) or send an API key as Authorization: Bearer')
  request.staff = identity
  if (access !== 'signed-in' && !roleMay(identity.role, access)) {
    throw new ApiError('forbidden', `A ${identity.role} may not do this`)
  }
  checkStaffWrite(request, identity)
}

/** Refuses at start-up an operator route that declares no access rule, so none is ever left unguarded. */
export function requireAccessRule(route: RouteOptions): void {
  if (route.config?.access === undefined) throw new Error(`operator route ${[route.method].flat().join(',')} ${route.url} declares no access rule`)
}
