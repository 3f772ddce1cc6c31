import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import type { PoolSettings } from '../config/env.ts'
import { CHANGE_CHANNEL, listenForChanges, PLAN_TRANSACTION_SETTING } from './change-token.ts'
import type { Database } from './database.ts'
import type { Tables } from './tables.ts'
import { numberPlaceholders, runPlanAsync, runPlanPipelined, UNFORESEEN_OUTCOME, type Outcome, type Plan, type Statement } from './write-plan.ts'

/** SQLSTATEs after which the same transaction, run again, can succeed. */
const RETRYABLE_STATES = new Set(['40P01', '40001'])
const MAX_ATTEMPTS = 5
/** Socket errors and SQLSTATEs (class 08 connection exception, 57P0x shutdown, 53300 too many connections, 57014 timeout). */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN',
  '57P01', '57P02', '57P03', '53300', '57014'])
/** pg and pg-pool report a lost or timed-out connection by message only. */
const UNAVAILABLE_MESSAGES = /timeout exceeded when trying to connect|Connection terminated|not queryable|Query read timeout|Connection ended/i

function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true
  if (error instanceof AggregateError) return error.errors.some(isUnavailable)
  return UNAVAILABLE_MESSAGES.test(error.message)
}

const statementNames = new Map<string, string>()

/** A name per SQL text, so each connection parses and plans a statement once and then only binds it. */
function preparedName(text: string): string {
  let name = statementNames.get(text)
  if (name === undefined) {
    name = `td${statementNames.size}`
    statementNames.set(text, name)
  }
  return name
}

async function runStatement(client: pg.PoolClient, statement: Statement): Promise<Outcome> {
  const text = statement.portable ? numberPlaceholders(statement.sql) : statement.sql
  const result = await client.query({ name: preparedName(text), text, values: statement.params as unknown[] })
  return { rows: result.rows, changes: result.rowCount ?? 0 }
}

/** A transaction's control statement, in the simple protocol (which takes several statements at once). */
const control = (sql: string): Statement => ({ sql, params: [], portable: false })

/** How a write plan's transaction starts: READ COMMITTED, marked as a plan's (one round trip: the simple protocol takes both statements at once). */
const BEGIN_WRITE = `begin; select set_config('${PLAN_TRANSACTION_SETTING}', 'on', true)`
/** How a snapshot's starts: one view of the committed data for every statement, and no writes. */
const BEGIN_SNAPSHOT = 'begin isolation level repeatable read, read only'

const PIPELINED_WRITE = { begin: control(BEGIN_WRITE), commit: control('commit'), rollback: control('rollback') }

/**
 * How a plan's statements travel: `pipelined`, each round trip carries every statement up to
 * the next outcome the plan waits for (write-plan.ts, runPlanPipelined); `stepwise`, one round
 * trip per statement, every outcome awaited (snapshots, and a write plan run again after an
 * outcome it foresaw did not come).
 */
type Pace = 'pipelined' | 'stepwise'

/** One plan in one transaction on one pooled connection; a connection that failed is discarded, not reused. */
async function runInTransaction<T>(pool: pg.Pool, plan: () => Plan<T>, pace: Pace, begin = BEGIN_WRITE): Promise<T> {
  const client = await pool.connect()
  let broken: Error | undefined
  const send = (statement: Statement) => statement.params.length === 0 && !statement.portable
    ? client.query(statement.sql).then(() => ({ rows: [], changes: 0 }))
    : runStatement(client, statement)
  try {
    if (pace === 'pipelined') {
      // pg writes each statement to the socket by itself; corked until the plan waits, a round
      // trip's statements leave in one write (one system call instead of one per statement,
      // the largest cost of the PostgreSQL write cycles in bench/profile.ts).
      const socket = client.connection.stream
      let corked = false
      return await runPlanPipelined(plan(), {
        send(statement) {
          if (!corked) {
            socket.cork()
            corked = true
          }
          return send(statement)
        },
        waiting() {
          if (corked) {
            corked = false
            socket.uncork()
          }
        },
      }, PIPELINED_WRITE)
    }
    await client.query(begin)
    try {
      const result = await runPlanAsync(plan(), send)
      await client.query('commit')
      return result
    } catch (err) {
      await client.query('rollback').catch((rollbackError: Error) => { broken = rollbackError })
      throw err
    }
  } catch (err) {
    if (isUnavailable(err)) broken = err as Error
    throw err
  } finally {
    client.release(broken)
  }
}

export function openPostgres(url: string, settings: PoolSettings): Database {
  // pg-pool uses one timeout both for opening a connection and for waiting for a free one.
  // Opening must fail fast when the server is gone; waiting behind busy connections under a
  // burst is normal and may take as long as the statements ahead in the queue.
  class ClientWithConnectTimeout extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      // Pipelined: a write plan's statements go out without waiting for each other's answers.
      super({ ...config, connectionTimeoutMillis: settings.connectTimeoutMs, pipeline: true })
    }
  }
  const pool = new pg.Pool({
    Client: ClientWithConnectTimeout,
    connectionString: url,
    max: settings.size,
    connectionTimeoutMillis: settings.connectTimeoutMs + settings.statementTimeoutMs,
    statement_timeout: settings.statementTimeoutMs,
    // The server enforces statement_timeout only while it is reachable; this bounds the wait
    // for an answer that a cut connection will never deliver.
    query_timeout: settings.statementTimeoutMs + settings.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
  })
  // A connection that dies emits 'error' on its client. While the client is idle the pool
  // reports it here and drops it; while it is checked out (inside a transaction) nothing
  // listens, and an unheard 'error' would end the process. The running query fails on its
  // own, the request answers 503, and the pool discards the broken client on release.
  pool.on('error', () => {})
  pool.on('connect', (client) => client.on('error', () => {}))
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) })
  const changes = listenForChanges(url, settings.connectTimeoutMs, () => pool.query(`select pg_notify('${CHANGE_CHANNEL}', '')`))

  return {
    db,
    dialect: 'postgres',
    async write(plan) {
      let pace: Pace = 'pipelined'
      for (let attempt = 1; ; attempt++) {
        try {
          const result = await runInTransaction(pool, plan, pace)
          changes.noteCommit(true)
          return result
        } catch (err) {
          const state = (err as { code?: unknown }).code
          // An outcome the plan foresaw did not come (a race, a seat that did not fit): the
          // plan decides again on the real outcomes, waiting for each.
          if (state === UNFORESEEN_OUTCOME && pace === 'pipelined') {
            pace = 'stepwise'
            attempt--
            continue
          }
          if (attempt >= MAX_ATTEMPTS || typeof state !== 'string' || !RETRYABLE_STATES.has(state)) throw err
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt))
        }
      }
    },
    // Read only: nothing to retry, as no writer can make it fail to serialize.
    snapshot: (plan) => runInTransaction(pool, plan, 'stepwise', BEGIN_SNAPSHOT),
    read: (plan) => runPlanAsync(plan(), async (statement) => {
      const text = statement.portable ? numberPlaceholders(statement.sql) : statement.sql
      const result = await pool.query({ name: preparedName(text), text, values: statement.params as unknown[] })
      return { rows: result.rows, changes: result.rowCount ?? 0 }
    }),
    ping: async () => {
      await sql`select 1`.execute(db)
    },
    isUnavailable,
    changeToken: changes.token,
    catalogToken: changes.catalogToken,
    supportsSkipLocked: true,
    // A commit has returned only once PostgreSQL made it durable (synchronous_commit=on).
    durable: () => {},
    close: async () => {
      await changes.close()
      await db.destroy()
      // Kysely ends the pool only if it ran a query itself; reads and writes go to the pool
      // directly, and a store that made only those would keep its connections until they idle out.
      if (!pool.ending) await pool.end()
    },
  }
}
