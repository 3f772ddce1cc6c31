import type { Kysely } from 'kysely'
import type { DatabaseTarget } from '../config/env.ts'
import { openPostgres } from './postgres.ts'
import { openSqlite } from './sqlite.ts'
import type { Tables } from './tables.ts'
import type { Plan } from './write-plan.ts'

export type Db = Kysely<Tables>

/** One database, whichever dialect: every difference between SQLite and PostgreSQL stays behind this. */
export interface Database {
  db: Db
  dialect: DatabaseTarget['dialect']
  /**
   * Runs a write plan (src/store/write-plan.ts) in one transaction and answers its result
   * once committed; a plan that throws changes nothing. SQLite: synchronously, inside BEGIN
   * IMMEDIATE, batched with the plans queued in the same tick. PostgreSQL: READ COMMITTED on
   * one connection, the plan made again and rerun when the server aborts the transaction for
   * a deadlock or a serialization failure (so `plan` must build a fresh generator each call).
   */
  write<T>(plan: () => Plan<T>): Promise<T>
  /** Runs a plan of reads outside any transaction, each statement on its own (the hot reads, whose Kysely building cost shows). */
  read<T>(plan: () => Plan<T>): Promise<T>
  /**
   * Runs a plan of reads in one read-only transaction that sees a single committed state
   * throughout, taking no lock a writer waits for. SQLite: a deferred transaction (WAL keeps
   * its snapshot while writers commit). PostgreSQL: REPEATABLE READ, READ ONLY.
   */
  snapshot<T>(plan: () => Plan<T>): Promise<T>
  /** Resolves when the database answers a trivial query within its timeouts. */
  ping(): Promise<void>
  /** True for errors that mean "the database cannot be reached or is out of service right now". */
  isUnavailable(error: unknown): boolean
  /**
   * Makes every write committed so far durable, awaited before any answer is sent: nothing
   * when there is nothing to wait for, else a promise that resolves once it is on disk.
   */
  durable(): void | Promise<void>
  /**
   * A value that differs after any commit by this process or another one that could change
   * seats or holds, so an answer read under one token may be reused while the token stays
   * the same. null when that cannot be told right now: nothing may be reused then.
   */
  changeToken(): string | null
  /**
   * A value that differs after any commit that could have changed an instance's catalog (on
   * SQLite, after any commit at all); null when that cannot be told: the catalog's versions
   * must be read then.
   */
  catalogToken(): string | null
  /** SELECT … FOR UPDATE SKIP LOCKED where the dialect has it, so nodes sweeping at once take disjoint rows. */
  supportsSkipLocked: boolean
  close(): Promise<void>
}

export function openDatabase(target: DatabaseTarget): Database {
  return target.dialect === 'sqlite' ? openSqlite(target.path) : openPostgres(target.url, target.pool)
}
