import { rmSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { openStore } from '../src/store/store.ts'
import { drillCatalogFile } from '../test/helpers/catalog-file.ts'
import { ApiClient } from '../test/helpers/client.ts'
import { freshDatabase } from '../test/helpers/database.ts'
import { startServer, type ServerProcess } from '../test/helpers/server-process.ts'
import { TcpProxy } from '../test/helpers/tcp-proxy.ts'
import { bookableStarts, countOutcomes, prepareAttempts, retryAll, sendHold, type HoldAttempt } from './hold-attempts.ts'
import { checkLedger } from './ledger.ts'
import { emptyOutcome, type DrillOutcome } from './outcome.ts'
import { formatMs, waitUntilReady } from './readiness.ts'

const TOUR = 'drill-departure'
const CAPACITY = 200
const WORKERS = 4
/** Pause between one worker's holds: about 50 holds a second in all, a busy shop rather than a benchmark. */
const PACE_MS = 80
const READY_TIMEOUT_MS = 30_000

export interface PostgresCutOptions {
  title: string
  postgresUrl: string
  /** Traffic before the cut, during it, and after the service is ready again. */
  warmMs: number
  cutMs: number
  afterMs: number
  holds: number
}

interface Timed {
  attempt: HoldAttempt
  sentAt: number
  answeredAt: number
}

/**
 * Puts a TCP proxy between the node and PostgreSQL and drops every connection through it
 * while holds keep arriving. Holds sent during the cut must be answered 503 `unavailable`
 * (never a 500 or a hang); after the restore the node must become ready without a restart,
 * and every acknowledged hold must be in the database exactly once.
 */
export async function postgresCutDrill(options: PostgresCutOptions): Promise<DrillOutcome> {
  const outcome = emptyOutcome(options.title, 'PostgreSQL')
  const database = await freshDatabase(options.postgresUrl)
  const direct = new URL(database.url)
  const proxy = new TcpProxy(direct.hostname, Number(direct.port || 5432))
  await proxy.start()
  const viaProxy = new URL(database.url)
  viaProxy.host = proxy.url
  const { dir, catalogPath } = drillCatalogFile(CAPACITY)
  const store = await openStore(database.target)
  let server: ServerProcess | null = null
  try {
    server = await startServer({ DATABASE_URL: viaProxy.toString(), TOURDESK_CONFIG: catalogPath })
    const client = new ApiClient(server.origin, 'lisbon', null)
    const [start] = await bookableStarts(client, TOUR)
    const attempts = await prepareAttempts(client, options.holds, { tourId: TOUR, start }, 'cut')

    const timed: Timed[] = []
    let next = 0
    let running = true
    const worker = async () => {
      while (running && next < attempts.length) {
        const attempt = attempts[next++]
        const sentAt = performance.now()
        await sendHold(client, attempt)
        timed.push({ attempt, sentAt, answeredAt: performance.now() })
        await sleep(PACE_MS)
      }
    }
    const workers = Array.from({ length: WORKERS }, worker)

    await sleep(options.warmMs)
    const cutAt = performance.now()
    await proxy.cut()
    await sleep(options.cutMs)
    const health = await fetch(`${server.origin}/healthz`)
    const readiness = await fetch(`${server.origin}/readyz`)
    const restoredAt = performance.now()
    await proxy.restore()
    const readyAt = await waitUntilReady(server.origin, READY_TIMEOUT_MS)
    await sleep(options.afterMs)
    running = false
    await Promise.all(workers)

    const sent = timed.map((t) => t.attempt)
    outcome.attempted += sent.length
    outcome.acknowledged += sent.filter((a) => a.outcome === 'acknowledged').length
    const duringCut = timed.filter((t) => t.sentAt >= cutAt && t.answeredAt <= restoredAt)
    const wrong = duringCut.filter((t) => t.attempt.outcome !== 'unavailable')
    outcome.failures.push(...wrong.map((t) => `hold sent during the cut answered ${t.attempt.answer}`))
    for (const t of timed) if (t.attempt.outcome === 'unexpected' || t.attempt.outcome === 'connection lost') outcome.failures.push(`hold answered ${t.attempt.answer}`)
    if (health.status !== 200) outcome.failures.push(`/healthz answered ${health.status} during the cut`)
    if (readiness.status !== 503) outcome.failures.push(`/readyz answered ${readiness.status} during the cut, not 503`)
    const afterReady = timed.filter((t) => t.sentAt >= readyAt)
    const afterReadyCounts = countOutcomes(afterReady.map((t) => t.attempt))
    const firstHoldAfter = timed.filter((t) => t.sentAt >= restoredAt && t.attempt.outcome === 'acknowledged')
      .reduce((first, t) => Math.min(first, t.answeredAt), Infinity)

    const counts = countOutcomes(sent)
    const retry = await retryAll(client, sent)
    outcome.attempted += retry.sent
    outcome.acknowledged += retry.replayed + retry.newlyAcknowledged
    outcome.failures.push(...retry.unexpected.map((u) => `retry ${u}`))
    const ledger = await checkLedger(store.db, TOUR,
      sent.filter((a) => a.bookingId !== undefined).map((a) => ({ bookingId: a.bookingId!, statuses: ['held'] })),
      sent.map((a) => a.session))
    outcome.lost = ledger.lost
    outcome.duplicated = retry.duplicated + ledger.duplicated
    outcome.overCapacity = ledger.overCapacity
    outcome.failures.push(...ledger.seatMismatches)

    const slowest = Math.max(0, ...duringCut.map((t) => t.answeredAt - t.sentAt))
    outcome.recoverMs = readyAt - restoredAt
    outcome.recoverNote = `restore to /readyz 200 without a restart; first hold acknowledged ${Number.isFinite(firstHoldAfter) ? formatMs(firstHoldAfter - restoredAt) : 'never'} after the restore`
    outcome.notes.push(
      `${WORKERS} clients holding about ${Math.round(WORKERS * 1000 / PACE_MS)} times a second; the proxy cut for ${formatMs(options.cutMs)} then restored (default connect and statement timeouts)`,
      `${duringCut.length} holds sent and answered during the cut: ${duringCut.length - wrong.length} answered 503 unavailable, slowest in ${formatMs(slowest)}; /healthz ${health.status}, /readyz ${readiness.status} during the cut`,
      `${afterReady.length} holds sent once /readyz was 200 again: ${afterReadyCounts.acknowledged} acknowledged, ${afterReadyCounts.unavailable} 503 unavailable, slowest in ${formatMs(Math.max(0, ...afterReady.map((t) => t.answeredAt - t.sentAt)))}`,
      `all holds: ${counts.acknowledged} acknowledged, ${counts.unavailable} 503 unavailable, ${counts.refused} refused for capacity (${CAPACITY} seats)`,
      `retrying every key: ${retry.replayed} replayed the acknowledged booking, ${retry.newlyAcknowledged} held (${retry.committedUnanswered} of them replays of holds that had committed although their first answer was an error), the rest refused for capacity`,
    )
  } finally {
    await server?.stop('SIGTERM')
    await proxy.stop()
    await store.close()
    await database.drop()
    rmSync(dir, { recursive: true, force: true })
  }
  return outcome
}
