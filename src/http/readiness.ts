import { randomBytes } from 'node:crypto'
import { statfs } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import type { DatabaseTarget } from '../config/env.ts'
import type { Clock } from '../domain/clock.ts'
import { toStoredInstant } from '../domain/instant-format.ts'
import type { Store } from '../store/store.ts'

/**
 * Room a SQLite database needs beside it to keep taking writes: a full WAL (SQLite
 * checkpoints at 1,000 pages of 4 KiB) and the pages a checkpoint adds to the file.
 */
export const SQLITE_ROOM_BYTES = 8 * 1024 * 1024

/**
 * What GET /readyz answers. A read alone cannot tell a full disk (SQLite still reads when it
 * can no longer write), and a load balancer would keep sending writes that are all refused.
 * So the node is ready when the database answers a read, and
 * - on SQLite, its file system has SQLITE_ROOM_BYTES free (one statfs, no write), and
 * - once a request has failed because the database refused it (disk full, I/O error, lock
 *   timeout, connection lost: whatever `store.isUnavailable` recognises), a probe write has
 *   succeeded since. While nothing has been refused, a check costs no write.
 */
export interface Readiness {
  /** Called with every error a request fails with; remembers the ones that mean the database refused. */
  noteFailure(error: unknown): void
  ready(): Promise<boolean>
}

/** Free bytes where the file lives; Infinity when that cannot be told, so a failing statfs never takes the node out by itself. */
async function freeBytesBeside(file: string): Promise<number> {
  try {
    const { bavail, bsize } = await statfs(dirname(file))
    return bavail * bsize
  } catch {
    return Number.POSITIVE_INFINITY
  }
}

/** What readiness checks with: the store, the clock, and the catalogs to find an instance for the probe write. */
export interface ReadinessParts {
  store: Store
  clock: Clock
  catalogs: { values(): Iterable<InstanceCatalog> }
}

export function databaseReadiness({ store, clock, catalogs }: ReadinessParts, target: DatabaseTarget | undefined): Readiness {
  const sqliteFile = target?.dialect === 'sqlite' && target.path !== ':memory:' ? target.path : null
  /** Refusals seen, and how many of them a successful probe write has answered for. */
  let refusals = 0
  let answeredFor = 0
  /** Concurrent checks share one probe write. */
  let probing: Promise<boolean> | null = null

  /**
   * The smallest write the store offers: a session row that has already expired, so no
   * request can use it and the next housekeeping sweep deletes it.
   */
  async function probeWrite(): Promise<boolean> {
    const instance = catalogs.values()[Symbol.iterator]().next().value?.instance
    if (!instance) return true
    const now = toStoredInstant(clock.now())
    try {
      await store.sessions.create({ instance_id: instance.ref, id: `probe${randomBytes(4).toString('hex').slice(0, 7)}`, created_at: now, expires_at: now })
      return true
    } catch {
      return false
    }
  }

  return {
    noteFailure(error) {
      if (store.isUnavailable(error)) refusals++
    },
    async ready() {
      try {
        await store.ping()
      } catch {
        return false
      }
      // A small write can still fit on a nearly full disk while a booking does not; free space tells.
      if (sqliteFile !== null && await freeBytesBeside(sqliteFile) < SQLITE_ROOM_BYTES) return false
      if (answeredFor === refusals) return true
      // A refusal that arrives while the probe runs is not answered for by it.
      const seen = refusals
      probing ??= probeWrite().finally(() => { probing = null })
      const writes = await probing
      if (writes) answeredFor = Math.max(answeredFor, seen)
      return writes
    },
  }
}
