import { sql } from 'kysely'
import { SEATED } from '../src/schemas/booking-status.ts'
import type { Db } from '../src/store/database.ts'

/** What the database says after a drill, checked against what the service acknowledged. */
export interface LedgerCheck {
  /** Acknowledged bookings missing, or not in a state the acknowledgement promised. */
  lost: number
  /** Sessions holding more than one booking although each sent one request. */
  duplicated: number
  /** Seats taken beyond capacity, summed over departures. */
  overCapacity: number
  /** Departures whose seats_taken differs from the parties of their live bookings. */
  seatMismatches: string[]
}

export interface Acknowledged {
  bookingId: string
  /** The statuses the acknowledged answer allows now, e.g. ['held'] for a hold. */
  statuses: readonly string[]
}

/** Large `in` lists are split so neither SQLite's nor PostgreSQL's parameter limit is reached. */
function chunks<T>(items: T[], size = 500): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

export async function countLost(db: Db, acknowledged: Acknowledged[]): Promise<number> {
  const status = new Map<string, string>()
  for (const part of chunks(acknowledged.map((a) => a.bookingId))) {
    if (part.length === 0) continue
    for (const row of await db.selectFrom('bookings').select(['id', 'status']).where('id', 'in', part).execute()) status.set(row.id, row.status)
  }
  return acknowledged.filter((a) => !a.statuses.includes(status.get(a.bookingId) ?? 'missing')).length
}

export async function countDuplicateSessions(db: Db, sessionIds: string[]): Promise<number> {
  let duplicated = 0
  for (const part of chunks(sessionIds)) {
    if (part.length === 0) continue
    const rows = await db.selectFrom('bookings').select(['session_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('session_id', 'in', part).groupBy('session_id').having(sql`count(*)`, '>', 1).execute()
    duplicated += rows.reduce((sum, row) => sum + Number(row.n) - 1, 0)
  }
  return duplicated
}

/** Capacity and the seat counter of every departure of a tour, against the parties of its live bookings. */
export async function checkSeats(db: Db, tourId: string): Promise<Pick<LedgerCheck, 'overCapacity' | 'seatMismatches'>> {
  const departures = await db.selectFrom('departures').select(['start_at', 'capacity', 'seats_taken']).where('tour_id', '=', tourId).execute()
  const live = await db.selectFrom('bookings')
    .select(['start_at', (eb) => eb.fn.sum<number>('party').as('seats')])
    .where('tour_id', '=', tourId).where('quarantined', '=', 0).where('status', 'in', [...SEATED])
    .groupBy('start_at').execute()
  const liveSeats = new Map(live.map((row) => [row.start_at, Number(row.seats)]))
  let overCapacity = 0
  const seatMismatches: string[] = []
  for (const d of departures) {
    overCapacity += Math.max(0, d.seats_taken - d.capacity)
    const expected = liveSeats.get(d.start_at) ?? 0
    if (d.seats_taken !== expected) seatMismatches.push(`${d.start_at}: seats_taken ${d.seats_taken}, live parties ${expected}`)
  }
  return { overCapacity, seatMismatches }
}

export async function checkLedger(db: Db, tourId: string, acknowledged: Acknowledged[], sessionIds: string[]): Promise<LedgerCheck> {
  return {
    lost: await countLost(db, acknowledged),
    duplicated: await countDuplicateSessions(db, sessionIds),
    ...await checkSeats(db, tourId),
  }
}
