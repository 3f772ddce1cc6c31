import { startWebhookReceiver, type WebhookReceiver } from '../drill/webhook-receiver.ts'
import type { RunContext } from './database-run.ts'
import type { BenchDatabase } from './databases.ts'
import { measureLoad, type LoadFigures } from './load.ts'
import type { StartedProcess } from './node-process.ts'
import { createApiKey } from './operator-reads.ts'
import type { CycleVariant, OutboxCostResults } from './results-model.ts'
import { scenarios } from './scenarios.ts'
import { startService } from './service.ts'
import { medianFigures } from './statistics.ts'
import { commitBeforeOutbox, WITHOUT_EMAIL_PROJECTION, WITHOUT_OUTBOX, type SourceTree } from './source-trees.ts'
import { addEndpoint, drainDeliveries, PRIVATE_WEBHOOKS } from './webhook-endpoints.ts'

type NewDatabase = (name: string) => Promise<BenchDatabase>

/** Deliveries left after a fan-out round are given this long to reach the receivers before the next round. */
const DRAIN_TIMEOUT_MS = 180_000

interface RunningVariant {
  name: CycleVariant['name']
  label: string
  tree: SourceTree
  database: BenchDatabase
  service: StartedProcess
  rounds: LoadFigures[]
}

const firstLine = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]

/**
 * Issue 16: what the outbox adds to the checkout cycle (hold, then checkout; each checkout
 * writes one event). The service has no switch to turn events off, so the bench builds
 * versions of it side by side, each from its own copy of the sources in the scratch folder,
 * each on its own fresh database: the work tree as it is; the same without its email
 * projection (events written and read by webhook delivery, no emails made from them); the same
 * with its writes' events dropped where the store appends them; the last commit before the
 * outbox, which also lacks every change made since; and the work tree again with endpoints
 * subscribed to every event on receivers in this process, so each checkout fans out to them
 * and the node delivers while it takes checkouts. All run at once; each round measures them
 * in turn, starting with a different one each round, so that other work on the machine falls
 * on all alike; after a fan-out round its deliveries drain before the next measurement.
 */
export async function measureOutboxCost(newDatabase: NewDatabase, ctx: RunContext): Promise<OutboxCostResults> {
  const { webhooks: settings, connections, growth: { small } } = ctx.settings
  const cycle = scenarios(ctx.tomorrow).find((s) => s.name === 'hold-checkout')!
  const unavailable: string[] = []
  const running: RunningVariant[] = []
  const receivers: WebhookReceiver[] = []
  const drainSeconds: number[] = []

  const build = (label: string, make: () => SourceTree): SourceTree | null => {
    try {
      return make()
    } catch (err) {
      unavailable.push(`${label}: ${firstLine(err)}`)
      return null
    }
  }
  const start = async (name: CycleVariant['name'], label: string, tree: SourceTree) => {
    const database = await newDatabase(`cycle_${name.replace('-', '_')}`)
    try {
      const service = await startService({ databaseUrl: database.url, catalogPath: ctx.catalogPath(small.tours), logDir: ctx.workDir, root: tree.dir, env: PRIVATE_WEBHOOKS })
      const variant = { name, label, tree, database, service, rounds: [] }
      running.push(variant)
      return variant
    } catch (err) {
      await database.drop()
      throw err
    }
  }

  try {
    ctx.progress('webhooks: building the work tree with and without the outbox and its emails, and the commit before the outbox (once per run)')
    const current = build('the work tree', () => ctx.trees.workTree())
    if (!current) throw new Error(unavailable[0])
    const outboxOnly = build('the work tree without the email projection', () => ctx.trees.workTree(WITHOUT_EMAIL_PROJECTION))
    const stripped = build('the work tree without the outbox', () => ctx.trees.workTree(WITHOUT_OUTBOX))
    const before = build('the commit before the outbox', () => ctx.trees.commit(commitBeforeOutbox()))

    await start('outbox', 'with the outbox and the emails it makes', current)
    if (outboxOnly) await start('outbox-only', 'with the outbox, no emails made from it', outboxOnly)
    if (stripped) await start('no-outbox', 'without the outbox (same tree, its events dropped)', stripped)
    if (before) await start('before-outbox', 'the commit before the outbox', before)
    const fanOut = await start('fan-out', `with the outbox and ${settings.fanOutEndpoints} endpoints`, current)
    const key = await createApiKey(fanOut.database, ctx.now)
    for (let i = 0; i < settings.fanOutEndpoints; i++) {
      const receiver = await startWebhookReceiver()
      receivers.push(receiver)
      receiver.trust((await addEndpoint(fanOut.service, key, receiver.url)).secret)
    }

    const load = { connections, durationSeconds: settings.durationSeconds, warmupSeconds: settings.warmupSeconds }
    for (let round = 0; round < settings.cycleRounds; round++) {
      for (let i = 0; i < running.length; i++) {
        const variant = running[(round + i) % running.length]
        ctx.progress(`webhooks: checkout cycle ${variant.label}, round ${round + 1} of ${settings.cycleRounds}`)
        variant.rounds.push(await measureLoad({ ...await cycle.traffic(variant.service.baseUrl, connections), ...load }))
        if (variant === fanOut) drainSeconds.push(await drainDeliveries(fanOut.database, DRAIN_TIMEOUT_MS))
      }
    }
    const unverified = receivers.reduce((sum, r) => sum + r.unverified.length, 0)
    if (unverified > 0) throw new Error(`${unverified} deliveries failed the receivers' verification, e.g. ${receivers.flatMap((r) => r.unverified)[0]}`)

    return {
      request: cycle.request,
      connections,
      rounds: settings.cycleRounds,
      variants: running.map((v) => ({ name: v.name, label: v.label, source: v.tree.source, ...medianFigures(v.rounds), rounds: v.rounds })),
      fanOut: { endpoints: receivers.length, delivered: receivers.reduce((sum, r) => sum + r.acceptedTotal(), 0), drainSeconds },
      unavailable,
    }
  } finally {
    for (const variant of running) {
      await variant.service.stop()
      await variant.database.drop()
    }
    for (const receiver of receivers) await receiver.stop()
  }
}
