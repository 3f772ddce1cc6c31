import { formatStoredInZone } from '../domain/instant-format.ts'
import type { KeyRole, Role } from '../domain/roles.ts'
import type { StaffAccount } from '../schemas/admin/staff.ts'
import type { ApiKeyRow, StaffRow } from '../store/staff.ts'

/** Wire shapes of the operator API's records, from the stored rows. */
export function staffAccountView(row: StaffRow, timeZone: string): StaffAccount {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role as Role,
    disabled: row.disabled === 1,
    set_up: row.password_hash !== null,
    created_at: formatStoredInZone(row.created_at, timeZone),
    updated_at: formatStoredInZone(row.updated_at, timeZone),
  }
}

export function apiKeyView(row: ApiKeyRow, timeZone: string) {
  const at = (stored: string | null) => stored === null ? null : formatStoredInZone(stored, timeZone)
  return {
    id: row.id,
    name: row.name,
    role: row.role as KeyRole,
    ...row.commission_basis_points === null ? {} : {
      products: row.products === null ? null : JSON.parse(row.products) as string[],
      commission_percent: row.commission_basis_points / 100,
    },
    prefix: row.prefix,
    created_at: at(row.created_at)!,
    last_used_at: at(row.last_used_at),
    revoked_at: at(row.revoked_at),
  }
}
