import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { sql } from 'kysely'
import { Temporal } from 'temporal-polyfill'
import { build, DEFAULT_NOW } from '../helpers/build.ts'
import { addDrillUnits, drillCatalog } from '../helpers/catalog-file.ts'
import type { ManualClock } from '../helpers/manual-clock.ts'

const CAPACITY = 6
const SESSIONS = 4

/** Who a hold's people are: null for party alone (that many adults), else adults, children and infants on a lap (no seat). */
type Mix = { adult: number, child?: number, infant?: number } | null

type Step =
  | { kind: 'hold', session: number, party: number, units: Mix, decoy: boolean }
  | { kind: 'release', session: number }
  | { kind: 'checkout', session: number, decoy: boolean }
  | { kind: 'advance', minutes: number }
  | { kind: 'sweep' }

/** Parties of 1 to 4 people, the drill tour's bound, by party alone or by units. */
const partyAndUnits: fc.Arbitrary<{ party: number, units: Mix }> = fc.oneof(
  fc.integer({ min: 1, max: 4 }).map((party) => ({ party, units: null })),
  fc.record({ adult: fc.integer({ min: 1, max: 4 }), child: fc.integer({ min: 0, max: 3 }), infant: fc.integer({ min: 0, max: 2 }) })
    .filter(({ adult, child, infant }) => adult + child + infant <= 4)
    .map((units) => ({ party: units.adult + units.child + units.infant, units })),
)

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('hold' as const), session: fc.nat(SESSIONS - 1), mix: partyAndUnits, decoy: fc.nat(5).map((n) => n === 0) })
    .map(({ mix, ...hold }) => ({ ...hold, ...mix })) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('release' as const), session: fc.nat(SESSIONS - 1) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('checkout' as const), session: fc.nat(SESSIONS - 1), decoy: fc.nat(5).map((n) => n === 0) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('advance' as const), minutes: fc.integer({ min: 1, max: 20 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('sweep' as const) }) },
)

test('random interleavings of hold (by party or by units), release, checkout and expiry keep seats_taken equal to the live bookings\' seats and within capacity', async (t) => {
  const catalog = drillCatalog(CAPACITY)
  addDrillUnits(catalog)
  const service = await build(t, { catalog })
  const clock = service.clock as ManualClock
  const client = service.client()
  const db = service.context.store.db
  let run = 0

  const checkInvariant = async (context: string) => {
    const rows = await sql<{ start_at: string, capacity: number, seats_taken: number, live: number }>`
      SELECT d.start_at, d.capacity, d.seats_taken,
        (SELECT COALESCE(SUM(b.seats), 0) FROM bookings b
          WHERE b.instance_id = d.instance_id AND b.tour_id = d.tour_id AND b.start_at = d.start_at
            AND b.status IN ('held', 'requested', 'confirmed') AND b.quarantined = 0) AS live
      FROM departures d`.execute(db)
    for (const row of rows.rows) {
      assert.equal(row.seats_taken, Number(row.live), `${context}: seats_taken ${row.seats_taken} but live bookings hold ${row.live} on ${row.start_at}`)
      assert.ok(row.seats_taken <= row.capacity, `${context}: ${row.seats_taken} seats taken of ${row.capacity}`)
    }
  }

  await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
    run++
    clock.set(DEFAULT_NOW)
    // Each run books its own departure, so runs cannot disturb each other's counts.
    const start = Temporal.Instant.from('2026-06-03T09:00:00Z').add({ hours: 24 * run }).toString()
    const sessions = await Promise.all(Array.from({ length: SESSIONS }, () => client.session()))
    for (const [i, s] of steps.entries()) {
      const headers = sessions['session' in s ? s.session : 0].headers
      if (s.kind === 'hold') {
        const res = await client.post('/booking', { tour_id: 'drill-departure', start, party: s.party, ...(s.units ? { units: s.units } : {}), ...(s.decoy ? { website: 'http://spam.example' } : {}) }, { headers })
        assert.ok([200, 409].includes(res.status), `hold answered ${res.status}: ${res.text}`)
      } else if (s.kind === 'release') {
        const res = await client.delete('/booking', { headers })
        assert.ok([200, 404].includes(res.status), `release answered ${res.status}: ${res.text}`)
      } else if (s.kind === 'checkout') {
        const res = await client.post('/checkout', { name: 'Prop Tester', email: 'prop@example.com', ...(s.decoy ? { fax: '123' } : {}) }, { headers: { 'x-session': headers['x-session'] } })
        assert.ok([200, 404, 410].includes(res.status), `checkout answered ${res.status}: ${res.text}`)
      } else if (s.kind === 'advance') {
        clock.advance({ minutes: s.minutes })
      } else {
        await service.context.bookings.sweepLapsedHolds(clock.now())
      }
      await checkInvariant(`run ${run} step ${i} (${s.kind})`)
    }
  }), { numRuns: 60 })
})
