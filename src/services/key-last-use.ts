import { Temporal } from 'temporal-polyfill'
import { toStoredInstant } from '../domain/instant-format.ts'
import { LruMap } from '../domain/lru-map.ts'
import type { ApiKeyRow } from '../store/staff.ts'
import type { Store } from '../store/store.ts'

/** A key's last use is written at most this often, so that requests do not each cost a write. */
const TOUCH_EVERY_MS = 60_000
/** Keys whose last write this node remembers: far more than an operator's keys. */
const KEPT_KEYS = 1_000

/**
 * Writes an API key's last use (operator and reseller keys alike) at most once a minute per
 * node. Every request in flight when a key's last use turns stale would otherwise write it: an
 * integration or a reseller polling at 50 connections made 50 commits at once, and on
 * PostgreSQL each commit is announced to every node and makes it read its kept availability
 * answers again (src/services/availability-answers.ts). So the node notes its own write
 * before making it, and the requests that come while it is in flight write nothing.
 * staff-auth.ts and reseller-keys.ts keep one each: a key's role lets it through only one of
 * them, and only the one that lets it through writes its last use.
 */
export function keyLastUse(store: Store) {
  const touchedAtMs = new LruMap<string, number>(KEPT_KEYS)
  return {
    async note(instanceRef: string, key: ApiKeyRow, now: Temporal.Instant): Promise<void> {
      const storedMs = key.last_used_at === null ? -Infinity : Date.parse(key.last_used_at)
      const lastUseMs = Math.max(storedMs, touchedAtMs.get(key.id) ?? -Infinity)
      if (now.epochMilliseconds - lastUseMs < TOUCH_EVERY_MS) return
      touchedAtMs.set(key.id, now.epochMilliseconds)
      await store.write(() => store.staff.touchKey(instanceRef, key.id, toStoredInstant(now)))
    },
  }
}
export type KeyLastUse = ReturnType<typeof keyLastUse>
