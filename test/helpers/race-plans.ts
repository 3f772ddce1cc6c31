import fc from 'fast-check'
import { PROMO_LIMITS, type PromoLimit, type RaceTarget } from './race-target.ts'
import { checkoutBody, describeCounts, freshKey, holdBody, newSessions, send, sendAll, storedStart, type RaceAnswer, type RaceRequest, type RaceRun, type RaceSession, type UnitCounts } from './race-traffic.ts'

/** Where a session stands before the racing batches: made sequentially, so the races start from known states. */
export type SessionStart = 'fresh' | 'held' | 'held with promo' | 'checked out' | 'checked out with promo'

/** How a hold or checkout is sent: without a key, with one, or twice at once with the same key and body (a client retrying). */
export type Sending = 'plain' | 'keyed' | 'twice'

export type RaceOp =
  /** `units` null: a party-only hold (that many adults); else the mix, and `party` the people it counts. */
  | { kind: 'hold', session: number, node: number, departure: number, party: number, units: UnitCounts | null, promo: PromoLimit | null, decoy: boolean, sending: Sending }
  | { kind: 'release', session: number, node: number }
  | { kind: 'checkout', session: number, node: number, decoy: boolean, sending: Sending }

/** What fast-check chooses for one run: the sessions' starting points and batches of requests fired at once. */
export interface RacePlan {
  sessions: SessionStart[]
  batches: RaceOp[][]
}

/** Departures per run: few, so holds, replacements and parties collide on them. */
export const DEPARTURES_PER_RUN = 2
const MAX_SESSIONS = 3

/** Parties of 1 to 4 (the drill tour's bound): adults only by party, or a mix of adults, children and infants on a lap (no seat). */
const partyAndUnits: fc.Arbitrary<{ party: number, units: UnitCounts | null }> = fc.oneof(
  fc.integer({ min: 1, max: 4 }).map((party) => ({ party, units: null })),
  fc.integer({ min: 1, max: 4 }).chain((adult) => fc.integer({ min: 0, max: 4 - adult }).chain((child) =>
    fc.integer({ min: 0, max: Math.min(2, 4 - adult - child) }).map((infant) => ({
      party: adult + child + infant,
      units: Object.fromEntries(Object.entries({ adult, child, infant }).filter(([, n]) => n > 0)) as UnitCounts,
    })))),
)

const sending: fc.Arbitrary<Sending> = fc.constantFrom<Sending>('plain', 'plain', 'keyed', 'twice')
/** One in eight: requests filling a decoy field (quarantined) are a side path, not the main traffic. */
const rare = fc.nat(7).map((n) => n === 0)

function raceOp(sessions: number, nodes: number): fc.Arbitrary<RaceOp> {
  const session = fc.nat(sessions - 1)
  const node = fc.nat(nodes - 1)
  return fc.oneof(
    { weight: 5, arbitrary: fc.record({
      kind: fc.constant('hold' as const), session, node, departure: fc.nat(DEPARTURES_PER_RUN - 1), mix: partyAndUnits,
      promo: fc.constantFrom<PromoLimit | null>(null, null, ...PROMO_LIMITS), decoy: rare, sending,
    }).map(({ mix, ...op }) => ({ ...op, ...mix })) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('release' as const), session, node }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('checkout' as const), session, node, decoy: rare, sending }) },
  )
}

/** One to three sessions (one session means every request hammers it), one or two batches of 2 to 14 concurrent requests. */
export function racePlan(nodes: number): fc.Arbitrary<RacePlan> {
  return fc.integer({ min: 1, max: MAX_SESSIONS }).chain((count) => fc.record({
    sessions: fc.array(fc.constantFrom<SessionStart>('fresh', 'held', 'held with promo', 'checked out', 'checked out with promo'), { minLength: count, maxLength: count }),
    batches: fc.array(fc.array(raceOp(count, nodes), { minLength: 2, maxLength: 14 }), { minLength: 1, maxLength: 2 }),
  }))
}

/** The requests of one op: two for a retried one, with one key and one body, to two nodes where there are two. */
function requestsOf(op: RaceOp, label: string, target: RaceTarget, sessions: RaceSession[], starts: string[], promos: Record<PromoLimit, string>): RaceRequest[] {
  const session = sessions[op.session]
  const client = target.clients[op.node]
  if (op.kind === 'release') return [{ label, route: 'DELETE /booking', session, client }]
  const route = op.kind === 'hold' ? 'POST /booking' as const : 'POST /checkout' as const
  const body = op.kind === 'hold'
    ? holdBody(starts[op.departure], op.party, op.promo === null ? undefined : promos[op.promo], op.decoy, op.units ?? undefined)
    : checkoutBody(op.decoy)
  if (op.sending === 'plain') return [{ label, route, session, client, body }]
  const key = freshKey()
  if (op.sending === 'keyed') return [{ label: `${label} key`, route, session, client, body, key }]
  const other = target.clients[(op.node + 1) % target.clients.length]
  return [
    { label: `${label} key (1 of 2)`, route, session, client, body, key },
    { label: `${label} key (2 of 2)`, route, session, client: other, body, key },
  ]
}

function opLabel(op: RaceOp, batch: number, index: number, promos: Record<PromoLimit, string>): string {
  const at = `b${batch}#${index} s${op.session}@n${op.node}`
  if (op.kind === 'release') return `${at} DELETE /booking`
  if (op.kind === 'checkout') return `${at} POST /checkout${op.decoy ? ' decoy' : ''}`
  return `${at} POST /booking d${op.departure} party ${op.party}${op.units ? ` (${describeCounts(op.units)})` : ''}${op.promo ? ` ${promos[op.promo]}` : ''}${op.decoy ? ' decoy' : ''}`
}

/** Brings one session to its starting point, one request after another, recording every answer. */
async function prepare(target: RaceTarget, session: RaceSession, index: number, start: SessionStart, starts: string[], promo: string): Promise<RaceAnswer[]> {
  if (start === 'fresh') return []
  const client = target.clients[index % target.clients.length]
  const label = `setup s${index}`
  const withPromo = start.endsWith('with promo')
  const hold = await send({ label: `${label} POST /booking d${index % DEPARTURES_PER_RUN} party 1${withPromo ? ` ${promo}` : ''}`,
    route: 'POST /booking', session, client, body: holdBody(starts[index % DEPARTURES_PER_RUN], 1, withPromo ? promo : undefined) })
  if (!start.startsWith('checked out') || hold.status !== 200) return [hold]
  return [hold, await send({ label: `${label} POST /checkout`, route: 'POST /checkout', session, client, body: checkoutBody() })]
}

/**
 * Runs a plan on fresh departures, sessions and promo codes of the target: the setup of
 * each session, then each batch with all its requests in flight at once.
 */
export async function runPlan(target: RaceTarget, plan: RacePlan, name: string): Promise<RaceRun> {
  const starts = await target.takeStarts(DEPARTURES_PER_RUN)
  const promos = { 1: target.takePromo(1), 2: target.takePromo(2) } as Record<PromoLimit, string>
  const sessions = await newSessions(target, plan.sessions.length)
  const answers = (await Promise.all(plan.sessions.map((start, i) => prepare(target, sessions[i], i, start, starts, promos[2])))).flat()
  for (const [b, batch] of plan.batches.entries()) {
    answers.push(...await sendAll(batch.flatMap((op, i) => requestsOf(op, opLabel(op, b, i, promos), target, sessions, starts, promos))))
  }
  return {
    name,
    sessions,
    starts: starts.map(storedStart),
    promos: PROMO_LIMITS.map((maxUses) => ({ code: promos[maxUses], maxUses })),
    answers,
    expectations: [],
  }
}
