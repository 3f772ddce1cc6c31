import { resellerBookingRepository } from './reseller-bookings.ts'
import type { DatabaseTarget } from '../config/env.ts'
import { auditRepository } from './audit.ts'
import { bookingRepository } from './bookings.ts'
import { catalogRepository } from './catalog.ts'
import { departureRepository } from './departures.ts'
import { emailRepository } from './emails.ts'
import { eventRepository } from './events.ts'
import { formRepository } from './forms.ts'
import { openDatabase, type Database } from './database.ts'
import { idempotencyRepository } from './idempotency.ts'
import { leaseRepository } from './leases.ts'
import { migrateToLatest } from './migrations.ts'
import { operatorBookingRepository } from './operator-bookings.ts'
import { promoRedemptionRepository } from './promo-redemptions.ts'
import { sessionRepository } from './sessions.ts'
import { staffRepository } from './staff.ts'
import { webhookRepository } from './webhooks.ts'
import { withEvents } from './write-plan.ts'

/**
 * The database and one repository per aggregate; created once per process.
 *
 * The write model. Every write, guest or operator, follows these rules:
 * 1. A write is a plan (write-plan.ts) run by `write()`: one transaction, its statements
 *    yielded one at a time, its decisions taken from their results. No other code opens a
 *    transaction. SQLite runs a plan synchronously (so nothing interleaves with it) and
 *    batches the plans of one tick into one commit; PostgreSQL runs it under READ COMMITTED,
 *    pipelined (write-plan.ts, runPlanPipelined), and reruns it after a deadlock or
 *    serialization failure, or step by step after an outcome it foresaw did not come.
 * 2. A plan that reads a booking in order to change it first locks the booking's session
 *    (`bookings.lockSession`): on PostgreSQL one session's writes then queue, so what the plan
 *    read stays true until it commits. (Guests' holds, releases and checkouts, and every
 *    operator action on a booking.)
 * 3. A booking's status changes only through `bookings.transition`: the state machine is
 *    checked there, the update is conditional on the status read, and only the rows it
 *    changed are acted on (seats freed, promo uses given back, history written).
 * 4. Counters change only conditionally, in one statement: seats (`seats_taken + n <=
 *    capacity`, departures in key order), promo uses (`uses < max_uses`). A constraint that
 *    fires is a bug, never an answer: the loser of a race gets 404, 409, 410, 412 or 422.
 * 5. The change, its history, its audit entry, its events and its Idempotency-Key answer
 *    commit together. Events are emitted anywhere in a plan (`emit`) and written at its end
 *    (events.ts explains why that gives the feed its commit order).
 */
export interface Store extends Database {
  sessions: ReturnType<typeof sessionRepository>
  bookings: ReturnType<typeof bookingRepository>
  /** The operator's booking queries: finding by code or id, locking, listing, field changes, history. */
  operatorBookings: ReturnType<typeof operatorBookingRepository>
  departures: ReturnType<typeof departureRepository>
  /** The bookings reseller keys made through the OCTo API. */
  resellerBookings: ReturnType<typeof resellerBookingRepository>
  idempotency: ReturnType<typeof idempotencyRepository>
  promoRedemptions: ReturnType<typeof promoRedemptionRepository>
  forms: ReturnType<typeof formRepository>
  staff: ReturnType<typeof staffRepository>
  audit: ReturnType<typeof auditRepository>
  catalog: ReturnType<typeof catalogRepository>
  events: ReturnType<typeof eventRepository>
  leases: ReturnType<typeof leaseRepository>
  webhooks: ReturnType<typeof webhookRepository>
  emails: ReturnType<typeof emailRepository>
}

export interface StoreOptions {
  /** Apply pending migrations before use (default true); safe when several nodes start at once. */
  migrate?: boolean
}

export async function openStore(target: DatabaseTarget, options: StoreOptions = {}): Promise<Store> {
  const database = openDatabase(target)
  try {
    if (options.migrate ?? true) await migrateToLatest(database.db, database.dialect)
  } catch (err) {
    await database.close()
    throw err
  }
  const events = eventRepository(database)
  // Every write, the repositories' own included, writes the events its plan emits.
  const writer: Database = { ...database, write: (plan) => database.write(() => withEvents(plan(), (emitted) => events.append(emitted))) }
  return {
    ...writer,
    events,
    leases: leaseRepository(writer),
    sessions: sessionRepository(writer),
    bookings: bookingRepository(writer),
    operatorBookings: operatorBookingRepository(writer),
    departures: departureRepository(writer),
    resellerBookings: resellerBookingRepository(writer),
    idempotency: idempotencyRepository(writer.db),
    promoRedemptions: promoRedemptionRepository(writer.db),
    forms: formRepository(writer),
    staff: staffRepository(writer),
    audit: auditRepository(writer),
    catalog: catalogRepository(writer),
    webhooks: webhookRepository(writer),
    emails: emailRepository(writer),
  }
}
