import { sql } from 'kysely'
import { Temporal } from 'temporal-polyfill'
import { NOT_RESOLD, type BookingRecord } from '../src/domain/booking.ts'
import { toStoredInstant } from '../src/domain/instant-format.ts'
import { expandSchedule } from '../src/domain/schedule.ts'
import type { BookingStatus } from '../src/schemas/booking-status.ts'
import type { Store } from '../src/store/store.ts'
import { compiled } from '../src/store/write-plan.ts'
import {
  BENCH_REF, BENCH_TIME_ZONE, DAILY_TIMES, HOLD_TOUR, HOLD_TOUR_CAPACITY, MEASURED_TOUR, MEASURED_TOUR_CAPACITY, OTHER_TOUR_CAPACITY,
} from './catalog.ts'

/**
 * Bookings written straight through the store, as years of trading would leave them.
 *
 * The measured tour gets the same bookings in the measured window (the days from
 * `windowStart`) at every size, so the only difference between a small and a large
 * database is what lies outside that window and on other tours: a read whose time grows
 * with the database is scanning rows it should not.
 */
export interface SeedPlan {
  bookings: number
  tours: number
  /** Today in the bench catalog's zone. */
  today: Temporal.PlainDate
  now: Temporal.Instant
  /** First local date of the window availability is measured on, and its length. */
  windowStart: Temporal.PlainDate
  windowDays: number
}

/** Bookings on every departure of the measured tour inside the window. */
const BOOKINGS_PER_WINDOW_DEPARTURE = 8
/** Share of the other bookings that go to the measured tour, outside its window. */
const MEASURED_TOUR_SHARE = 0.1
/** Bookings are spread over this many days before and after today. */
const SPREAD_DAYS = 365
// 500 rows of 43 columns (price categories and resellers added six to 37) stay under SQLite's
// 32,766 bound parameters per statement, with room for a few more columns.
const ROWS_PER_INSERT = 500
const INSERTS_PER_TRANSACTION = 12
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRTUVWXYZ2346789'
const DAY_MS = 86_400_000

const FUTURE_STATUSES = [['confirmed', 0.6], ['requested', 0.1], ['cancelled', 0.1], ['released', 0.1], ['expired', 0.1]] as const
const PAST_STATUSES = [['completed', 0.8], ['no_show', 0.05], ['cancelled', 0.15]] as const
const CHECKED_OUT = new Set(['requested', 'confirmed', 'completed', 'no_show', 'cancelled'])

/** A small deterministic generator (mulberry32), so every run seeds the same database. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

function pick<T extends string>(weights: readonly (readonly [T, number])[], r: number): T {
  let sum = 0
  for (const [value, weight] of weights) {
    sum += weight
    if (r < sum) return value
  }
  return weights[weights.length - 1][0]
}

/** A unique booking code per seeded booking, in the service's alphabet. */
function bookingCode(index: number): string {
  let code = ''
  for (let n = index, i = 0; i < 6; i++, n = Math.floor(n / CODE_ALPHABET.length)) code += CODE_ALPHABET[n % CODE_ALPHABET.length]
  return code
}

function tourId(index: number): string {
  return `tour-${String(index).padStart(5, '0')}`
}

/** Start instants (epoch ms) of every daily departure from `first` for `days` days. */
function dailyStarts(first: Temporal.PlainDate, days: number): number[] {
  const tour = { schedule: [{ from: '0001-01-01', until: '9999-12-31', weekdays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as never[], times: DAILY_TIMES }], blackouts: [], duration_minutes: 60 }
  return expandSchedule(tour, BENCH_TIME_ZONE, first, days).map((d) => d.start.epochMilliseconds)
}

/** How many bookings each tour gets: the window's, a fixed share outside it, the rest spread evenly. */
function bookingsPerTour(plan: SeedPlan, windowBookings: number): number[] {
  const rest = Math.max(0, plan.bookings - windowBookings)
  const counts = new Array<number>(plan.tours).fill(0)
  const measuredExtra = plan.tours === 1 ? rest : Math.round(rest * MEASURED_TOUR_SHARE)
  counts[0] = Math.min(plan.bookings, windowBookings) + measuredExtra
  const others = rest - measuredExtra
  for (let i = 1; i < plan.tours; i++) counts[i] = Math.floor(others / (plan.tours - 1)) + (i - 1 < others % (plan.tours - 1) ? 1 : 0)
  return counts
}

const SEED_POLICY = JSON.stringify({ id: 'flexible-48', version: 3, tiers: [{ hours_before_start: 48, fee_percent: 0 }], no_show_fee_percent: 100 })

function bookingRow(index: number, tour: number, startMs: number, party: number, status: BookingStatus, nowMs: number): BookingRecord {
  const start = new Date(startMs).toISOString()
  const createdMs = Math.min(startMs - 7 * DAY_MS, nowMs - DAY_MS)
  const created = new Date(createdMs).toISOString()
  const checkedOut = CHECKED_OUT.has(status)
  const subtotal = 1900 * party
  return {
    id: `seed-${String(index).padStart(8, '0')}`,
    instance_id: BENCH_REF,
    session_id: `s${index.toString(36).padStart(11, '0')}`,
    tour_id: tourId(tour),
    start_at: start,
    end_at: new Date(startMs + 150 * 60_000).toISOString(),
    party,
    seats: party,
    units: JSON.stringify([{ id: 'person', type: 'adult', name: 'Person', quantity: party, amount: subtotal }]),
    status,
    quarantined: 0,
    addons: '[]',
    promo_code: null,
    referral_code: null,
    currency: 'EUR',
    subtotal,
    addons_total: 0,
    discount: 0,
    total: subtotal,
    hold_expires_at: null,
    code: checkedOut ? bookingCode(index) : null,
    contact_name: checkedOut ? 'Bench Guest' : null,
    contact_email: checkedOut ? `guest${index}@example.com` : null,
    contact_phone: checkedOut ? '+351912345678' : null,
    cancellable_until: start,
    cancellation_fee_percent: status === 'cancelled' ? 0 : null,
    cancellation_fee: status === 'cancelled' ? 0 : null,
    cancelled_at: status === 'cancelled' ? new Date(createdMs + DAY_MS).toISOString() : null,
    created_at: created,
    updated_at: created,
    version: 1,
    channel: 'web',
    policy: SEED_POLICY,
    checked_in_at: status === 'completed' ? start : null,
    internal_note: null,
    decline_reason: null,
    cancelled_by: status === 'cancelled' ? 'guest' : null,
    cancellation_reason: null,
    fee_waived: null,
    ...NOT_RESOLD,
    // As a booking made before bookings kept their language: read as the tour's first.
    language: null,
  }
}

/** Every seeded booking, tour by tour and in start order within a tour, so index inserts stay mostly sequential. */
function* seededBookings(plan: SeedPlan): Generator<BookingRecord> {
  const rng = random(7)
  const nowMs = plan.now.epochMilliseconds
  const windowStarts = dailyStarts(plan.windowStart, plan.windowDays)
  const windowFirst = windowStarts[0]
  const windowEnd = plan.windowStart.add({ days: plan.windowDays }).toZonedDateTime(BENCH_TIME_ZONE).epochMilliseconds
  const spread = dailyStarts(plan.today.subtract({ days: SPREAD_DAYS }), 2 * SPREAD_DAYS)
  const outsideWindow = spread.filter((ms) => ms < windowFirst || ms >= windowEnd)
  const windowBookings = windowStarts.length * BOOKINGS_PER_WINDOW_DEPARTURE
  let index = 0
  for (const [tour, count] of bookingsPerTour(plan, windowBookings).entries()) {
    const starts: number[] = []
    if (tour === 0) {
      for (const ms of windowStarts) for (let k = 0; k < BOOKINGS_PER_WINDOW_DEPARTURE && starts.length < count; k++) starts.push(ms)
    }
    const pool = tour === 0 ? outsideWindow : spread
    while (starts.length < count) starts.push(pool[Math.floor(rng() * pool.length)])
    starts.sort((a, b) => a - b)
    for (const startMs of starts) {
      const status = startMs < nowMs ? pick(PAST_STATUSES, rng()) : pick(FUTURE_STATUSES, rng())
      yield bookingRow(index++, tour, startMs, 1 + Math.floor(rng() * 4), status, nowMs)
    }
  }
}

/**
 * Writes plan.bookings bookings and, from them, the departures rows whose seats_taken is
 * the sum of their requested and confirmed parties, as the service keeps it. No holds are
 * seeded, so the service's sweep has nothing to write while it is measured.
 */
export async function seedBookings(store: Store, plan: SeedPlan): Promise<void> {
  if (toStoredInstant(plan.now) !== new Date(plan.now.epochMilliseconds).toISOString()) {
    throw new Error('the seed writes instants as Date#toISOString, which no longer matches the store format')
  }
  const rows = seededBookings(plan)
  for (let done = false; !done;) {
    await store.write(function* () {
      for (let i = 0; i < INSERTS_PER_TRANSACTION; i++) {
        const batch: BookingRecord[] = []
        for (let next = rows.next(); !next.done; next = rows.next()) {
          batch.push(next.value)
          if (batch.length === ROWS_PER_INSERT) break
        }
        if (batch.length > 0) yield* compiled(store.db.insertInto('bookings').values(batch))
        if (batch.length < ROWS_PER_INSERT) {
          done = true
          return
        }
      }
    })
  }
  await store.db.insertInto('departures')
    .columns(['instance_id', 'tour_id', 'start_at', 'capacity', 'seats_taken'])
    .expression(store.db.selectFrom('bookings')
      .select(['instance_id', 'tour_id', 'start_at'])
      .select(sql<number>`case tour_id when ${MEASURED_TOUR} then ${sql.lit(MEASURED_TOUR_CAPACITY)} when ${HOLD_TOUR} then ${sql.lit(HOLD_TOUR_CAPACITY)} else ${sql.lit(OTHER_TOUR_CAPACITY)} end`.as('capacity'))
      .select(sql<number>`sum(case when status in ('requested', 'confirmed') then party else 0 end)`.as('seats_taken'))
      .where('instance_id', '=', BENCH_REF)
      .groupBy(['instance_id', 'tour_id', 'start_at']))
    .execute()
  // What autovacuum would do soon after such a load, done now so that it does not start in the middle of a measurement.
  if (store.dialect === 'postgres') await sql`vacuum analyze bookings, departures`.execute(store.db)
}
