import { execFileSync } from 'node:child_process'
import type { Temporal } from 'temporal-polyfill'
import { openStore } from '../src/store/store.ts'
import { measureCatalogEdits } from './catalog-edits.ts'
import type { BenchDatabase } from './databases.ts'
import { measureStreams } from './event-streams.ts'
import { measureLoad, type LoadFigures } from './load.ts'
import type { StartedProcess } from './node-process.ts'
import { measureOperator } from './operator-reads.ts'
import type { EndpointResult, GrowthResult, MeasuredDatabase, OperatorResults } from './results-model.ts'
import { scenarios, type Scenario } from './scenarios.ts'
import { seedBookings } from './seed.ts'
import { startService } from './service.ts'
import type { BenchSettings, DatabaseSize } from './settings.ts'
import type { SourceTrees } from './source-trees.ts'
import { medianFigures } from './statistics.ts'
import { measureOctoPolling } from './octo-polling.ts'
import { measureUnitsCost } from './units-cost.ts'
import { measureWebhooks } from './webhooks.ts'

export interface RunContext {
  settings: BenchSettings
  now: Temporal.Instant
  today: Temporal.PlainDate
  tomorrow: Temporal.PlainDate
  ceiling: StartedProcess
  /** Scratch folder of this run: catalogs, SQLite files, service logs. */
  workDir: string
  /** The catalog file for a number of tours. */
  catalogPath(tours: number): string
  /** Other versions of the service, built in the scratch folder once per run. */
  trees: SourceTrees
  progress(message: string): void
}

type NewDatabase = (name: string) => Promise<BenchDatabase>

/** Length of the window availability is read on, which the seed fills identically at every size. */
const MEASURED_WINDOW_DAYS = 14

/** Seeds through the store (migrating a fresh database first) and returns the seconds it took. */
async function seed(database: BenchDatabase, size: DatabaseSize, ctx: RunContext): Promise<number> {
  ctx.progress(`seeding ${size.bookings.toLocaleString('en')} bookings over ${size.tours.toLocaleString('en')} tours`)
  const startedAt = performance.now()
  const store = await openStore(database.target)
  try {
    await seedBookings(store, { ...size, today: ctx.today, now: ctx.now, windowStart: ctx.tomorrow, windowDays: MEASURED_WINDOW_DAYS })
  } finally {
    await store.close()
  }
  // A million seeded rows leave the kernel with a lot of writing to do; measuring while it
  // writes them back would charge that to whichever endpoint runs first.
  execFileSync('sync')
  return (performance.now() - startedAt) / 1000
}

function serve(database: BenchDatabase, size: DatabaseSize, ctx: RunContext, env?: Record<string, string>): Promise<StartedProcess> {
  return startService({ databaseUrl: database.url, catalogPath: ctx.catalogPath(size.tours), logDir: ctx.workDir, env })
}

/** Growth compares database reads, so these services read every answer afresh instead of reusing kept ones. */
const READ_EVERY_TIME = { TOURDESK_REUSE_ANSWERS: 'off' }

/** Further starts on fresh, empty databases, stopped at once: more samples of the cold start. */
async function moreColdStarts(count: number, newDatabase: NewDatabase, ctx: RunContext): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < count; i++) {
    const database = await newDatabase(`cold${i}`)
    try {
      const service = await serve(database, ctx.settings.growth.small, ctx)
      times.push(service.coldStartMs)
      await service.stop()
    } finally {
      await database.drop()
    }
  }
  return times
}

async function measureScenario(scenario: Scenario, service: StartedProcess, load: { connections: number, durationSeconds: number, warmupSeconds: number }) {
  return measureLoad({ ...await scenario.traffic(service.baseUrl, load.connections), ...load })
}

/**
 * Availability and search on the small and the large database, both served at once and
 * measured in turn, so that load from outside the bench falls on both alike.
 */
async function measureGrowth(small: StartedProcess, large: StartedProcess, ctx: RunContext): Promise<GrowthResult[]> {
  const { growth } = ctx.settings
  const measured = scenarios(ctx.tomorrow).filter((s) => s.name === 'availability-14' || s.name === 'search')
  const runs = new Map<string, LoadFigures[]>()
  for (let round = 0; round < growth.rounds; round++) {
    for (const scenario of measured) {
      for (const [size, service] of [['small', small], ['large', large]] as const) {
        ctx.progress(`growth: ${scenario.name} on the ${size} database, round ${round + 1} of ${growth.rounds}`)
        const figures = await measureScenario(scenario, service, growth)
        runs.set(`${scenario.name}/${size}`, [...runs.get(`${scenario.name}/${size}`) ?? [], figures])
      }
    }
  }
  return measured.map((scenario) => {
    const smallFigures = medianFigures(runs.get(`${scenario.name}/small`)!)
    const largeFigures = medianFigures(runs.get(`${scenario.name}/large`)!)
    return {
      name: scenario.name,
      request: scenario.request,
      small: smallFigures,
      large: largeFigures,
      meanLatencyRatio: largeFigures.latencyMs.mean / smallFigures.latencyMs.mean,
      p99LatencyRatio: largeFigures.latencyMs.p99 / smallFigures.latencyMs.p99,
    }
  })
}

/** Issue 13's operator reads on a database of their own, seeded for them, then dropped. */
async function measureOperatorReads(newDatabase: NewDatabase, ctx: RunContext): Promise<OperatorResults> {
  const { size } = ctx.settings.operator
  const database = await newDatabase('operator')
  let service: StartedProcess | undefined
  try {
    const seedSeconds = await seed(database, size, ctx)
    service = await serve(database, size, ctx)
    return await measureOperator(service, database, ctx, seedSeconds)
  } finally {
    await service?.stop()
    await database.drop()
  }
}

/**
 * Every figure of one database. The main service starts on a fresh database (its start is
 * the first cold start), gets the small seed, and serves the reads, then the writes, which
 * add bookings. Between them, two more services that reuse no answers, on the small and
 * the large seed, give the growth comparison. Last, with those stopped and the large
 * database gone, the operator's reads get a database and a service of their own, and so do
 * the catalog edits (catalog-edits.ts), the webhooks (webhooks.ts) and the cost of price
 * categories (units-cost.ts), and a reseller's polls (octo-polling.ts); a full run ends with
 * the stalled event streams (event-streams.ts), which a quick run leaves out.
 */
export async function benchDatabase(dialect: MeasuredDatabase['dialect'], newDatabase: NewDatabase, ctx: RunContext): Promise<MeasuredDatabase> {
  const { settings } = ctx
  const { small, large } = settings.growth
  const mainDatabase = await newDatabase('main')
  const largeDatabase = await newDatabase('large')
  let main: StartedProcess | undefined
  let smallService: StartedProcess | undefined
  let largeService: StartedProcess | undefined
  try {
    ctx.progress(`${dialect}: starting the service on a fresh database`)
    main = await serve(mainDatabase, small, ctx)
    const startRssBytes = main.peakRssBytes()
    const coldStartsMs = [main.coldStartMs, ...await moreColdStarts(settings.coldStarts - 1, newDatabase, ctx)]
    const smallSeedSeconds = await seed(mainDatabase, small, ctx)
    const largeSeedSeconds = await seed(largeDatabase, large, ctx)
    smallService = await serve(mainDatabase, small, ctx, READ_EVERY_TIME)
    largeService = await serve(largeDatabase, large, ctx, READ_EVERY_TIME)

    ctx.progress(`${dialect}: ceiling (bare Fastify)`)
    const ceiling = await measureLoad({ url: `${ctx.ceiling.baseUrl}/`, connections: settings.connections, durationSeconds: settings.durationSeconds, warmupSeconds: settings.warmupSeconds })
    const endpoint = async (scenario: Scenario): Promise<EndpointResult> => {
      ctx.progress(`${dialect}: ${scenario.name}`)
      const figures = await measureScenario(scenario, main!, settings)
      const { name, request, kind } = scenario
      return {
        name, request, kind, connections: settings.connections, ...figures,
        ratioToCeiling: figures.requestsPerSecond / ceiling.requestsPerSecond,
        peakRssBytes: main!.peakRssBytes(),
      }
    }
    const endpoints: EndpointResult[] = []
    for (const scenario of scenarios(ctx.tomorrow).filter((s) => s.kind === 'read')) endpoints.push(await endpoint(scenario))
    const growthEndpoints = await measureGrowth(smallService, largeService, ctx)
    const largePeakRssBytes = largeService.peakRssBytes()
    const smallPeakRssBytes = smallService.peakRssBytes()
    await largeService.stop()
    await smallService.stop()
    for (const scenario of scenarios(ctx.tomorrow).filter((s) => s.kind === 'write')) endpoints.push(await endpoint(scenario))
    const peakRssBytes = main.peakRssBytes()
    await main.stop()
    await largeDatabase.drop()
    const operator = await measureOperatorReads(newDatabase, ctx)
    const catalogEdits = await measureCatalogEdits(newDatabase, ctx)
    const webhooks = await measureWebhooks(newDatabase, ctx)
    const unitsCost = await measureUnitsCost(newDatabase, ctx)
    const octoPolling = await measureOctoPolling(newDatabase, ctx)
    const streams = settings.mode === 'full' ? await measureStreams(newDatabase, ctx) : undefined

    return {
      dialect,
      status: 'measured',
      ceiling,
      coldStartsMs,
      peakRssBytes,
      startRssBytes,
      endpoints,
      growth: {
        sizes: {
          small: { ...small, seedSeconds: smallSeedSeconds, coldStartMs: smallService.coldStartMs, peakRssBytes: smallPeakRssBytes },
          large: { ...large, seedSeconds: largeSeedSeconds, coldStartMs: largeService.coldStartMs, peakRssBytes: largePeakRssBytes },
        },
        endpoints: growthEndpoints,
      },
      operator,
      catalogEdits,
      webhooks,
      unitsCost,
      streams,
      octoPolling,
    }
  } finally {
    await largeService?.stop()
    await smallService?.stop()
    await main?.stop()
    await largeDatabase.drop()
    await mainDatabase.drop()
  }
}
