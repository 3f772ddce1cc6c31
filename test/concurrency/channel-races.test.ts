/**
 * Issue 28: guest holds, a reseller's OCTo reserves and confirms, and staff bookings race for
 * the same last seats of one departure, over real HTTP, on one node and on three server
 * processes on one database (on SQLite, three processes on one file). Never over capacity;
 * every 2xx answer's booking is in the final state with its seats; every refusal is its
 * surface's own (problem+json 409 for guests and staff, OCTo's UNPROCESSABLE_ENTITY for the
 * reseller); seats_taken is the live bookings' seats; and each node's kept OCTo availability
 * shows the seats left (docs/resellers.md, "Polling").
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { Temporal } from 'temporal-polyfill'
import { channelRace, checkChannelRace, describeChannelRace, type ChannelAnswer, type ChannelRace } from '../helpers/channel-race.ts'
import { testDialect } from '../helpers/database.ts'
import { clusterTarget, oneNodeTarget, RACE_CAPACITY, RACE_TOUR, type RaceTarget } from '../helpers/race-target.ts'
import { storedStart } from '../helpers/race-traffic.ts'
import { checkAgainstOcto } from '../octo/octo-client.ts'

const NODES = 3
/** Contenders of each channel in the first wave, for the 4 seats left. */
const CONTENDERS = 8
const RUNS = 3

/**
 * The departure's vacancies as a node's OCTo range availability (a kept answer) gives them. A
 * node learns of another's commit by the database's change signal (SQLite's data_version,
 * PostgreSQL's notifications), so on a cluster the wait is for that signal, never a fixed sleep.
 */
async function vacanciesOn(race: ChannelRace, node: number): Promise<number> {
  const client = race.target.clients[node]
  const date = Temporal.Instant.from(race.start).toZonedDateTimeISO('Europe/Lisbon').toPlainDate().toString()
  const res = await fetch(`${client.origin}/octo/${client.prefix}/availability`, {
    method: 'POST',
    headers: { authorization: `Bearer ${race.resellerKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ productId: RACE_TOUR, optionId: 'DEFAULT', localDateStart: date, localDateEnd: date }),
  })
  const body = await res.json() as Array<{ id: string, vacancies: number }>
  await checkAgainstOcto('POST', '/availability/', res.status, body)
  return body.find((a) => storedStart(a.id) === storedStart(race.start))!.vacancies
}

/** "wave 1 octo take 400 UNPROCESSABLE_ENTITY × 6, …", for the log: which channels won. */
function tally(answers: ChannelAnswer[]): string {
  const counts = new Map<string, number>()
  for (const a of answers) {
    const key = `wave ${a.wave} ${a.channel} ${a.action} ${a.status} ${a.booking?.status ?? a.code ?? ''}`
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return [...counts].map(([key, n]) => `${key} × ${n}`).join(', ')
}

async function seatsTaken(target: RaceTarget, start: string): Promise<number> {
  const row = await target.db.selectFrom('departures').select('seats_taken')
    .where('tour_id', '=', RACE_TOUR).where('start_at', '=', storedStart(start)).executeTakeFirstOrThrow()
  return Number(row.seats_taken)
}

function races(topology: string, makeTarget: () => Promise<RaceTarget>) {
  describe(`${topology} on ${testDialect}`, () => {
    let target: RaceTarget
    let keys: { resellerKey: string, staffKey: string }
    before(async () => {
      target = await makeTarget()
      keys = { resellerKey: await target.createKey('reseller'), staffKey: await target.createKey('staff') }
    })
    after(() => target?.close())

    test(`guests, a reseller and staff race for the last ${RACE_CAPACITY - 2} seats, then confirm, check out and cancel while new contenders race: every answer agrees with the final state`, async (t) => {
      for (let run = 0; run < RUNS; run++) {
        const [start] = await target.takeStarts(1)
        const race: ChannelRace = { target, start, ...keys }
        const result = await channelRace(race, CONTENDERS, run)
        const broken = await checkChannelRace(race, result)
        if (broken.length > 0) assert.fail(`run ${run + 1}: ${describeChannelRace(result, broken)}`)
        t.diagnostic(`run ${run + 1}: ${tally(result.answers)}`)

        const left = RACE_CAPACITY - await seatsTaken(target, start)
        for (let node = 0; node < target.clients.length; node++) {
          const deadline = Date.now() + 5_000
          let vacancies = await vacanciesOn(race, node)
          while (vacancies !== left && target.clients.length > 1 && Date.now() < deadline) vacancies = await vacanciesOn(race, node)
          assert.equal(vacancies, left, `run ${run + 1}: node ${node}'s OCTo availability shows the seats left`)
        }
      }
    })
  })
}

races('one node', () => oneNodeTarget())
races(`${NODES} server processes on one database`, () => clusterTarget(NODES))
