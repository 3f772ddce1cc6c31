/**
 * The promises a booking engine must keep whatever the concurrency, checked in the database
 * after a race run (see race-traffic.ts) against the answers the run received. Plain SQL
 * through Kysely's `sql`, so the same checks read SQLite and PostgreSQL.
 */
import { sql } from 'kysely'
import { canTransition } from '../../src/domain/booking-status.ts'
import { SEATED, type BookingStatus } from '../../src/schemas/booking-status.ts'
import type { Db } from '../../src/store/database.ts'
import { RACE_TOUR } from './race-target.ts'
import { describeAnswers, type RaceAnswer, type RaceRoute, type RaceRun } from './race-traffic.ts'

export type Invariant =
  | 'one held booking per session'
  | 'seats_taken equals the live seats'
  | 'seats within capacity'
  | 'promo uses within max_uses'
  | 'promo uses equal the live bookings carrying the code'
  | 'no 5xx'
  | 'every request answered as openapi.json documents'
  | 'error codes the contract allows for the route'
  | 'one answer per Idempotency-Key'
  | '200 answers agree with the final state'
  | 'state machine never skips a step'
  | 'scenario expectation'

export interface Violation {
  invariant: Invariant
  detail: string
}

/** Figures of what broke, for a drill's table (all 0 when every invariant holds). */
export interface InvariantFigures {
  /** Held bookings beyond the one a session may have. */
  extraHolds: number
  /** Seats sold beyond capacity (by seats_taken or by the live bookings' seats, whichever is more), summed over departures. */
  overCapacity: number
  /** |seats_taken − live bookings' seats|, summed over departures: seats taken or freed twice. */
  seatDrift: number
  /** Promo uses beyond max_uses, summed over codes. */
  promoOveruse: number
  /** 200 answers that the final state contradicts: promises not kept. */
  disagreeing: number
  /** 5xx answers and requests with no valid answer. */
  serverErrors: number
}

export interface InvariantReport {
  violations: Violation[]
  figures: InvariantFigures
}

const SEAT_HOLDING: readonly string[] = SEATED
const CHECKED_OUT = ['requested', 'confirmed', 'completed', 'no_show']
const STATUSES: BookingStatus[] = ['held', 'released', 'expired', 'requested', 'confirmed', 'declined', 'cancelled', 'completed', 'no_show']

/** `to` is `from` or follows from it by steps of the state machine. */
export function reachable(from: BookingStatus, to: BookingStatus): boolean {
  const seen = new Set<BookingStatus>([from])
  const queue = [from]
  while (queue.length > 0) {
    const status = queue.shift()!
    for (const next of STATUSES) {
      if (!seen.has(next) && canTransition(status, next)) {
        seen.add(next)
        queue.push(next)
      }
    }
  }
  return seen.has(to)
}

/**
 * The 4xx codes docs/guest-api.md gives each route for a well-formed request from a live session
 * with its CSRF token (which is all a race run sends): anything else is a bug.
 */
const ALLOWED_ERRORS: Record<RaceRoute, Record<number, string[]>> = {
  'POST /booking': {
    404: ['tour_not_found'],
    409: ['insufficient_capacity', 'idempotency_in_flight'],
    422: ['slot_not_found', 'cutoff_passed', 'party_out_of_range', 'invalid_addon', 'invalid_promo_code', 'date_out_of_range', 'idempotency_key_reused'],
  },
  'DELETE /booking': {
    404: ['no_booking'],
    409: ['cancellation_not_allowed'],
  },
  'POST /checkout': {
    404: ['no_booking'],
    409: ['idempotency_in_flight'],
    410: ['hold_expired'],
    422: ['invalid_promo_code', 'idempotency_key_reused'],
  },
}

/** What a 200 from each route may say the booking became. */
const ANSWERED_STATUSES: Record<RaceRoute, string[]> = {
  'POST /booking': ['held'],
  'POST /checkout': CHECKED_OUT,
  'DELETE /booking': ['released', 'cancelled'],
}

const count = (value: unknown) => Number(value ?? 0)

function inList(values: string[]) {
  return sql.join(values.length > 0 ? values : [''])
}

async function checkHolds(db: Db, run: RaceRun, report: InvariantReport) {
  const rows = await sql<{ session_id: string, n: number | string }>`
    SELECT session_id, COUNT(*) AS n FROM bookings
    WHERE status = 'held' AND session_id IN (${inList(run.sessions.map((s) => s.id))})
    GROUP BY session_id HAVING COUNT(*) > 1`.execute(db)
  for (const row of rows.rows) {
    report.figures.extraHolds += count(row.n) - 1
    report.violations.push({ invariant: 'one held booking per session', detail: `session ${row.session_id} has ${count(row.n)} bookings in held` })
  }
}

async function checkSeats(db: Db, run: RaceRun, report: InvariantReport) {
  const departures = await sql<{ start_at: string, capacity: number, seats_taken: number }>`
    SELECT start_at, capacity, seats_taken FROM departures
    WHERE tour_id = ${RACE_TOUR} AND start_at IN (${inList(run.starts)})`.execute(db)
  // Seats, not people: an infant on a lap counts in party and takes no seat (src/domain/units.ts).
  const live = await sql<{ start_at: string, seats: number | string }>`
    SELECT start_at, SUM(seats) AS seats FROM bookings
    WHERE tour_id = ${RACE_TOUR} AND start_at IN (${inList(run.starts)})
      AND status IN (${sql.join(SEAT_HOLDING)}) AND quarantined = 0
    GROUP BY start_at`.execute(db)
  const liveSeats = new Map(live.rows.map((r) => [r.start_at, count(r.seats)]))
  const taken = new Map(departures.rows.map((d) => [d.start_at, d]))
  for (const start of run.starts) {
    const departure = taken.get(start)
    const seatsTaken = departure ? count(departure.seats_taken) : 0
    const expected = liveSeats.get(start) ?? 0
    if (seatsTaken !== expected) {
      report.figures.seatDrift += Math.abs(seatsTaken - expected)
      report.violations.push({ invariant: 'seats_taken equals the live seats', detail: `departure ${start}: seats_taken ${seatsTaken}, live bookings hold ${expected}` })
    }
    // Both counts: a counter that drifted low lets the live bookings outgrow the departure.
    const sold = Math.max(seatsTaken, expected)
    if (departure && sold > departure.capacity) {
      report.figures.overCapacity += sold - departure.capacity
      report.violations.push({ invariant: 'seats within capacity', detail: `departure ${start}: capacity ${departure.capacity}, seats_taken ${seatsTaken}, live bookings hold ${expected}` })
    }
  }
}

async function checkPromos(db: Db, run: RaceRun, report: InvariantReport) {
  if (run.promos.length === 0) return
  const codes = run.promos.map((p) => p.code)
  const redemptions = await sql<{ code: string, uses: number }>`
    SELECT code, uses FROM promo_redemptions WHERE code IN (${sql.join(codes)})`.execute(db)
  const carried = await sql<{ promo_code: string, n: number | string }>`
    SELECT promo_code, COUNT(*) AS n FROM bookings
    WHERE promo_code IN (${sql.join(codes)}) AND status IN (${sql.join(CHECKED_OUT)}) AND quarantined = 0
    GROUP BY promo_code`.execute(db)
  const uses = new Map(redemptions.rows.map((r) => [r.code, count(r.uses)]))
  const live = new Map(carried.rows.map((r) => [r.promo_code, count(r.n)]))
  for (const { code, maxUses } of run.promos) {
    const counted = uses.get(code) ?? 0
    const booked = live.get(code) ?? 0
    if (counted > maxUses || booked > maxUses) {
      report.figures.promoOveruse += Math.max(counted, booked) - maxUses
      report.violations.push({ invariant: 'promo uses within max_uses', detail: `${code} (max_uses ${maxUses}): promo_redemptions.uses ${counted}, ${booked} requested/confirmed bookings carry it` })
    }
    if (counted !== booked) {
      report.violations.push({ invariant: 'promo uses equal the live bookings carrying the code', detail: `${code}: promo_redemptions.uses ${counted}, but ${booked} requested/confirmed bookings carry it` })
    }
  }
}

function checkAnswerCodes(run: RaceRun, report: InvariantReport) {
  for (const a of run.answers) {
    if (a.status === 0) {
      report.figures.serverErrors++
      report.violations.push({ invariant: 'every request answered as openapi.json documents', detail: `${a.label}: ${a.error}` })
    } else if (a.status >= 500) {
      report.figures.serverErrors++
      report.violations.push({ invariant: 'no 5xx', detail: `${a.label}: ${a.status} ${a.code ?? a.error ?? ''}` })
    } else if (a.status !== 200 && !ALLOWED_ERRORS[a.route][a.status]?.includes(a.code ?? '')) {
      report.violations.push({ invariant: 'error codes the contract allows for the route', detail: `${a.label}: ${a.status} ${a.code ?? a.error ?? ''}` })
    }
  }
}

/** Every answer to one key is the same, save 409 idempotency_in_flight while the first still runs. */
function checkIdempotentRetries(run: RaceRun, report: InvariantReport) {
  const byKey = new Map<string, RaceAnswer[]>()
  for (const a of run.answers) if (a.key) byKey.set(a.key, [...byKey.get(a.key) ?? [], a])
  for (const [key, answers] of byKey) {
    const settled = answers.filter((a) => !(a.status === 409 && a.code === 'idempotency_in_flight'))
    const outcomes = new Set(settled.map((a) => a.status === 200 ? `200 ${a.booking!.id}` : `${a.status} ${a.code}`))
    if (outcomes.size > 1) {
      report.violations.push({ invariant: 'one answer per Idempotency-Key', detail: `key ${key} answered ${[...outcomes].join(' and ')} (${answers.map((a) => a.label).join(', ')})` })
    }
  }
}

interface EventRow {
  id: string
  session_id: string
  status: string
  tour_id: string
  start_at: string
  party: number
  from_status: string | null
  to_status: string | null
  at: string | null
}

/** Each booking's recorded transitions, in the order they chain from creation. */
function checkStateMachine(bookings: Map<string, EventRow[]>, report: InvariantReport) {
  const broken = (id: string, detail: string) => report.violations.push({ invariant: 'state machine never skips a step', detail: `booking ${id}: ${detail}` })
  for (const [id, rows] of bookings) {
    const events = rows.filter((r) => r.to_status !== null)
    const seen = new Set<string>()
    for (const e of events) {
      const step = `${e.from_status ?? '∅'}→${e.to_status}`
      if (seen.has(step)) broken(id, `${step} recorded more than once`)
      seen.add(step)
    }
    // Events are chained by from_status rather than sorted by `at`: `at` is the clock of the
    // request that wrote the event, read before it waited for the database, so under a race
    // (or a test clock that stands still) it does not give the order of the commits.
    let current: string | null = null
    const left = [...events]
    while (left.length > 0) {
      const next = left.filter((e) => e.from_status === current)
      if (next.length !== 1) {
        broken(id, `${next.length} transitions recorded from ${current ?? 'creation'}; events ${events.map((e) => `${e.from_status ?? '∅'}→${e.to_status}@${e.at}`).join(', ')}`)
        break
      }
      const event = next[0]
      left.splice(left.indexOf(event), 1)
      if (current === null ? event.to_status !== 'held' : !canTransition(current as BookingStatus, event.to_status as BookingStatus)) {
        broken(id, `${current ?? 'creation'} → ${event.to_status} is not a step of the state machine`)
      }
      current = event.to_status
    }
    if (left.length === 0 && current !== rows[0].status) broken(id, `last recorded transition ends in ${current ?? 'nothing'}, but the booking is ${rows[0].status}`)
  }
}

/** A 200 promised a state; the booking must be in it now or in a state the machine reaches from it. */
function checkAnswersAgainstFinalState(run: RaceRun, bookings: Map<string, EventRow[]>, report: InvariantReport) {
  const disagree = (a: RaceAnswer, detail: string) => {
    report.figures.disagreeing++
    report.violations.push({ invariant: '200 answers agree with the final state', detail: `${a.label}: ${detail}` })
  }
  for (const a of run.answers) {
    if (a.status !== 200) continue
    const answered = a.booking!
    if (!ANSWERED_STATUSES[a.route].includes(answered.status)) {
      disagree(a, `answered a booking in ${answered.status}; ${a.route} may only answer ${ANSWERED_STATUSES[a.route].join(' or ')}`)
      continue
    }
    const row = bookings.get(answered.id)?.[0]
    if (!row) {
      disagree(a, `answered booking ${answered.id}, which is not among the session's bookings`)
    } else if (row.session_id !== a.session) {
      disagree(a, `answered booking ${answered.id} of session ${row.session_id}`)
    } else if (!reachable(answered.status as BookingStatus, row.status as BookingStatus)) {
      disagree(a, `answered ${answered.status} for booking ${answered.id}, which is now ${row.status} (not reachable from ${answered.status})`)
    } else if (a.asked && (row.start_at !== a.asked.start || row.party !== a.asked.party)) {
      disagree(a, `asked for party ${a.asked.party} at ${a.asked.start}, booking ${answered.id} is party ${row.party} at ${row.start_at}`)
    }
  }
}

/** Checks every invariant for one run; `violations` is empty when all hold. */
export async function checkRaceRun(db: Db, run: RaceRun): Promise<InvariantReport> {
  const report: InvariantReport = {
    violations: run.expectations.map((detail) => ({ invariant: 'scenario expectation' as const, detail })),
    figures: { extraHolds: 0, overCapacity: 0, seatDrift: 0, promoOveruse: 0, disagreeing: 0, serverErrors: 0 },
  }
  await checkHolds(db, run, report)
  await checkSeats(db, run, report)
  await checkPromos(db, run, report)
  checkAnswerCodes(run, report)
  checkIdempotentRetries(run, report)
  const rows = await sql<EventRow>`
    SELECT b.id, b.session_id, b.status, b.tour_id, b.start_at, b.party, e.from_status, e.to_status, e.at
    FROM bookings b LEFT JOIN booking_events e ON e.instance_id = b.instance_id AND e.booking_id = b.id
    WHERE b.session_id IN (${inList(run.sessions.map((s) => s.id))})`.execute(db)
  const bookings = new Map<string, EventRow[]>()
  for (const row of rows.rows) bookings.set(row.id, [...bookings.get(row.id) ?? [], { ...row, party: count(row.party) }])
  checkStateMachine(bookings, report)
  checkAnswersAgainstFinalState(run, bookings, report)
  return report
}

/** A failure message: which invariants broke and how, then every request of the run with its answer. */
export function describeViolations(run: RaceRun, violations: Violation[]): string {
  const byInvariant = new Map<Invariant, string[]>()
  for (const v of violations) byInvariant.set(v.invariant, [...byInvariant.get(v.invariant) ?? [], v.detail])
  const broken = [...byInvariant].map(([invariant, details]) =>
    `BROKEN: ${invariant} (${details.length}×)\n${details.slice(0, 12).map((d) => `  - ${d}`).join('\n')}${details.length > 12 ? `\n  - … ${details.length - 12} more` : ''}`)
  return `${run.name}: ${violations.length} violation${violations.length === 1 ? '' : 's'}\n${broken.join('\n')}\nrequests of the run:\n${describeAnswers(run.answers)}`
}
