import { readFileSync, rmSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { Temporal } from 'temporal-polyfill'
import { staffAuth } from '../src/services/staff-auth.ts'
import { EVENT_TYPES } from '../src/schemas/event-type.ts'
import { openStore, type Store } from '../src/store/store.ts'
import { statement } from '../src/store/write-plan.ts'
import { drillCatalogFile } from '../test/helpers/catalog-file.ts'
import { ApiClient } from '../test/helpers/client.ts'
import { freshDatabase } from '../test/helpers/database.ts'
import { startServer, type ServerProcess } from '../test/helpers/server-process.ts'
import { operatorApi, startEventTraffic, type TrafficFigures } from './event-traffic.ts'
import { bookableStarts } from './hold-attempts.ts'
import { checkSeats } from './ledger.ts'
import { emptyOutcome, type DrillOutcome } from './outcome.ts'
import { formatMs } from './readiness.ts'
import { ownerOfConnection } from './socket-owner.ts'
import { startWebhookReceiver, type ReceiverMode, type WebhookReceiver } from './webhook-receiver.ts'

const PREFIX = 'lisbon'
const INSTANT_TOUR = 'drill-departure'
const REQUEST_TOUR = 'fado-night'
/** Room for every booking the traffic makes, so none is refused for capacity. */
const CAPACITY = 1000
/**
 * Short waits, as TOURDESK_WEBHOOK_RETRY_SCHEDULE allows for drills: 20 retries over about
 * 86 s, longer than the outage and a killed node's 30-second lease together, so a delivery
 * runs out of retries only if something is wrong.
 */
const RETRY_SCHEDULE = ['1s', '1s', '2s', '2s', ...Array.from({ length: 16 }, () => '5s')].join(',')
/** How often the end of the drill looks at what the receiver has taken. */
const DRAIN_POLL_MS = 100

export interface WebhooksDrillOptions {
  title: string
  /** PostgreSQL to make the drill's schema in, or null for one SQLite file. */
  postgresUrl: string | null
  nodes: number
  /** How long each phase of the receiver lasts; a phase of 0 is left out. */
  phases: Record<ReceiverMode, number>
  /** How long `slow-503` holds each request before answering. */
  slowAnswerMs: number
  /** SIGKILL a node during the slow phase, the one whose attempt the receiver is holding. */
  killNode: boolean
  /** After the receiver is back: traffic goes on this long, then every event must arrive within drainTimeoutMs. */
  afterMs: number
  drainTimeoutMs: number
  traffic: { workers: number, paceMs: number }
}

interface KillRecord {
  node: number
  /** The node's attempt the receiver held when it was killed, if it could be told. */
  inFlight: string | null
  /** Deliveries under some node's lease at that moment. */
  leased: number
  at: number
}

function instanceRef(catalogPath: string): string {
  return JSON.parse(readFileSync(catalogPath, 'utf8')).instances.find((i: { prefix: string }) => i.prefix === PREFIX).ref
}

/** Every event of the feed, oldest first, through GET {admin_base}/events. */
async function wholeFeed(api: ReturnType<typeof operatorApi>): Promise<any[]> {
  const events: any[] = []
  for (let after: string | null = null; ;) {
    const { status, body } = await api('GET', `/events?limit=200${after ? `&after=${after}` : ''}`)
    if (status !== 200) throw new Error(`GET /events answered ${status}: ${JSON.stringify(body)}`)
    events.push(...body.events)
    if (body.next_cursor === null) return events
    after = body.next_cursor
  }
}

async function leasedDeliveries(store: Store): Promise<number> {
  const now = new Date().toISOString()
  const { rows: [row] } = await store.read(() => statement<{ n: number }>(`select count(*) as n from webhook_deliveries where status = 'pending' and lease_until > ?`, [now]))
  return Number(row.n)
}

async function deliveryStatuses(store: Store): Promise<{ byStatus: Record<string, number>, attempts: number, mostAttempts: number }> {
  const { rows } = await store.read(() => statement<{ status: string, n: number, attempts: number, most: number }>(
    'select status, count(*) as n, sum(attempts) as attempts, max(attempts) as most from webhook_deliveries group by status', []))
  return {
    byStatus: Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])),
    attempts: rows.reduce((sum, r) => sum + Number(r.attempts), 0),
    mostAttempts: Math.max(0, ...rows.map((r) => Number(r.most))),
  }
}

/**
 * A real receiver of the webhooks, verifying every delivery with the Standard Webhooks
 * reference package, goes away while guests book and an operator confirms, declines and
 * cancels over several nodes: first it refuses connections, then it answers 503 slowly, and
 * during that phase the node whose attempt it is holding is SIGKILLed, then it takes requests
 * and never answers (each attempt ends at the sender's 15 s timeout). Then it comes back.
 * Every event of the feed must reach it (lost otherwise), and every acknowledged change must
 * have its event in the feed; an event taken twice is a duplicate, which at-least-once allows
 * only for the attempts in flight at an edge: one per node when the receiver went down, and
 * the killed node's.
 */
export async function webhooksDrill(options: WebhooksDrillOptions): Promise<DrillOutcome> {
  const outcome = emptyOutcome(options.title, options.postgresUrl ? 'PostgreSQL' : 'SQLite')
  const database = await freshDatabase(options.postgresUrl)
  const { dir, catalogPath } = drillCatalogFile(CAPACITY)
  const env = {
    DATABASE_URL: database.url, TOURDESK_CONFIG: catalogPath,
    TOURDESK_WEBHOOKS_ALLOW_PRIVATE: 'on', TOURDESK_WEBHOOK_RETRY_SCHEDULE: RETRY_SCHEDULE,
  }
  const servers: ServerProcess[] = []
  const live = new Set<ServerProcess>()
  let store: Store | null = null
  let receiver: WebhookReceiver | null = null
  let kill: Promise<KillRecord> | null = null
  let killArmed = false

  const killNode = (server: ServerProcess, inFlight: string | null): Promise<KillRecord> => {
    live.delete(server)
    return (async () => {
      const leased = await leasedDeliveries(store!)
      const at = performance.now()
      await server.stop('SIGKILL')
      return { node: servers.indexOf(server) + 1, inFlight, leased, at }
    })()
  }

  try {
    receiver = await startWebhookReceiver({
      slowMs: options.slowAnswerMs,
      // The node to kill is the one whose attempt the receiver holds: it dies with the attempt in flight and its lease on the rest of its batch.
      onRequest(id, remotePort) {
        if (!killArmed || receiver!.mode !== 'slow-503') return
        const pid = ownerOfConnection(remotePort, [...live].map((s) => s.child.pid!))
        const owner = [...live].find((s) => s.child.pid === pid)
        if (!owner || live.size < 2) return
        killArmed = false
        kill = killNode(owner, id)
      },
    })
    // The first node migrates alone; the others then start together.
    servers.push(await startServer(env))
    servers.push(...await Promise.all(Array.from({ length: options.nodes - 1 }, () => startServer(env))))
    for (const server of servers) live.add(server)
    store = await openStore(database.target, { migrate: false })
    const { secret: key } = await staffAuth(store, 'drill').createKey(instanceRef(catalogPath), { name: 'drill', role: 'manager' },
      { type: 'system', id: null, name: 'drill' }, Temporal.Now.instant())
    const api = () => operatorApi([...live][0].origin, PREFIX, key)

    const made = await api()('POST', '/webhooks', { url: receiver.url, events: [...EVENT_TYPES], description: 'fault drill receiver' })
    if (made.status !== 201) throw new Error(`POST /webhooks answered ${made.status}: ${JSON.stringify(made.body)}`)
    receiver.trust(made.body.secret)

    const guest = new ApiClient(servers[0].origin, PREFIX, null)
    const traffic = startEventTraffic({
      liveOrigins: () => [...live].map((s) => s.origin),
      prefix: PREFIX,
      key,
      instant: { tourId: INSTANT_TOUR, starts: await bookableStarts(guest, INSTANT_TOUR) },
      onRequest: { tourId: REQUEST_TOUR, starts: await bookableStarts(guest, REQUEST_TOUR) },
    }, options.traffic.workers, options.traffic.paceMs)

    const began = performance.now()
    const timeline: string[] = []
    // The hang comes last: a hung attempt holds its node for 15 s, and a node stuck in one would send nothing to the slow phase.
    for (const mode of ['accept', 'refuse', 'slow-503', 'hang'] as const) {
      if (options.phases[mode] === 0) continue
      timeline.push(`${mode} ${formatMs(options.phases[mode])}`)
      await receiver.setMode(mode)
      if (mode === 'slow-503' && options.killNode) killArmed = true
      await sleep(options.phases[mode])
      if (killArmed) {
        // No node's attempt was seen in flight: kill one anyway, so the drill always has its crash.
        killArmed = false
        kill = killNode([...live][live.size - 1], null)
      }
    }
    const killed = await kill
    await receiver.setMode('accept')
    const backAt = performance.now()
    const backlog = await wholeFeed(api())
    timeline.push(`accept again, traffic for ${formatMs(options.afterMs)} more`)
    await sleep(options.afterMs)
    const figures: TrafficFigures = await traffic.stop()

    const feed = await wholeFeed(api())
    const drainedBy = performance.now() + options.drainTimeoutMs
    const missing = () => feed.filter((e) => (receiver!.byId.get(e.id)?.accepted ?? 0) === 0)
    while (missing().length > 0 && performance.now() < drainedBy) await sleep(DRAIN_POLL_MS)
    const drainedAt = performance.now()
    // A clean stop finishes the runs in progress, their writes included, before the log is read.
    for (const server of live) await server.stop('SIGTERM')

    const lastBacklogTaken = Math.max(backAt, ...backlog.map((e) => receiver!.byId.get(e.id)?.firstAcceptedAt ?? Number.POSITIVE_INFINITY))
    outcome.recoverMs = Number.isFinite(lastBacklogTaken) ? lastBacklogTaken - backAt : null
    outcome.recoverNote = `the receiver back to every event made before then taken (${backlog.length} events)${killed ? ', the killed node\'s leases (30 s) lapsing on the way' : ''}`
    outcome.attempted = figures.sent
    outcome.acknowledged = figures.acknowledged

    const feedIds = new Set(feed.map((e) => e.id))
    const inFeed = new Set(feed.map((e) => `${e.type} ${e.data?.code}`))
    const unannounced = figures.promised.filter((p) => !inFeed.has(`${p.type} ${p.code}`))
    const undelivered = missing()
    outcome.lost = unannounced.length + undelivered.length
    if (unannounced.length > 0) outcome.failures.push(`${unannounced.length} acknowledged changes have no event in the feed, e.g. ${unannounced.slice(0, 3).map((p) => `${p.type} ${p.code}`).join(', ')}`)
    if (undelivered.length > 0) outcome.failures.push(`${undelivered.length} events of the feed never reached the receiver within ${formatMs(options.drainTimeoutMs)}, e.g. ${undelivered.slice(0, 3).map((e) => `${e.id} ${e.type}`).join(', ')}`)

    const strangers = [...receiver.byId.keys()].filter((id) => !feedIds.has(id))
    if (strangers.length > 0) outcome.failures.push(`${strangers.length} webhook-ids the feed does not hold, e.g. ${strangers.slice(0, 3).join(', ')}`)
    if (receiver.unverified.length > 0) outcome.failures.push(`${receiver.unverified.length} messages failed verification, e.g. ${receiver.unverified.slice(0, 2).join('; ')}`)
    const twice = [...receiver.byId].filter(([, r]) => r.accepted > 1)
    outcome.duplicated = twice.reduce((sum, [, r]) => sum + r.accepted - 1, 0)
    outcome.allowedDuplicates = options.nodes + (killed ? 1 : 0)

    const log = await deliveryStatuses(store)
    if ((log.byStatus.failed ?? 0) > 0) outcome.failures.push(`${log.byStatus.failed} deliveries ran out of retries (failed)`)
    for (const tour of [INSTANT_TOUR, REQUEST_TOUR]) {
      const seats = await checkSeats(store.db, tour)
      outcome.overCapacity += seats.overCapacity
      outcome.failures.push(...seats.seatMismatches.map((m) => `${tour} ${m}`))
    }

    const received = [...receiver.byId.values()].reduce((sum, r) => sum + r.received, 0)
    const byType = new Map<string, number>()
    for (const e of feed) byType.set(e.type, (byType.get(e.type) ?? 0) + 1)
    const failedKinds = new Map<string, number>()
    for (const f of figures.failed) failedKinds.set(f.replace(/\(.*\)$/, '(…)'), (failedKinds.get(f.replace(/\(.*\)$/, '(…)')) ?? 0) + 1)
    outcome.notes.push(
      `${options.nodes} nodes on one ${outcome.database} database; one endpoint subscribed to every event type, on a receiver at 127.0.0.1 that verifies each message with the standardwebhooks package; TOURDESK_WEBHOOK_RETRY_SCHEDULE=${RETRY_SCHEDULE}`,
      `receiver: ${timeline.join(' → ')} (slow 503s after ${formatMs(options.slowAnswerMs)}, with Retry-After: 1); all done ${formatMs(drainedAt - began)} after the traffic began`,
      `traffic: ${options.traffic.workers} workers, one action each ${options.traffic.paceMs} ms over every live node: ${figures.sent} checkouts and operator actions, ${figures.acknowledged} acknowledged${figures.failed.length > 0 ? `; not acknowledged: ${[...failedKinds].map(([k, n]) => `${n} × ${k}`).join(', ')}` : ''}`,
      killed
        ? `node ${killed.node} SIGKILLed ${formatMs(killed.at - began)} in, ${killed.inFlight ? `while the receiver held its attempt at ${killed.inFlight}` : 'no attempt of a node being seen in flight'}; ${killed.leased} deliveries were under a lease then`
        : 'no node was killed',
      `feed: ${feed.length} events (${[...byType].map(([t, n]) => `${n} ${t}`).join(', ')}); the receiver got ${received} POSTs for them and took ${receiver.acceptedTotal()} (${receiver.distinctAccepted()} distinct)`,
      `duplicates (an event taken more than once): ${outcome.duplicated}${twice.length > 0 ? ` (${twice.slice(0, 3).map(([id, r]) => `${id} ${r.accepted}×`).join(', ')})` : ''}; at-least-once allows ${outcome.allowedDuplicates}: one attempt in flight per node when the receiver went down${killed ? ', and the killed node\'s' : ''}`,
      `delivery log at the end: ${Object.entries(log.byStatus).map(([s, n]) => `${n} ${s}`).join(', ')}; ${log.attempts} attempts in all, at most ${log.mostAttempts} for one delivery`,
    )
  } finally {
    killArmed = false
    await kill
    for (const server of servers) await server.stop('SIGKILL')
    await receiver?.stop()
    await store?.close()
    await database.drop()
    rmSync(dir, { recursive: true, force: true })
  }
  return outcome
}
