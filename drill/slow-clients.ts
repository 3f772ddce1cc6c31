import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { openStore } from '../src/store/store.ts'
import { drillCatalogFile } from '../test/helpers/catalog-file.ts'
import { ApiClient } from '../test/helpers/client.ts'
import { freshDatabase } from '../test/helpers/database.ts'
import { startServer, type ServerProcess } from '../test/helpers/server-process.ts'
import { bookableStarts, prepareAttempts, sendHold, type HoldAttempt } from './hold-attempts.ts'
import { latencySummary } from './latency.ts'
import { checkLedger } from './ledger.ts'
import { emptyOutcome, type DrillOutcome } from './outcome.ts'
import { formatMs } from './readiness.ts'
import { SlowClients } from './slow-sockets.ts'

const TOUR = 'drill-departure'
const CAPACITY = 10_000
const BYTE_EVERY_MS = 1000

export interface SlowClientsOptions {
  title: string
  /** Slow clients of each kind (headers, body). */
  perKind: number
  /** Holds measured without, then with, the slow clients. */
  holds: number
  /**
   * How long the slow clients may keep trickling after they have all connected. The server
   * must have closed every one of them by then (its header and request timeouts, plus the
   * grace after its answer), unless `cutExpected` is false (the quick mode is too short).
   */
  observeMs: number
  cutExpected: boolean
}

const POLL_MS = 500

/** Open descriptors of a process and its limit, from /proc (Linux); null elsewhere. */
function descriptors(pid: number): { open: number, limit: string } | null {
  try {
    const limit = /Max open files\s+(\d+|unlimited)/.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'))?.[1] ?? '?'
    return { open: readdirSync(`/proc/${pid}/fd`).length, limit }
  } catch {
    return null
  }
}

async function holdOneByOne(client: ApiClient, attempts: HoldAttempt[]): Promise<number[]> {
  const latencies: number[] = []
  for (const attempt of attempts) {
    await sendHold(client, attempt)
    latencies.push(attempt.latencyMs!)
  }
  return latencies
}

/**
 * Holds booked one at a time, first alone and then while hundreds of slowloris clients
 * hold connections open. Every hold must still be acknowledged; the figures are the hold
 * latencies in both phases and how many slow connections the server has dropped.
 */
export async function slowClientsDrill(options: SlowClientsOptions): Promise<DrillOutcome> {
  const outcome = emptyOutcome(options.title, 'SQLite')
  const database = await freshDatabase(null)
  const { dir, catalogPath } = drillCatalogFile(CAPACITY)
  const store = await openStore(database.target)
  let server: ServerProcess | null = null
  let slow: SlowClients | null = null
  try {
    server = await startServer({ DATABASE_URL: database.url, TOURDESK_CONFIG: catalogPath })
    const client = new ApiClient(server.origin, 'lisbon', null)
    const [start] = await bookableStarts(client, TOUR)
    const attempts = await prepareAttempts(client, options.holds * 2, { tourId: TOUR, start }, 'slow')
    const alone = attempts.slice(0, options.holds)
    const besideSlow = attempts.slice(options.holds)

    const latencyAlone = await holdOneByOne(client, alone)
    const fdsBefore = descriptors(server.child.pid!)

    slow = new SlowClients(Number(new URL(server.origin).port), BYTE_EVERY_MS)
    await slow.open(options.perKind)
    const connectedAt = performance.now()
    const openAfterConnect = slow.stillOpen()
    const latencySlow = await holdOneByOne(client, besideSlow)
    const fdsDuring = descriptors(server.child.pid!)
    const stillOpen = () => slow!.stillOpen().headers + slow!.stillOpen().body
    while (stillOpen() > 0 && performance.now() - connectedAt < options.observeMs) await sleep(POLL_MS)
    const observedMs = performance.now() - connectedAt
    const openAtEnd = slow.stillOpen()
    const held = { headers: slow.longestHeldMs('headers'), body: slow.longestHeldMs('body') }
    const fdsAfter = descriptors(server.child.pid!)
    slow.close()
    slow = null
    if (openAtEnd.headers + openAtEnd.body === 0) outcome.recoverMs = observedMs
    else if (options.cutExpected) outcome.failures.push(`the server still held ${openAtEnd.headers} + ${openAtEnd.body} slow connections ${formatMs(observedMs)} after they connected`)

    const sent = [...alone, ...besideSlow]
    outcome.attempted = sent.length
    outcome.acknowledged = sent.filter((a) => a.outcome === 'acknowledged').length
    for (const a of sent) if (a.outcome !== 'acknowledged') outcome.failures.push(`hold ${a.key} answered ${a.answer}`)
    const ledger = await checkLedger(store.db, TOUR,
      sent.filter((a) => a.bookingId !== undefined).map((a) => ({ bookingId: a.bookingId!, statuses: ['held'] })), sent.map((a) => a.session))
    outcome.lost = ledger.lost
    outcome.duplicated = ledger.duplicated
    outcome.overCapacity = ledger.overCapacity
    outcome.failures.push(...ledger.seatMismatches)

    const fds = (f: ReturnType<typeof descriptors>) => f ? `${f.open} of ${f.limit}` : 'unknown'
    const longest = (ms: number | null) => ms === null ? 'none closed' : `longest held ${formatMs(ms)}`
    outcome.recoverNote = 'from the last slow client connecting until the server had closed every slow connection'
    outcome.notes.push(
      `${options.holds} holds one at a time without slow clients: ${latencySummary(latencyAlone)}`,
      `${options.holds} holds one at a time beside ${options.perKind} clients trickling headers and ${options.perKind} trickling a body, a byte a second each: ${latencySummary(latencySlow)}`,
      `slow connections open: ${openAfterConnect.headers} + ${openAfterConnect.body} once all had connected; ${openAtEnd.headers} + ${openAtEnd.body} after ${formatMs(observedMs)} (headers: ${longest(held.headers)}; bodies: ${longest(held.body)})`,
      `server file descriptors open: ${fds(fdsBefore)} before the slow clients, ${fds(fdsDuring)} with them, ${fds(fdsAfter)} at the end`,
      'rate limits off (all traffic comes from 127.0.0.1); the server runs with its shipped HTTP timeouts (src/app.ts)',
    )
  } finally {
    slow?.close()
    await server?.stop('SIGTERM')
    await store.close()
    await database.drop()
    rmSync(dir, { recursive: true, force: true })
  }
  return outcome
}
