import { rmSync, statfsSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'kysely'
import { readSettings } from '../src/config/env.ts'
import { openStore } from '../src/store/store.ts'
import { drillCatalogFile } from '../test/helpers/catalog-file.ts'
import { ApiClient } from '../test/helpers/client.ts'
import { startServer, type ServerProcess } from '../test/helpers/server-process.ts'
import { bookableStarts, countOutcomes, prepareAttempts, retryAll, sendHold, type HoldAttempt } from './hold-attempts.ts'
import { checkLedger } from './ledger.ts'
import { emptyOutcome, skippedOutcome, type DrillOutcome } from './outcome.ts'
import { formatMs, waitUntilReady } from './readiness.ts'
import { mountSmallDisk } from './tmpfs.ts'

const TOUR = 'drill-departure'
const CAPACITY = 1000
/** Room for the database and a full WAL (SQLite checkpoints at 1,000 pages, 4 MiB). */
const DISK_BYTES = 16 * 1024 * 1024
/** Room left beside the filler file: a dozen holds' worth of WAL frames. */
const HEADROOM_BYTES = 512 * 1024
/** Consecutive refusals that show the disk is full rather than a passing error. */
const FULL_AFTER = 10
const RESUME_TIMEOUT_MS = 10_000
const READY_TIMEOUT_MS = 30_000

/** Takes all but `headroom` bytes of the disk with one file. */
function fillDisk(dir: string, headroom: number): string {
  const stats = statfsSync(dir)
  const free = stats.bavail * stats.bsize
  const filler = join(dir, 'filler')
  const chunk = Buffer.alloc(64 * 1024, 1)
  let left = Math.max(0, free - headroom)
  for (const flag = { flag: 'w' }; left > 0; flag.flag = 'a') {
    writeFileSync(filler, left >= chunk.length ? chunk : chunk.subarray(0, left), flag)
    left -= chunk.length
  }
  return filler
}

/**
 * Puts the SQLite file on a 4 MiB tmpfs, fills the disk and keeps booking. Refused writes
 * must be 503 `unavailable` (never a 500 or a crash); once space is freed the same process
 * must book again, and after a SIGKILL and restart every acknowledged hold must be there.
 */
export async function diskFullDrill(title: string, holds: number): Promise<DrillOutcome> {
  const disk = await mountSmallDisk(DISK_BYTES)
  if ('unavailable' in disk) return skippedOutcome(title, 'SQLite', disk.unavailable)
  const outcome = emptyOutcome(title, 'SQLite')
  const url = `sqlite:${join(disk.dir, 'tourdesk.db')}`
  const catalog = drillCatalogFile(CAPACITY)
  const env = { DATABASE_URL: url, TOURDESK_CONFIG: catalog.catalogPath }
  const store = await openStore(readSettings({ DATABASE_URL: url }).database)
  let server: ServerProcess | null = null
  try {
    server = await startServer(env)
    let client = new ApiClient(server.origin, 'lisbon', null)
    const [start] = await bookableStarts(client, TOUR)
    const attempts = await prepareAttempts(client, holds, { tourId: TOUR, start }, 'disk')
    const sent: HoldAttempt[] = []
    const send = async (attempt: HoldAttempt) => {
      sent.push(attempt)
      await sendHold(client, attempt)
    }

    const filler = fillDisk(disk.dir, HEADROOM_BYTES)
    let refusedInARow = 0
    let next = 0
    while (refusedInARow < FULL_AFTER && next < attempts.length) {
      const attempt = attempts[next++]
      await send(attempt)
      refusedInARow = attempt.outcome === 'acknowledged' ? 0 : refusedInARow + 1
    }
    const whileFull = countOutcomes(sent)
    const health = await fetch(`${server.origin}/healthz`)
    const readiness = await fetch(`${server.origin}/readyz`)
    const alive = server.child.exitCode === null && server.child.signalCode === null
    if (refusedInARow < FULL_AFTER) outcome.failures.push(`the disk never filled: ${whileFull.acknowledged} holds fitted in ${HEADROOM_BYTES / 1024} KiB`)
    if (!alive) outcome.failures.push('the server exited when the disk filled')
    if (health.status !== 200) outcome.failures.push(`/healthz answered ${health.status} with the disk full`)
    if (readiness.status !== 503) outcome.failures.push(`/readyz answered ${readiness.status} with the disk full, not 503: a load balancer would keep sending writes`)

    unlinkSync(filler)
    const freedAt = performance.now()
    let resumedAt: number | null = null
    while (resumedAt === null && performance.now() - freedAt < RESUME_TIMEOUT_MS && next < attempts.length) {
      const attempt = attempts[next++]
      await send(attempt)
      if (attempt.outcome === 'acknowledged') resumedAt = performance.now()
      else await sleep(20)
    }
    if (resumedAt === null) outcome.failures.push(`no hold acknowledged within ${formatMs(RESUME_TIMEOUT_MS)} of freeing space`)
    else outcome.recoverMs = resumedAt - freedAt
    const readyAgain = await fetch(`${server.origin}/readyz`)
    if (readyAgain.status !== 200) outcome.failures.push(`/readyz answered ${readyAgain.status} once space was freed and a hold acknowledged, not 200`)
    const afterFree = sent.length
    while (next < attempts.length) await send(attempts[next++])
    const resumed = sent.slice(afterFree)
    const refusedAfter = resumed.filter((a) => a.outcome !== 'acknowledged').length
    if (refusedAfter > 0) outcome.failures.push(`${refusedAfter} of ${resumed.length} holds after the resumption were not acknowledged`)

    for (const a of sent) if (a.outcome === 'unexpected' || a.outcome === 'connection lost') outcome.failures.push(`hold answered ${a.answer}`)
    outcome.attempted = sent.length
    outcome.acknowledged = sent.filter((a) => a.outcome === 'acknowledged').length

    await server.stop('SIGKILL')
    server = await startServer(env)
    await waitUntilReady(server.origin, READY_TIMEOUT_MS)
    client = new ApiClient(server.origin, 'lisbon', null)
    const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(store.db)
    if (integrity.rows[0]?.integrity_check !== 'ok') outcome.failures.push(`integrity_check after restart: ${JSON.stringify(integrity.rows)}`)
    const retry = await retryAll(client, sent)
    outcome.attempted += retry.sent
    outcome.acknowledged += retry.replayed + retry.newlyAcknowledged
    outcome.failures.push(...retry.unexpected.map((u) => `retry ${u}`))
    const ledger = await checkLedger(store.db, TOUR,
      sent.filter((a) => a.bookingId !== undefined).map((a) => ({ bookingId: a.bookingId!, statuses: ['held'] })), sent.map((a) => a.session))
    outcome.lost = ledger.lost
    outcome.duplicated = retry.duplicated + ledger.duplicated
    outcome.overCapacity = ledger.overCapacity
    outcome.failures.push(...ledger.seatMismatches)

    outcome.recoverNote = 'from deleting the filler file to the next acknowledged hold, same process'
    outcome.notes.push(
      `SQLite file on a ${DISK_BYTES / 1024 / 1024} MiB tmpfs; a filler file left ${HEADROOM_BYTES / 1024} KiB free, then holds one at a time until ${FULL_AFTER} in a row were refused`,
      `with the disk full: ${whileFull.acknowledged} holds acknowledged before it filled, ${whileFull.unavailable} answered 503 unavailable, ${whileFull.unexpected} other answers; /healthz ${health.status}, /readyz ${readiness.status}; the process ${alive ? 'kept running' : 'exited'}; /readyz ${readyAgain.status} once space was freed`,
      `after freeing space: ${resumed.length} holds, ${resumed.length - refusedAfter} acknowledged; then SIGKILL and restart: integrity_check ${integrity.rows[0]?.integrity_check}, every key retried (${retry.replayed} replayed, ${retry.newlyAcknowledged} newly held)`,
    )
  } finally {
    await server?.stop('SIGTERM')
    await store.close()
    await disk.unmount()
    rmSync(catalog.dir, { recursive: true, force: true })
  }
  return outcome
}
