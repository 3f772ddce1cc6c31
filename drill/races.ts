import fc from 'fast-check'
import { checkRaceRun, type Invariant } from '../test/helpers/booking-invariants.ts'
import { racePlan, runPlan } from '../test/helpers/race-plans.ts'
import { hoardingRace, promoCancelStormRace, promoRushRace, releaseStormRace, releaseVersusCheckoutRace } from '../test/helpers/race-scenarios.ts'
import { clusterTarget, RACE_CAPACITY, type RaceTarget } from '../test/helpers/race-target.ts'
import type { RaceRun } from '../test/helpers/race-traffic.ts'
import { emptyOutcome, type DrillOutcome } from './outcome.ts'

/** Examples of each broken invariant kept for the report; the count says how many there were. */
const EXAMPLES_PER_INVARIANT = 3

export interface RacesOptions {
  title: string
  /** PostgreSQL to make the drill's schema in, or null for one SQLite file. */
  postgresUrl: string | null
  nodes: number
  /** Rounds of the scripted races of issue 12. */
  rounds: number
  /** Random batches (as the property test makes them) after the scripted races. */
  mixedRuns: number
}

/** The scripted races of one round, in the order they run. */
const SCRIPTED: { name: string, race: (target: RaceTarget) => Promise<RaceRun> }[] = [
  { name: 'hoarding', race: (t) => hoardingRace(t, 25, 5) },
  { name: 'release storm', race: (t) => releaseStormRace(t, 10) },
  { name: 'release vs checkout', race: (t) => releaseVersusCheckoutRace(t, 10) },
  { name: 'promo rush', race: (t) => promoRushRace(t, 20) },
  { name: 'promo cancel storm', race: (t) => promoCancelStormRace(t, 10) },
]

/**
 * Bursts of concurrent requests over several nodes on one database: the four races issue
 * 12 saw break on PostgreSQL (one session hoarding holds, a storm of releases, release
 * against checkout, a promo code rushed at its limit, and its use given back twice), then
 * random mixed batches. After each burst the database is checked against every answer
 * (test/helpers/booking-invariants.ts): a broken promise counts as lost, an extra hold,
 * seats counted twice or a promo overspent as duplicated, and any 5xx as a failure.
 */
export async function racesDrill(options: RacesOptions): Promise<DrillOutcome> {
  const outcome = emptyOutcome(options.title, options.postgresUrl ? 'PostgreSQL' : 'SQLite')
  const broken = new Map<Invariant, string[]>()
  const answered = new Map<string, number>()
  let bursts = 0
  const check = async (target: RaceTarget, run: RaceRun) => {
    bursts++
    outcome.attempted += run.answers.length
    for (const a of run.answers) {
      const key = a.status === 200 ? '200' : a.status === 0 ? 'no valid answer' : `${a.status} ${a.code ?? ''}`.trim()
      answered.set(key, (answered.get(key) ?? 0) + 1)
      if (a.status === 200) outcome.acknowledged++
    }
    const { violations, figures } = await checkRaceRun(target.db, run)
    outcome.lost += figures.disagreeing
    outcome.duplicated += figures.extraHolds + figures.seatDrift + figures.promoOveruse
    outcome.overCapacity += figures.overCapacity
    for (const v of violations) broken.set(v.invariant, [...broken.get(v.invariant) ?? [], `${run.name}: ${v.detail}`])
  }

  const target = await clusterTarget(options.nodes, options.postgresUrl)
  const began = performance.now()
  const seed = Date.now() % 2 ** 31
  try {
    for (let round = 0; round < options.rounds; round++) {
      for (const { name, race } of SCRIPTED) await check(target, { ...await race(target), name: `round ${round + 1} ${name}` })
    }
    const plans = fc.sample(racePlan(options.nodes), { seed, numRuns: options.mixedRuns })
    for (const [i, plan] of plans.entries()) await check(target, await runPlan(target, plan, `mixed batch ${i + 1}`))
  } finally {
    await target.close()
  }

  for (const [invariant, details] of broken) {
    outcome.failures.push(`${invariant}: broken ${details.length}×, e.g. ${details.slice(0, EXAMPLES_PER_INVARIANT).join('; ')}`)
  }
  outcome.notes.push(
    `${options.nodes} nodes on one ${outcome.database} database, capacity ${RACE_CAPACITY} per departure; ${options.rounds} round${options.rounds === 1 ? '' : 's'} of ${SCRIPTED.map((s) => s.name).join(', ')}, then ${options.mixedRuns} random mixed runs (fast-check seed ${seed}); ${bursts} bursts in ${((performance.now() - began) / 1000).toFixed(1)} s`,
    `answers: ${[...answered].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n} × ${k}`).join(', ')}`,
    `lost counts 200 answers the final state contradicts; duplicated counts held bookings beyond one per session, seats counted or freed twice and promo uses beyond max_uses`,
  )
  return outcome
}
