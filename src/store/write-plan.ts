import type { CompiledQuery } from 'kysely'
import type { NewEvent } from './events.ts'

/**
 * The write model (see src/store/store.ts for the rules every write follows).
 *
 * A write is a plan: a generator that yields the statements of one transaction, one at a
 * time, and receives each statement's outcome before it yields the next. The plan holds
 * the decisions (what to change, whether a change happened, which answer to give); the
 * dialect runs the statements. SQLite runs a plan synchronously, start to commit in one
 * tick of the event loop, together with the other plans that arrived in the same tick; on
 * PostgreSQL each statement is a round trip on one pooled connection. So the same code
 * decides on both databases, and neither has to hold a connection across unrelated work.
 */
export interface Statement {
  sql: string
  params: readonly unknown[]
  /** SQL written with `?` placeholders, to be numbered for PostgreSQL; compiled Kysely queries are already in the dialect's form. */
  portable: boolean
}

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
export function* statement<R = Record<string, unknown>>(sql: string, params: readonly unknown[]): Generator<Statement, Outcome<R>, Outcome<R>> {
  return yield { sql, params, portable: true }
}

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

/** Runs a plan with an asynchronous statement runner (PostgreSQL): one round trip per statement. */
export async function runPlanAsync<T>(plan: Plan<T>, run: (statement: Statement) => Promise<Outcome>): Promise<T> {
  let step = plan.next()
  while (!step.done) step = plan.next(await run(statementOf(step.value)))
  return step.value
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
