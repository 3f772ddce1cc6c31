import { readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseCatalogFile } from '../src/catalog/catalog-file.ts'
import { closeContext, openContext } from '../src/context.ts'
import { openStore, type Store } from '../src/store/store.ts'
import { BENCH_REF, MEASURED_TOUR } from './catalog.ts'
import type { RunContext } from './database-run.ts'
import type { BenchDatabase } from './databases.ts'
import { measureLoad } from './load.ts'
import type { StartedProcess } from './node-process.ts'
import { createApiKey } from './operator-reads.ts'
import { readProcessMemory, resetPeakMemory } from './process-memory.ts'
import type { CatalogEditResults, EditFigures, NodeMemory, ReadUnderEdits, TimedEdit } from './results-model.ts'
import { seedBookings } from './seed.ts'
import { startService } from './service.ts'

type NewDatabase = (name: string) => Promise<BenchDatabase>

/** The tour the manager edits: neither the one availability is read on nor the one holds go to. */
const EDITED_TOUR = 'tour-00003'
/** How often the bench looks for an edit's commit in the database, and for its new price on a node. */
const COMMIT_POLL_MS = 2
const NODE_POLL_MS = 5
/** An edit not seen within this long has failed. */
const PROPAGATION_TIMEOUT_MS = 60_000
/** The days availability is read on, as in the main run's availability-14. */
const AVAILABILITY_DAYS = 14

async function json(url: string, init?: RequestInit): Promise<any> {
  const answer = await fetch(url, init)
  const body = await answer.json()
  if (!answer.ok) throw new Error(`${init?.method ?? 'GET'} ${url} answered ${answer.status}: ${JSON.stringify(body).slice(0, 500)}`)
  return body
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)])

/** The operator API of the instance a service's base URL names. */
const adminBaseOf = (service: StartedProcess) => service.baseUrl.replace('/api/', '/admin/api/')

/** Whether the operator API has PUT /tours/{id} in this build: its GET answers, not the router's 404. */
async function hasTourEdits(service: StartedProcess, key: string): Promise<boolean> {
  const answer = await fetch(`${adminBaseOf(service)}/tours/${EDITED_TOUR}`, { headers: { authorization: `Bearer ${key}` } })
  const body = await answer.text()
  if (answer.status === 404 && body.includes('"code":"not_found"')) return false
  if (!answer.ok) throw new Error(`GET /tours/${EDITED_TOUR} answered ${answer.status}: ${body.slice(0, 300)}`)
  return true
}

/** PUT /tours/{id} of the edited tour at `price` through a node's operator API; resolves with the answer's status. */
async function putPrice(service: StartedProcess, key: string, tour: object, price: number): Promise<number> {
  const answer = await fetch(`${adminBaseOf(service)}/tours/${EDITED_TOUR}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...tour, price }),
  })
  await answer.arrayBuffer()
  return answer.status
}

/**
 * A manager editing the catalog at a fixed pace through the operator API, one edit at a
 * time: the n-th edit is sent at n / perSecond seconds (at once when the one before ran
 * late), each moving the edited tour's price, so each is a real change and a new version.
 */
async function editAtPace(service: StartedProcess, key: string, perSecond: number): Promise<{ stop(): Promise<EditFigures> }> {
  const tour = await json(`${adminBaseOf(service)}/tours/${EDITED_TOUR}`, { headers: { authorization: `Bearer ${key}` } })
  const latencies: number[] = []
  let failed = 0
  let stopped = false
  const startedAt = performance.now()
  const editing = (async () => {
    for (let n = 0; !stopped; n++) {
      const wait = startedAt + (n * 1000) / perSecond - performance.now()
      if (wait > 0) await sleep(wait)
      if (stopped) break
      const sentAt = performance.now()
      const status = await putPrice(service, key, tour, tour.price + (n % 2 === 0 ? 100 : 0))
      if (status === 200) latencies.push(performance.now() - sentAt)
      else failed++
    }
  })()
  return {
    async stop() {
      stopped = true
      await editing
      const seconds = (performance.now() - startedAt) / 1000
      const sorted = [...latencies].sort((a, b) => a - b)
      return {
        edits: latencies.length,
        failed,
        perSecond: (latencies.length + failed) / seconds,
        latencyMs: { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted[sorted.length - 1] ?? 0 },
      }
    },
  }
}

/**
 * Guests' reads of the small catalog at `connections` while a manager edits it at the pace
 * asked, on the one service that takes both (a single-node deployment, and the worst case
 * of several: the node measured pays for the edits it is sent as well as for reloading):
 * every edit is a new catalog version, so every answer kept before it (the tour list,
 * availability) is made again after it. Each read is measured first without edits.
 */
async function readsUnderEdits(newDatabase: NewDatabase, ctx: RunContext): Promise<CatalogEditResults['readsUnderEdits'] | 'missing'> {
  const { catalogEdits: settings, growth: { small } } = ctx.settings
  const database = await newDatabase('edits')
  let service: StartedProcess | undefined
  try {
    service = await startService({ databaseUrl: database.url, catalogPath: ctx.catalogPath(small.tours), logDir: ctx.workDir })
    ctx.progress(`catalog edits: seeding ${small.bookings.toLocaleString('en')} bookings`)
    const store = await openStore(database.target, { migrate: false })
    try {
      await seedBookings(store, { ...small, today: ctx.today, now: ctx.now, windowStart: ctx.tomorrow, windowDays: AVAILABILITY_DAYS })
    } finally {
      await store.close()
    }
    const key = await createApiKey(database, ctx.now)
    if (!await hasTourEdits(service, key)) return 'missing'
    const reads = [
      { name: 'tours', request: 'GET /tours' },
      { name: 'availability-14', request: `GET /availability?tour=${MEASURED_TOUR}&date=${ctx.tomorrow}&days=${AVAILABILITY_DAYS}&party=2` },
    ]
    const results: ReadUnderEdits[] = []
    for (const read of reads) {
      const load = {
        url: `${service.baseUrl}${read.request.slice('GET '.length)}`,
        connections: settings.connections,
        durationSeconds: settings.durationSeconds,
        warmupSeconds: settings.warmupSeconds,
      }
      ctx.progress(`catalog edits: ${read.name} at ${settings.connections} connections, no edits`)
      const withoutEdits = await measureLoad(load)
      ctx.progress(`catalog edits: ${read.name} at ${settings.connections} connections, ${settings.editsPerSecond} edits a second`)
      const manager = await editAtPace(service, key, settings.editsPerSecond)
      const figures = await measureLoad(load)
      const edits = await manager.stop()
      results.push({ name: read.name, request: read.request, connections: settings.connections, ...figures, edits, withoutEdits })
    }
    return { tours: small.tours, editsPerSecond: settings.editsPerSecond, reads: results }
  } finally {
    await service?.stop()
    await database.drop()
  }
}

async function catalogVersion(store: Store): Promise<number> {
  const row = await store.db.selectFrom('catalog_instances').select('catalog_version').where('instance_id', '=', BENCH_REF).executeTakeFirstOrThrow()
  return Number(row.catalog_version)
}

/** performance.now() once `check` holds, asking every `intervalMs`. */
async function whenTrue(check: () => Promise<boolean>, intervalMs: number, what: string): Promise<number> {
  const since = performance.now()
  while (!await check()) {
    if (performance.now() - since > PROPAGATION_TIMEOUT_MS) throw new Error(`${what}: not within ${PROPAGATION_TIMEOUT_MS / 1000} s`)
    await sleep(intervalMs)
  }
  return performance.now()
}

/** When a node first answers the edited tour with `price` (GET /tours/{id}, as a guest). */
function answersPrice(service: StartedProcess, price: number, node: string): Promise<number> {
  return whenTrue(async () => (await json(`${service.baseUrl}/tours/${EDITED_TOUR}`)).price.amount === price, NODE_POLL_MS, `${node} node showing the new price`)
}

/**
 * One edit through the editing node's operator API, timed from its commit, which the bench
 * sees as the instance's catalog_version moving in the database (read every few ms), to the
 * first answer with the new price from each node.
 */
async function timeEdit(editing: StartedProcess, other: StartedProcess, key: string, store: Store, price: number): Promise<TimedEdit> {
  const tour = await json(`${adminBaseOf(editing)}/tours/${EDITED_TOUR}`, { headers: { authorization: `Bearer ${key}` } })
  const before = await catalogVersion(store)
  const put = putPrice(editing, key, tour, price).then((status) => {
    if (status !== 200) throw new Error(`PUT /tours/${EDITED_TOUR} answered ${status}`)
    return performance.now()
  })
  const committedAt = await whenTrue(async () => await catalogVersion(store) > before, COMMIT_POLL_MS, 'the edit\'s commit')
  const [otherAt, editingAt, answeredAt] = await Promise.all([answersPrice(other, price, 'other'), answersPrice(editing, price, 'editing'), put])
  return { toOtherNodeMs: otherAt - committedAt, toEditingNodeMs: editingAt - committedAt, toPutAnswerMs: answeredAt - committedAt }
}

/** VmHWM of a node once started, then reset, so that its later peak is what serving cost. */
function startMemory(node: StartedProcess): Omit<NodeMemory, 'servingPeakRssBytes'> {
  const startPeakRssBytes = node.peakRssBytes()
  resetPeakMemory(node.pid)
  return { coldStartMs: node.coldStartMs, startPeakRssBytes }
}

/**
 * Two nodes on one database serving the large instance: each streams the whole tour list
 * to a few connections, then edits sent to the first node are timed to the second's answer,
 * and both nodes' resident memory is read. The catalog is in the database before either
 * starts (as after `tourdesk catalog import`), so each start is an ordinary one.
 */
async function propagation(newDatabase: NewDatabase, ctx: RunContext): Promise<CatalogEditResults['propagation'] | 'missing'> {
  const settings = ctx.settings.catalogEdits
  const catalogPath = ctx.catalogPath(settings.largeTours)
  const database = await newDatabase('nodes')
  const nodes: StartedProcess[] = []
  try {
    ctx.progress(`catalog edits: putting ${settings.largeTours.toLocaleString('en')} tours in the database`)
    const seeding = await openContext({
      database: database.target, catalog: parseCatalogFile(readFileSync(catalogPath, 'utf8'), catalogPath), clock: { now: () => ctx.now },
    })
    await closeContext(seeding)
    ctx.progress('catalog edits: starting two nodes')
    for (let i = 0; i < 2; i++) nodes.push(await startService({ databaseUrl: database.url, catalogPath, logDir: ctx.workDir }))
    const [editing, other] = nodes
    const started = nodes.map(startMemory)
    const key = await createApiKey(database, ctx.now)
    if (!await hasTourEdits(editing, key)) return 'missing'

    const list = async (node: StartedProcess, name: string) => {
      ctx.progress(`catalog edits: the whole list of ${settings.largeTours.toLocaleString('en')} tours from the ${name} node`)
      return measureLoad({ url: `${node.baseUrl}/tours`, connections: settings.listConnections, durationSeconds: settings.listSeconds, warmupSeconds: 0 })
    }
    const bytes = (await (await fetch(`${other.baseUrl}/tours`)).arrayBuffer()).byteLength
    const wholeList = { request: 'GET /tours', bytes, editing: await list(editing, 'editing'), other: await list(other, 'other') }

    const store = await openStore(database.target, { migrate: false })
    const edits: TimedEdit[] = []
    try {
      const { price } = await json(`${adminBaseOf(editing)}/tours/${EDITED_TOUR}`, { headers: { authorization: `Bearer ${key}` } })
      for (let n = 1; n <= settings.timedEdits; n++) {
        ctx.progress(`catalog edits: timed edit ${n} of ${settings.timedEdits}`)
        edits.push(await timeEdit(editing, other, key, store, price + n * 10))
      }
    } finally {
      await store.close()
    }
    const memory = (node: StartedProcess, i: number): NodeMemory => ({ ...started[i], servingPeakRssBytes: readProcessMemory(node.pid)?.peakBytes ?? null })
    return { tours: settings.largeTours, wholeList, edits, editing: memory(editing, 0), other: memory(other, 1) }
  } finally {
    for (const node of nodes) await node.stop()
    await database.drop()
  }
}

/** Issue 15's figures: reads while a manager edits, and an edit's way to another node of a large instance. */
export async function measureCatalogEdits(newDatabase: NewDatabase, ctx: RunContext): Promise<CatalogEditResults> {
  const reads = await readsUnderEdits(newDatabase, ctx)
  const spread = await propagation(newDatabase, ctx)
  const missing = reads === 'missing' || spread === 'missing' ? ['PUT /tours/{id}'] : []
  return {
    readsUnderEdits: reads === 'missing' ? null : reads,
    propagation: spread === 'missing' ? null : spread,
    missing,
  }
}
