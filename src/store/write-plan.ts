import type { CompiledQuery } from 'kysely'
import type { NewEvent } from './events.ts'

/**
 * The write model (see src/store/store.ts for the rules every write follows).
 *
 * A write is a plan: a generator that yields the statements of one transaction, one at a
 * time, and receives each statement's outcome before it yields the next. The plan holds
 * the decisions (what to change, whether a change happened, which answer to give); the
 * dialect runs the statements. SQLite runs a plan synchronously, start to commit in one
 * tick of the event loop, together with the other plans that arrived in the same tick. On
 * PostgreSQL a statement the plan can foresee the outcome of (`foreseen`) is sent on
 * without waiting for its answer, and the statements it waits for end a round trip, so a
 * plan costs as many round trips as the outcomes it needs to decide (see runPlanPipelined).
 * So the same code decides on both databases, and neither has to hold a connection across
 * unrelated work.
 */
export interface Statement {
  sql: string
  params: readonly unknown[]
  /** SQL written with `?` placeholders, to be numbered for PostgreSQL; compiled Kysely queries are already in the dialect's form. */
  portable: boolean
  /** The outcome the plan can go on with before the answer comes, and how the database checks it (Foreseen). */
  foreseen?: Foreseen
}

/**
 * A statement's outcome as the plan foresees it. `sql` and `params` are the statement written
 * so that the database fails the transaction (SQLSTATE UNFORESEEN_OUTCOME) when the outcome is
 * not `outcome` in every respect the plan uses; left out, the plan uses nothing of the
 * outcome (a lock, a write whose failure is an error anyway) and the statement runs as it is.
 */
export interface Foreseen {
  outcome: Outcome
  sql?: string
  params?: readonly unknown[]
}

/**
 * The SQLSTATE of `tourdesk_expect(false)` (migration 024): a foreseen outcome did not come.
 * The transaction is rolled back and the plan run again, waiting for every outcome.
 */
export const UNFORESEEN_OUTCOME = 'TD001'

export interface Outcome<R = Record<string, unknown>> {
  rows: R[]
  /** Rows inserted, updated or deleted. */
  changes: number
}

/** An event the plan reports (docs/events-and-webhooks.md, "Events"): kept aside and written at the plan's end, in its transaction (withEvents). */
export interface Emission {
  event: NewEvent
}

export type Plan<T> = Generator<Statement | Emission, T, Outcome<any>>

const NOTHING: Outcome = { rows: [], changes: 0 }

/** Reports an event from inside a plan; it commits with the plan's changes, or not at all. */
export function* emit(event: NewEvent): Plan<void> {
  yield { event }
}

/**
 * Runs `plan`, keeping the events it emits, and writes them at its end with `append`, after
 * every other statement: the event sequence's row lock (PostgreSQL) is then held only from
 * there to the commit, and taken after every other lock of the plan.
 */
export function* withEvents<T>(plan: Plan<T>, append: (events: NewEvent[]) => Plan<void>): Plan<T> {
  const events: NewEvent[] = []
  let step = plan.next()
  while (!step.done) {
    if ('event' in step.value) {
      events.push(step.value.event)
      step = plan.next(NOTHING)
    } else {
      step = plan.next(yield step.value)
    }
  }
  if (events.length > 0) yield* append(events)
  return step.value
}

function statementOf(step: Statement | Emission): Statement {
  if ('event' in step) throw new Error(`event ${step.event.type} emitted outside store.write(), which writes events`)
  return step
}

/** Part of a change's plan, given the answer, so the answer and the change commit together (idempotent requests keep it). */
export type RecordAnswer<T> = (answer: T) => Plan<void>

/** Runs one statement of portable SQL (`?` placeholders). */
export function* statement<R = Record<string, unknown>>(sql: string, params: readonly unknown[], foreseen?: Foreseen): Generator<Statement, Outcome<R>, Outcome<R>> {
  return yield foreseen === undefined ? { sql, params, portable: true } : { sql, params, portable: true, foreseen }
}

/** The foreseen outcome of a statement whose outcome the plan does not use. */
export const UNUSED: Foreseen = { outcome: NOTHING }

/** A data-changing statement (with `returning`) in the form that fails the transaction unless it changed exactly `count` rows. */
export const changingExactly = (sql: string, count: number) => `with changed as (${sql}) select tourdesk_expect(count(*) = ${count}) from changed`

/** Runs a query built with the store's Kysely instance (for the colder paths, where building cost does not matter). */
export function* compiled<R = Record<string, unknown>>(query: { compile(): CompiledQuery<unknown> }): Generator<Statement, Outcome<R>, Outcome<R>> {
  const { sql, parameters } = query.compile()
  return yield { sql, params: parameters, portable: false }
}

/**
 * Runs a plan to its end with a synchronous statement runner (SQLite). A throw inside the
 * plan, or from a statement, propagates to the caller, who rolls the transaction back.
 */
export function runPlanSync<T>(plan: Plan<T>, run: (statement: Statement) => Outcome): T {
  let step = plan.next()
  while (!step.done) step = plan.next(run(statementOf(step.value)))
  return step.value
}

/** Runs a plan with an asynchronous statement runner, one statement after the other, each outcome awaited. */
export async function runPlanAsync<T>(plan: Plan<T>, run: (statement: Statement) => Promise<Outcome>): Promise<T> {
  let step = plan.next()
  while (!step.done) step = plan.next(await run(statementOf(step.value)))
  return step.value
}

/**
 * Runs a plan on a connection that pipelines (PostgreSQL): statements are sent without waiting
 * for the answers to the ones before them. A foreseen statement is sent in its checking form
 * and the plan goes on with the foreseen outcome at once; any other statement is sent and
 * waited for, with everything before it: a round trip. `begin` goes out with the first
 * statements and `commit` with the last, so a plan that waits for one outcome takes two round
 * trips. A statement that fails (an unforeseen outcome included) fails the transaction, and
 * its error is thrown here, before the plan is told anything that came after it; if the plan
 * throws, `rollback` is sent instead of `commit`.
 */
export async function runPlanPipelined<T>(plan: Plan<T>, connection: PipelinedConnection,
  control: { begin: Statement, commit: Statement, rollback: Statement }): Promise<T> {
  const sent: Array<Promise<unknown>> = []
  const send = (statement: Statement) => sent.push(connection.send(statement))
  const settle = async () => {
    connection.waiting()
    const results = await Promise.allSettled(sent.splice(0))
    // The first failure; the statements after it only failed with it.
    const failed = results.find((result) => result.status === 'rejected')
    if (failed) throw failed.reason
    return results
  }
  send(control.begin)
  try {
    let step = plan.next()
    while (!step.done) {
      const next = statementOf(step.value)
      const { foreseen } = next
      if (foreseen) {
        send(foreseen.sql === undefined ? next : { ...next, sql: foreseen.sql, params: foreseen.params ?? next.params })
        step = plan.next(foreseen.outcome)
        continue
      }
      send(next)
      const results = await settle()
      step = plan.next((results[results.length - 1] as PromiseFulfilledResult<Outcome>).value)
    }
    send(control.commit)
    await settle()
    return step.value
  } catch (err) {
    // The rollback goes behind whatever is still on the wire; the error of a statement sent
    // before the plan threw explains the throw (it decided on an outcome that did not come).
    send(control.rollback)
    await settle()
    throw err
  }
}

/** Where runPlanPipelined sends: `send` queues a statement, `waiting` puts everything queued on the wire at once. */
export interface PipelinedConnection {
  send(statement: Statement): Promise<Outcome>
  waiting(): void
}

const numbered = new Map<string, string>()

/** `?` placeholders as PostgreSQL's `$1, $2, …` (none of our portable SQL has a `?` inside a literal). */
export function numberPlaceholders(sql: string): string {
  let text = numbered.get(sql)
  if (text === undefined) {
    let n = 0
    text = sql.replace(/\?/g, () => `$${++n}`)
    numbered.set(sql, text)
  }
  return text
}
