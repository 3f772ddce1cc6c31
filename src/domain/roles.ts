/** What a staff member or an API key may do (docs/operator-api.md, "Roles"). */
export const ROLES = ['guide', 'viewer', 'staff', 'manager'] as const
export type Role = typeof ROLES[number]

/**
 * An API key has a staff role (the operator API) or is a reseller's: `reseller` works only on
 * the OCTo API at /octo/<prefix> and is refused everywhere else (docs/resellers.md). Staff
 * accounts never have it.
 */
export const RESELLER_ROLE = 'reseller'
export const KEY_ROLES = [...ROLES, RESELLER_ROLE] as const
export type KeyRole = typeof KEY_ROLES[number]

export const PERMISSIONS = {
  'departures.read': 'read departures and their manifests',
  'check-in': 'check in, mark no-show, undo either',
  'bookings.read': 'read bookings, the audit log, exports, the event feed',
  'bookings.change': 'booking actions: confirm, decline, cancel, change, create',
  'departures.change': 'departure changes: close, reopen, capacity, note, cancel, add',
  'catalog.manage': 'catalog, settings, promo codes, policy',
  'access.manage': 'webhooks, API keys, staff accounts, privacy export and erase',
} as const
export type Permission = keyof typeof PERMISSIONS

/**
 * Who may call an operator route: `public` (sign-in, setup and the API document), `signed-in`
 * (any staff member or key: GET /me, sign-out), or one permission of the role table.
 */
export type Access = Permission | 'public' | 'signed-in'

const GRANTS: Record<Role, readonly Permission[]> = {
  guide: ['departures.read', 'check-in'],
  viewer: ['departures.read', 'bookings.read'],
  staff: ['departures.read', 'check-in', 'bookings.read', 'bookings.change', 'departures.change'],
  manager: Object.keys(PERMISSIONS) as Permission[],
}

export function roleMay(role: Role, permission: Permission): boolean {
  return GRANTS[role].includes(permission)
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value)
}

export function isKeyRole(value: unknown): value is KeyRole {
  return typeof value === 'string' && (KEY_ROLES as readonly string[]).includes(value)
}
