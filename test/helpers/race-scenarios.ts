/**
 * The races of issue 12's four defects (the promo one by two roads), scripted: each fires
 * its requests at once over the target's nodes in turn and returns the run for the
 * invariant checks, with what the contract expects of this particular race that the
 * general invariants do not say.
 */
import { sql } from 'kysely'
import { RACE_TOUR, type RaceTarget } from './race-target.ts'
import { checkoutBody, describeCounts, holdBody, newSessions, send, sendAll, storedStart, type RaceAnswer, type RaceRequest, type RaceRun, type RaceSession } from './race-traffic.ts'

const nodeOf = (target: RaceTarget, i: number) => target.clients[i % target.clients.length]

/**
 * Holds `sessions[i]` on `starts[i % starts.length]` (party 1), a few at a time; throws if
 * one is refused, as the race could not start. Labels count sessions from `firstIndex`.
 */
async function holdEach(target: RaceTarget, sessions: RaceSession[], starts: string[], promo?: string, firstIndex = 0): Promise<RaceAnswer[]> {
  const answers: RaceAnswer[] = []
  for (let i = 0; i < sessions.length; i += 8) {
    answers.push(...await sendAll(sessions.slice(i, i + 8).map((session, j) => ({
      label: `setup s${firstIndex + i + j} POST /booking d${(i + j) % starts.length}${promo ? ` ${promo}` : ''}`,
      route: 'POST /booking' as const, session, client: nodeOf(target, i + j), body: holdBody(starts[(i + j) % starts.length], 1, promo),
    }))))
  }
  const refused = answers.filter((a) => a.status !== 200)
  if (refused.length > 0) throw new Error(`setup holds refused: ${refused.map((a) => `${a.label} ${a.status} ${a.code ?? a.error}`).join('; ')}`)
  return answers
}

function run(name: string, sessions: RaceSession[], starts: string[], answers: RaceAnswer[], expectations: string[], promos: RaceRun['promos'] = []): RaceRun {
  return { name, sessions, starts: starts.map(storedStart), promos, answers, expectations }
}

const tally = (answers: RaceAnswer[]) => {
  const counts = new Map<string, number>()
  for (const a of answers) {
    const key = a.status === 200 ? `200 ${a.booking!.status}` : `${a.status} ${a.code ?? a.error ?? ''}`
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return [...counts].map(([k, n]) => `${n} × ${k}`).join(', ')
}

/** Defect 1 (hoarding): one session sends `holds` holds at once over `departures` departures. At most one may stay held. */
export async function hoardingRace(target: RaceTarget, holds = 25, departures = 5): Promise<RaceRun> {
  const starts = await target.takeStarts(departures)
  const [session] = await newSessions(target, 1)
  const answers = await sendAll(Array.from({ length: holds }, (_, i): RaceRequest => ({
    label: `#${i} @n${i % target.clients.length} POST /booking d${i % departures}`,
    route: 'POST /booking', session, client: nodeOf(target, i), body: holdBody(starts[i % departures], 1),
  })))
  const expectations: string[] = []
  if (!answers.some((a) => a.status === 200)) expectations.push(`no hold of the ${holds} was acknowledged (${tally(answers)})`)
  return run('hoarding: concurrent holds from one session', [session], starts, answers, expectations)
}

/** Defect 2 (500s): `deletes` DELETE /booking at once on one hold. One releases it; the others find no booking. */
export async function releaseStormRace(target: RaceTarget, deletes = 10): Promise<RaceRun> {
  const starts = await target.takeStarts(1)
  const sessions = await newSessions(target, 1)
  const setup = await holdEach(target, sessions, starts)
  const answers = await sendAll(Array.from({ length: deletes }, (_, i): RaceRequest => ({
    label: `#${i} @n${i % target.clients.length} DELETE /booking`, route: 'DELETE /booking', session: sessions[0], client: nodeOf(target, i),
  })))
  const released = answers.filter((a) => a.status === 200 && a.booking!.status === 'released').length
  const notFound = answers.filter((a) => a.status === 404 && a.code === 'no_booking').length
  const expectations = released === 1 && notFound === deletes - 1 ? []
    : [`expected 1 × 200 released and ${deletes - 1} × 404 no_booking, got ${tally(answers)}`]
  return run('release storm: concurrent DELETE /booking of one hold', sessions, starts, [...setup, ...answers], expectations)
}

/**
 * Defect 3 (answers that disagree): on each of `pairs` holds, DELETE /booking and POST
 * /checkout at once. Either the release wins (200 released, then 404 no_booking) or the
 * checkout does (200 confirmed, then the DELETE cancels it: 200 cancelled).
 */
export async function releaseVersusCheckoutRace(target: RaceTarget, pairs = 10): Promise<RaceRun> {
  const starts = await target.takeStarts(Math.ceil(pairs / 4))
  const sessions = await newSessions(target, pairs)
  const setup = await holdEach(target, sessions, starts)
  const answers = await sendAll(sessions.flatMap((session, i): RaceRequest[] => [
    { label: `s${i}@n${i % target.clients.length} DELETE /booking`, route: 'DELETE /booking', session, client: nodeOf(target, i) },
    { label: `s${i}@n${(i + 1) % target.clients.length} POST /checkout`, route: 'POST /checkout', session, client: nodeOf(target, i + 1), body: checkoutBody() },
  ]))
  const expectations: string[] = []
  sessions.forEach((_, i) => {
    const [release, checkout] = [answers[2 * i], answers[2 * i + 1]]
    const pair = `${release.status} ${release.booking?.status ?? release.code} / ${checkout.status} ${checkout.booking?.status ?? checkout.code}`
    const releaseWon = release.status === 200 && release.booking!.status === 'released' && checkout.status === 404 && checkout.code === 'no_booking'
    const checkoutWon = checkout.status === 200 && ['requested', 'confirmed'].includes(checkout.booking!.status)
      && release.status === 200 && release.booking!.status === 'cancelled'
    if (!releaseWon && !checkoutWon) expectations.push(`s${i}: DELETE / checkout answered ${pair}; expected 200 released / 404 no_booking or 200 cancelled / 200 confirmed`)
  })
  return run('release racing checkout on one hold', sessions, starts, [...setup, ...answers], expectations)
}

/** Checks out a booking with the code and cancels it, so the code is in use but has all its uses left. */
async function useAndGiveBack(target: RaceTarget, session: RaceSession, start: string, promo: string): Promise<RaceAnswer[]> {
  const client = nodeOf(target, 0)
  const answers = [await send({ label: `setup s0 POST /booking ${promo}`, route: 'POST /booking', session, client, body: holdBody(start, 1, promo) })]
  answers.push(await send({ label: 'setup s0 POST /checkout', route: 'POST /checkout', session, client, body: checkoutBody() }))
  answers.push(await send({ label: 'setup s0 DELETE /booking', route: 'DELETE /booking', session, client }))
  const refused = answers.filter((a) => a.status !== 200)
  if (refused.length > 0) throw new Error(`setup refused: ${refused.map((a) => `${a.label} ${a.status} ${a.code ?? a.error}`).join('; ')}`)
  return answers
}

/**
 * Defect 4 (promo overspent): `checkouts` sessions hold with one promo code of max_uses 1
 * and check out at once. One checkout succeeds; the others are 422 invalid_promo_code and
 * keep their holds. The code was used and given back first, as a code in use would have
 * been: the very first redemption of a code queues on inserting its counter row, which
 * would hide a redemption that reads the count and then writes it.
 */
export async function promoRushRace(target: RaceTarget, checkouts = 20): Promise<RaceRun> {
  const promo = target.takePromo(1)
  const starts = await target.takeStarts(Math.ceil(checkouts / 5))
  const [first, ...sessions] = await newSessions(target, checkouts + 1)
  const setup = [...await useAndGiveBack(target, first, starts[0], promo), ...await holdEach(target, sessions, starts, promo, 1)]
  const answers = await sendAll(sessions.map((session, i): RaceRequest => ({
    label: `s${i + 1}@n${i % target.clients.length} POST /checkout (${promo})`, route: 'POST /checkout', session, client: nodeOf(target, i), body: checkoutBody(),
  })))
  const expectations: string[] = []
  const won = answers.filter((a) => a.status === 200).length
  const refused = answers.filter((a) => a.status === 422 && a.code === 'invalid_promo_code')
  if (won !== 1 || refused.length !== checkouts - 1) {
    expectations.push(`expected 1 × 200 and ${checkouts - 1} × 422 invalid_promo_code for a code with max_uses 1, got ${tally(answers)}`)
  }
  const holds = setup.slice(-checkouts)
  const refusedHolds = holds.filter((_, i) => answers[i].status === 422).map((a) => a.booking!.id)
  if (refusedHolds.length > 0) {
    const rows = await sql<{ id: string, status: string }>`SELECT id, status FROM bookings WHERE id IN (${sql.join(refusedHolds)})`.execute(target.db)
    const notHeld = rows.rows.filter((r) => r.status !== 'held')
    if (notHeld.length > 0) expectations.push(`${notHeld.length} of ${refusedHolds.length} checkouts refused for the promo code lost their hold (${notHeld.map((r) => r.status).join(', ')})`)
  }
  return run('promo rush: concurrent checkouts of a max_uses 1 code', [first, ...sessions], starts, [...setup, ...answers], expectations, [{ code: promo, maxUses: 1 }])
}

/**
 * Defect 4 by another road (promo overspent after concurrent cancels): two bookings checked
 * out with a max_uses 2 code; `cancels` DELETE /booking at once on one of them must give
 * its use back once, so of two more checkouts with the code at once exactly one succeeds.
 * A second cancel that also gave the use back would let both through: three bookings on a
 * code of two uses.
 */
export async function promoCancelStormRace(target: RaceTarget, cancels = 10): Promise<RaceRun> {
  const promo = target.takePromo(2)
  const starts = await target.takeStarts(1)
  const sessions = await newSessions(target, 4)
  const [cancelled, kept, ...late] = sessions
  // The kept booking shares the departure, so a second release of the cancelled one's seats
  // does not run into the capacity CHECK (which would roll the double release back).
  const setup: RaceAnswer[] = []
  for (const [i, session] of [cancelled, kept].entries()) {
    setup.push(...await holdEach(target, [session], starts, promo, i))
    setup.push(await send({ label: `setup s${i} POST /checkout`, route: 'POST /checkout', session, client: nodeOf(target, i), body: checkoutBody() }))
  }
  if (setup.some((a) => a.status !== 200)) throw new Error(`setup failed: ${setup.map((a) => `${a.label} ${a.status} ${a.code ?? ''}`).join('; ')}`)
  const storm = await sendAll(Array.from({ length: cancels }, (_, i): RaceRequest => ({
    label: `#${i} s0@n${i % target.clients.length} DELETE /booking`, route: 'DELETE /booking', session: cancelled, client: nodeOf(target, i),
  })))
  const lateHolds = await holdEach(target, late, starts, promo, 2)
  const lateCheckouts = await sendAll(late.map((session, i): RaceRequest => ({
    label: `s${i + 2}@n${i % target.clients.length} POST /checkout (${promo})`, route: 'POST /checkout', session, client: nodeOf(target, i), body: checkoutBody(),
  })))
  const expectations: string[] = []
  const cancelledOnce = storm.filter((a) => a.status === 200 && a.booking!.status === 'cancelled').length === 1
    && storm.filter((a) => a.status === 404 && a.code === 'no_booking').length === cancels - 1
  if (!cancelledOnce) expectations.push(`expected 1 × 200 cancelled and ${cancels - 1} × 404 no_booking, got ${tally(storm)}`)
  if (lateCheckouts.filter((a) => a.status === 200).length !== 1 || lateCheckouts.filter((a) => a.status === 422 && a.code === 'invalid_promo_code').length !== 1) {
    expectations.push(`with one use of ${promo} left, expected 1 × 200 and 1 × 422 invalid_promo_code of the two late checkouts, got ${tally(lateCheckouts)}`)
  }
  return run('promo cancel storm: concurrent cancels of a promo booking, then checkouts for the last use', sessions, starts,
    [...setup, ...storm, ...lateHolds, ...lateCheckouts], expectations, [{ code: promo, maxUses: 2 }])
}

/**
 * Issue 27 (seats versus people): `sessions` sessions each hold {adult 1, infant 1} at once on
 * one fresh departure of the drill tour's capacity. An infant on a lap takes no seat, so each
 * hold is 2 people on 1 seat: exactly `capacity` win, the rest are 409 insufficient_capacity,
 * and the winners are 2 × capacity people on capacity seats. (The general invariants check
 * seats_taken against the live bookings' seats.)
 */
export async function infantSeatsRace(target: RaceTarget, sessionCount: number, capacity: number): Promise<RaceRun> {
  const starts = await target.takeStarts(1)
  const sessions = await newSessions(target, sessionCount)
  const units = { adult: 1, infant: 1 }
  const answers = await sendAll(sessions.map((session, i): RaceRequest => ({
    label: `s${i}@n${i % target.clients.length} POST /booking (${describeCounts(units)})`,
    route: 'POST /booking', session, client: nodeOf(target, i), body: holdBody(starts[0], 2, undefined, false, units),
  })))
  const expectations: string[] = []
  const won = answers.filter((a) => a.status === 200).length
  const full = answers.filter((a) => a.status === 409 && a.code === 'insufficient_capacity').length
  if (won !== capacity || full !== sessionCount - capacity) {
    expectations.push(`expected ${capacity} × 200 and ${sessionCount - capacity} × 409 insufficient_capacity, got ${tally(answers)}`)
  }
  const [stored] = (await sql<{ n: number | string, seats: number | string | null, people: number | string | null, taken: number | string | null }>`
    SELECT COUNT(*) AS n, SUM(b.seats) AS seats, SUM(b.party) AS people,
      (SELECT d.seats_taken FROM departures d WHERE d.tour_id = ${RACE_TOUR} AND d.start_at = ${storedStart(starts[0])}) AS taken
    FROM bookings b WHERE b.tour_id = ${RACE_TOUR} AND b.start_at = ${storedStart(starts[0])} AND b.status = 'held'`.execute(target.db)).rows
  const figures = [stored.n, stored.seats, stored.people, stored.taken].map((value) => Number(value ?? 0))
  if (figures.join() !== [capacity, capacity, 2 * capacity, capacity].join()) {
    expectations.push(`expected ${capacity} held bookings of ${capacity} seats and ${2 * capacity} people, seats_taken ${capacity}; `
      + `the database has ${figures[0]} held of ${figures[1]} seats and ${figures[2]} people, seats_taken ${figures[3]}`)
  }
  return run('infants on laps: concurrent holds of an adult and an infant on one departure', sessions, starts, answers, expectations)
}
