import type { Temporal } from 'temporal-polyfill'
import { openStore } from '../src/store/store.ts'
import type { BenchDatabase } from './databases.ts'
import { measureLoad, type LoadFigures } from './load.ts'
import type { StartedProcess } from './node-process.ts'
import type { EndpointResult, GrowthResult, GrowthSizeResult, MeasuredDatabase } from './results-model.ts'
import { scenarios, type Scenario } from './scenarios.ts'
import { seedBookings } from './seed.ts'
import { startService } from './service.ts'
import type { BenchSettings, DatabaseSize } from './settings.ts'

export interface RunContext {
  settings: BenchSettings
  now: Temporal.Instant
  today: Temporal.PlainDate
  tomorrow: Temporal.PlainDate
  ceiling: StartedProcess
  /** The catalog file for a number of tours. */
  catalogPath(tours: number): string
  progress(message: string): void
}

/** Length of the window availability is read on, which the seed fills identically at every size. */
const MEASURED_WINDOW_DAYS = 14

async function seeded(database: BenchDatabase, size: DatabaseSize, ctx: RunContext): Promise<number> {
  const startedAt = performance.now()
  const store = await openStore(database.target)
  try {
    await seedBookings(store, {
      ...size, today: ctx.today, now: ctx.now, windowStart: ctx.tomorrow, windowDays: MEASURED_WINDOW_DAYS,
    })
  } finally {
    await store.close()
  }
  return (performance.now() - startedAt) / 1000
}

async function coldStarts(newDatabase: (name: string) => Promise<BenchDatabase>, ctx: RunContext): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < ctx.settings.coldStarts; i++) {
    const database = await newDatabase(`cold${i}`)
    try {
      const service = await startService(database.url, ctx.catalogPath(ctx.settings.growth.small.tours))
      times.push(service.coldStartMs)
      await service.stop()
    } finally {
      await database.drop()
    }
  }
  return times
}

async function measureScenario(scenario: Scenario, service: StartedProcess, connections: number, durationSeconds: number, warmupSeconds: number) {
  const traffic = await scenario.traffic(service.baseUrl, connections)
  return measureLoad({ ...traffic, connections, durationSeconds, warmupSeconds })
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

function medianFigures(runs: LoadFigures[]): LoadFigures {
  const statusCodes: Record<string, number> = {}
  for (const run of runs) for (const [code, count] of Object.entries(run.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count
  return {
    requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
    latencyMs: {
      p50: median(runs.map((r) => r.latencyMs.p50)),
      p99: median(runs.map((r) => r.latencyMs.p99)),
      max: Math.max(...runs.map((r) => r.latencyMs.max)),
      mean: median(runs.map((r) => r.latencyMs.mean)),
    },
    requests: runs.reduce((sum, r) => sum + r.requests, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    statusCodes,
  }
}

/**
 * Availability and search on a small and a large database, both served at once and
 * measured in turn, so that load from outside the bench falls on both alike.
 */
async function measureGrowth(newDatabase: (name: string) => Promise<BenchDatabase>, ctx: RunContext): Promise<MeasuredDatabase['growth']> {
  const { growth } = ctx.settings
  const sizes = { small: growth.small, large: growth.large }
  const started: { name: 'small' | 'large', database: BenchDatabase, service?: StartedProcess, seedSeconds: number }[] = []
  try {
    for (const name of ['small', 'large'] as const) {
      ctx.progress(`growth: seeding ${sizes[name].bookings.toLocaleString('en')} bookings, ${sizes[name].tours.toLocaleString('en')} tours`)
      const database = await newDatabase(`growth_${name}`)
      started.push({ name, database, seedSeconds: 0 })
      started[started.length - 1].seedSeconds = await seeded(database, sizes[name], ctx)
    }
    for (const entry of started) entry.service = await startService(entry.database.url, ctx.catalogPath(sizes[entry.name].tours))
    const measured = scenarios(ctx.tomorrow).filter((s) => s.name === 'availability-14' || s.name === 'search')
    const runs = new Map<string, LoadFigures[]>()
    for (let round = 0; round < growth.rounds; round++) {
      for (const scenario of measured) {
        for (const entry of started) {
          ctx.progress(`growth: ${scenario.name} on ${entry.name}, round ${round + 1} of ${growth.rounds}`)
          const figures = await measureScenario(scenario, entry.service!, growth.connections, growth.durationSeconds, growth.warmupSeconds)
          const key = `${scenario.name}/${entry.name}`
          runs.set(key, [...runs.get(key) ?? [], figures])
        }
      }
    }
    const sizeResult = (name: 'small' | 'large'): GrowthSizeResult => {
      const entry = started.find((e) => e.name === name)!
      return { ...sizes[name], seedSeconds: entry.seedSeconds, coldStartMs: entry.service!.coldStartMs, peakRssBytes: entry.service!.peakRssBytes() }
    }
    const endpoints: GrowthResult[] = measured.map((scenario) => {
      const small = medianFigures(runs.get(`${scenario.name}/small`)!)
      const large = medianFigures(runs.get(`${scenario.name}/large`)!)
      return {
        name: scenario.name,
        request: scenario.request,
        small,
        large,
        meanLatencyRatio: large.latencyMs.mean / small.latencyMs.mean,
        p99LatencyRatio: large.latencyMs.p99 / small.latencyMs.p99,
      }
    })
    return { sizes: { small: sizeResult('small'), large: sizeResult('large') }, endpoints }
  } finally {
    for (const entry of started) {
      await entry.service?.stop()
      await entry.database.drop()
    }
  }
}

/** Every figure of one database: cold start, the ceiling, each endpoint, growth. */
export async function benchDatabase(
  dialect: MeasuredDatabase['dialect'],
  newDatabase: (name: string) => Promise<BenchDatabase>,
  ctx: RunContext,
): Promise<MeasuredDatabase> {
  const { settings } = ctx
  ctx.progress(`${dialect}: cold start on a fresh database (${settings.coldStarts}×)`)
  const coldStartsMs = await coldStarts(newDatabase, ctx)

  ctx.progress(`${dialect}: ceiling (bare Fastify)`)
  const ceiling = await measureLoad({ url: `${ctx.ceiling.baseUrl}/`, connections: settings.connections, durationSeconds: settings.durationSeconds, warmupSeconds: settings.warmupSeconds })

  const database = await newDatabase('main')
  const endpoints: EndpointResult[] = []
  let peakRssBytes: number | null
  try {
    await seeded(database, settings.growth.small, ctx)
    const service = await startService(database.url, ctx.catalogPath(settings.growth.small.tours))
    try {
      for (const scenario of scenarios(ctx.tomorrow)) {
        ctx.progress(`${dialect}: ${scenario.name}`)
        const figures = await measureScenario(scenario, service, settings.connections, settings.durationSeconds, settings.warmupSeconds)
        endpoints.push({
          name: scenario.name,
          request: scenario.request,
          kind: scenario.kind,
          connections: settings.connections,
          ...figures,
          ratioToCeiling: figures.requestsPerSecond / ceiling.requestsPerSecond,
        })
      }
      peakRssBytes = service.peakRssBytes()
    } finally {
      await service.stop()
    }
  } finally {
    await database.drop()
  }

  const growth = await measureGrowth(newDatabase, ctx)
  return { dialect, status: 'measured', ceiling, coldStartsMs, peakRssBytes, endpoints, growth }
}
