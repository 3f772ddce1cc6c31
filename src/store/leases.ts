import type { Database } from './database.ts'
import { statement } from './write-plan.ts'

/** Who holds a lease: one per process. */
export const LEASE_HOLDER = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`

/**
 * Named leases (migration 016), for work that one node at a time must do: a node that holds
 * the lease renews it; once it lapses (the node died or hangs), another node takes it.
 * Instance-wide work uses the instance's id, work for the whole database the id ''.
 */
export function leaseRepository({ write }: Database) {
  return {
    /** Takes or renews the lease `name` until `until`; true when this process holds it now. */
    take(instanceId: string, name: string, now: string, until: string): Promise<boolean> {
      return write(function* () {
        const { rows } = yield* statement(
          `insert into job_leases (instance_id, name, holder, expires_at) values (?, ?, ?, ?)
           on conflict (instance_id, name) do update set holder = excluded.holder, expires_at = excluded.expires_at
           where job_leases.expires_at <= ? or job_leases.holder = excluded.holder
           returning holder`,
          [instanceId, name, LEASE_HOLDER, until, now])
        return rows.length === 1
      })
    },

    /** Gives the lease up at once (a node stopping), so another node need not wait for it to lapse. */
    release(instanceId: string, name: string): Promise<void> {
      return write(function* () {
        yield* statement('delete from job_leases where instance_id = ? and name = ? and holder = ?', [instanceId, name, LEASE_HOLDER])
      })
    },
  }
}

export type LeaseRepository = ReturnType<typeof leaseRepository>
