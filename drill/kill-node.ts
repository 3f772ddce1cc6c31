import { rmSync } from 'node:fs'
import { openStore } from '../src/store/store.ts'
import { median } from '../bench/statistics.ts'
import { drillCatalogFile } from '../test/helpers/catalog-file.ts'
import { ApiClient } from '../test/helpers/client.ts'
import { freshDatabase } from '../test/helpers/database.ts'
import { startServer, type ServerProcess } from '../test/helpers/server-process.ts'
import { bookableStarts, countOutcomes, prepareAttempts, retryAll, sendHold, type HoldAttempt } from './hold-attempts.ts'
import { checkLedger, countLost } from './ledger.ts'
import { emptyOutcome, type DrillOutcome } from './outcome.ts'
import { formatMs, waitUntilReady } from './readiness.ts'

const TOUR = 'drill-departure'
/** Small enough that the retries of a round fill the departure, so capacity is tested under the crash too. */
const CAPACITY = 40
const READY_TIMEOUT_MS = 30_000

export interface KillNodeOptions {
  title: string
  rounds: number
  holdsPerRound: number
  /** PostgreSQL to make the drill's schema in, or null for SQLite. */
  postgresUrl: string | null
}

/**
 * Sends a burst of holds, each with its own session and Idempotency-Key, and SIGKILLs the
 * node once some are acknowledged (a different number each round), then restarts it. Every
 * acknowledged hold must be in the database; retrying every key must replay acknowledged
 * ones and make no second booking; seats must match the live bookings and fit capacity.
 */
export async function killNodeDrill(options: KillNodeOptions): Promise<DrillOutcome> {
  const outcome = emptyOutcome(options.title, options.postgresUrl ? 'PostgreSQL' : 'SQLite')
  const database = await freshDatabase(options.postgresUrl)
  const { dir, catalogPath } = drillCatalogFile(CAPACITY)
  const env = { DATABASE_URL: database.url, TOURDESK_CONFIG: catalogPath }
  let server: ServerProcess | null = null
  const store = await openStore(database.target)
  try {
    server = await startServer(env)
    let client = new ApiClient(server.origin, 'lisbon', null)
    const starts = await bookableStarts(client, TOUR)
    if (starts.length < options.rounds) throw new Error(`need ${options.rounds} departures, found ${starts.length}`)
    const recoveries: number[] = []
    const totals = { inFlightLost: 0, ackedBeforeKill: 0, lostAfterRestart: 0, replayed: 0, newlyAcknowledged: 0, committedUnanswered: 0 }

    for (let round = 0; round < options.rounds; round++) {
      const attempts = await prepareAttempts(client, options.holdsPerRound, { tourId: TOUR, start: starts[round] }, `kill-${round}`,
        (i) => 1 + ((i * 7 + round) % 3))
      const killAfter = 1 + ((round * 7) % 12)
      const killedAt = await burstThenKill(client, server, attempts, killAfter)
      outcome.attempted += attempts.length
      const counts = countOutcomes(attempts)
      totals.inFlightLost += counts['connection lost']
      totals.ackedBeforeKill += counts.acknowledged
      for (const a of attempts) if (a.outcome === 'unexpected') outcome.failures.push(`round ${round}: hold answered ${a.answer}`)

      server = await startServer(env)
      recoveries.push(await waitUntilReady(server.origin, READY_TIMEOUT_MS) - killedAt)
      client = new ApiClient(server.origin, 'lisbon', null)

      const acknowledged = attempts.filter((a) => a.bookingId !== undefined)
      const lostNow = await countLost(store.db, acknowledged.map((a) => ({ bookingId: a.bookingId!, statuses: ['held'] })))
      totals.lostAfterRestart += lostNow
      outcome.acknowledged += acknowledged.length

      const retry = await retryAll(client, attempts)
      outcome.attempted += retry.sent
      outcome.acknowledged += retry.replayed + retry.newlyAcknowledged
      totals.replayed += retry.replayed
      totals.newlyAcknowledged += retry.newlyAcknowledged
      totals.committedUnanswered += retry.committedUnanswered
      outcome.failures.push(...retry.unexpected.map((u) => `round ${round} retry ${u}`))

      const ledger = await checkLedger(store.db, TOUR,
        attempts.filter((a) => a.bookingId !== undefined).map((a) => ({ bookingId: a.bookingId!, statuses: ['held'] })),
        attempts.map((a) => a.session))
      outcome.lost += ledger.lost
      outcome.duplicated += retry.duplicated + ledger.duplicated
      outcome.overCapacity += ledger.overCapacity
      outcome.failures.push(...ledger.seatMismatches.map((m) => `round ${round}: ${m}`))
    }

    outcome.recoverMs = median(recoveries)
    outcome.recoverNote = `median of ${recoveries.length} restart${recoveries.length === 1 ? '' : 's'}, max ${formatMs(Math.max(...recoveries))} (SIGKILL to /readyz 200 of the new process)`
    outcome.notes.push(
      `${options.holdsPerRound} concurrent holds per round, party 1–3, capacity ${CAPACITY} per departure; killed after 1–12 acknowledgements`,
      `${totals.ackedBeforeKill} holds acknowledged before the kills, ${totals.lostAfterRestart} of them missing after restart; ${totals.inFlightLost} requests lost their connection`,
      `retrying every key: ${totals.replayed} replayed the acknowledged booking, ${totals.newlyAcknowledged} held (${totals.committedUnanswered} of them replays of holds that had committed but whose answer the kill cut off), the rest refused for capacity`,
    )
  } finally {
    await server?.stop('SIGTERM')
    await store.close()
    await database.drop()
    rmSync(dir, { recursive: true, force: true })
  }
  return outcome
}

/** Sends every attempt at once and SIGKILLs the server when `killAfter` have been acknowledged (or when the burst ends); returns when it sent the signal. */
async function burstThenKill(client: ApiClient, server: ServerProcess, attempts: HoldAttempt[], killAfter: number) {
  let acknowledged = 0
  let killedAt = 0
  let kill: Promise<void> | null = null
  const killNow = () => {
    if (kill) return
    killedAt = performance.now()
    kill = server.stop('SIGKILL')
  }
  await Promise.all(attempts.map(async (attempt) => {
    await sendHold(client, attempt)
    if (attempt.outcome === 'acknowledged' && ++acknowledged >= killAfter) killNow()
  }))
  killNow()
  await kill
  return killedAt
}
