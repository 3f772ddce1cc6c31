import { Temporal } from 'temporal-polyfill'
import { toStoredInstant } from '../domain/instant-format.ts'
import { LruMap } from '../domain/lru-map.ts'
import type { ApiKeyRow } from '../store/staff.ts'
import type { Store } from '../store/store.ts'
import type { Plan } from '../store/write-plan.ts'

/** A last use is written at most this often, so that requests do not each cost a write. */
const TOUCH_EVERY_MS = 60_000
/** Credentials whose last write this node remembers: far more than an operator's keys and staff. */
const KEPT_CREDENTIALS = 1_000

/**
 * Writes a credential's last use at most once a minute per node. Every request in flight when
 * the stored last use turns stale would otherwise write it: an integration or a reseller
 * polling at 50 connections made 50 commits at once, and on PostgreSQL each commit is announced
 * to every node and makes it read its kept availability answers again
 * (src/services/availability-answers.ts). So the node notes its own write before making it,
 * and the requests that come while it is in flight write nothing.
 */
function lastUseWriter(store: Store, touch: (instanceRef: string, id: string, at: string) => Plan<void>) {
  const touchedAtMs = new LruMap<string, number>(KEPT_CREDENTIALS)
  return {
    async note(instanceRef: string, id: string, storedAt: string | null, now: Temporal.Instant): Promise<void> {
      const storedMs = storedAt === null ? -Infinity : Date.parse(storedAt)
      const lastUseMs = Math.max(storedMs, touchedAtMs.get(id) ?? -Infinity)
      if (now.epochMilliseconds - lastUseMs < TOUCH_EVERY_MS) return
      touchedAtMs.set(id, now.epochMilliseconds)
      await store.write(() => touch(instanceRef, id, toStoredInstant(now)))
    },
  }
}

/**
 * An API key's last use (operator and reseller keys alike). staff-auth.ts and reseller-keys.ts
 * keep one each: a key's role lets it through only one of them, and only the one that lets it
 * through writes its last use.
 */
export function keyLastUse(store: Store) {
  const writer = lastUseWriter(store, (instanceRef, id, at) => store.staff.touchKey(instanceRef, id, at))
  return {
    note: (instanceRef: string, key: ApiKeyRow, now: Temporal.Instant) => writer.note(instanceRef, key.id, key.last_used_at, now),
  }
}

/** A staff session's last activity, which its idle timeout counts from: the back office asks several things at once. */
export function sessionLastSeen(store: Store) {
  return lastUseWriter(store, (instanceRef, id, at) => store.staff.touchSession(instanceRef, id, at))
}
