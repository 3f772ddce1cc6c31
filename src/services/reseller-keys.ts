import { Temporal } from 'temporal-polyfill'
import { RESELLER_ROLE } from '../domain/roles.ts'
import { LruMap } from '../domain/lru-map.ts'
import type { ApiKeyRow } from '../store/staff.ts'
import type { Store } from '../store/store.ts'
import { keyLastUse } from './last-use.ts'
import type { Reseller } from './reseller-bookings.ts'
import { API_KEY_PATTERN, sha256 } from './staff-auth.ts'

/** Keys kept found, per node: far more than an operator's resellers. */
const KEPT_KEYS = 1_000

/**
 * Who is calling the OCTo API: the live reseller key a Bearer secret is; `not-reseller` for a
 * live key of a staff role (refused there, 403); null for no, an unknown or a revoked key (401).
 */
export function resellerKeys(store: Store) {
  const lastUse = keyLastUse(store)
  /**
   * Keys found, with the store's change token they were read under, reused while it stands:
   * a reseller polls at many connections, and on PostgreSQL reading the key was a round trip
   * per request. The token moves with every commit of any node or process (a revocation or a
   * new key included: src/store/change-token.ts, src/store/sqlite.ts), so a node refuses a
   * revoked key as soon as it would see another node's booking in its kept availability
   * answers; the token is null while a node cannot tell, and then every request reads the key.
   */
  const found = new LruMap<string, { token: string, key: ApiKeyRow, reseller: Reseller | null }>(KEPT_KEYS)

  /** The key a secret's hash names, with the reseller it is when it is a reseller key. */
  async function findKey(instanceRef: string, secretHash: string): Promise<{ key: ApiKeyRow, reseller: Reseller | null } | undefined> {
    const name = `${instanceRef} ${secretHash}`
    // Taken before the read: a commit during it moves the token, and the row read is not reused.
    const token = store.changeToken()
    const kept = token === null ? undefined : found.get(name)
    if (kept && kept.token === token) return kept
    const key = await store.staff.findKey(instanceRef, secretHash)
    if (!key) return undefined
    const entry = { key, reseller: key.role === RESELLER_ROLE ? resellerOf(key) : null }
    if (token !== null) found.set(name, { token, ...entry })
    return entry
  }

  return {
    async identify(instanceRef: string, bearer: string, now: Temporal.Instant): Promise<Reseller | 'not-reseller' | null> {
      if (!API_KEY_PATTERN.test(bearer)) return null
      const entry = await findKey(instanceRef, sha256(bearer))
      if (!entry || entry.key.revoked_at !== null) return null
      if (entry.reseller === null) return 'not-reseller'
      await lastUse.note(instanceRef, entry.key, now)
      return entry.reseller
    },
  }
}
export type ResellerKeys = ReturnType<typeof resellerKeys>

function resellerOf(key: ApiKeyRow): Reseller {
  return {
    keyId: key.id,
    name: key.name,
    products: key.products === null ? null : Object.freeze(JSON.parse(key.products) as string[]),
    commissionBasisPoints: key.commission_basis_points ?? 0,
  }
}
