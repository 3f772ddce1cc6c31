import type { Temporal } from 'temporal-polyfill'
import { openStore } from '../src/store/store.ts'
import { staffAuth } from '../src/services/staff-auth.ts'
import { BENCH_PREFIX, BENCH_REF, MEASURED_TOUR } from './catalog.ts'
import type { RunContext } from './database-run.ts'
import type { BenchDatabase } from './databases.ts'
import { measureLoad, type LoadFigures } from './load.ts'
import type { StartedProcess } from './node-process.ts'
import type { OctoPollingResults } from './results-model.ts'
import type { Scenario, Traffic } from './scenarios.ts'
import { startService } from './service.ts'
import { commitBefore, type SourceTree } from './source-trees.ts'
import { median, medianFigures } from './statistics.ts'

type NewDatabase = (name: string) => Promise<BenchDatabase>

/** The test the kept OCTo answers came with: the commit before it is the one measured beside the work tree. */
const KEPT_OCTO_ANSWERS_TEST = 'test/octo/calendar-freshness.test.ts'
/** The test the cheaper kept poll came with (one change-token read per turn on SQLite): the commit before it is measured too. */
const CHEAPER_POLL_TEST = 'test/store/change-token.test.ts'
/** Days a reseller polls ahead, the figure. */
const POLLED_DAYS = 90

interface RunningVersion {
  label: string
  tree: SourceTree
  database: BenchDatabase
  service: StartedProcess
  key: string
  rounds: Record<string, LoadFigures[]>
}

/**
 * A reseller key with a commission, as a reseller polls with (pricing net of it), written once
 * the version's own service has migrated its database: the versions' schemas differ (a newer
 * migration is unknown to the older one), and the key's table is the same in both.
 */
export async function resellerKeySecret(target: BenchDatabase['target'], now: Temporal.Instant): Promise<string> {
  const store = await openStore(target, { migrate: false })
  try {
    const { secret } = await staffAuth(store, 'bench').createKey(BENCH_REF, { name: 'bench reseller', role: 'reseller', commission_percent: 20 },
      { type: 'system', id: null, name: 'bench' }, now)
    return secret
  } finally {
    await store.close()
  }
}

/**
 * The polls measured: the 90-day calendar of one product as a reseller's HTTP client asks for
 * it (taking gzip) and without gzip, and its departures over the same days (taking gzip).
 */
function polls(today: Temporal.PlainDate) {
  const range = { productId: MEASURED_TOUR, optionId: 'DEFAULT', localDateStart: today.toString(), localDateEnd: today.add({ days: POLLED_DAYS - 1 }).toString() }
  const gzip = { 'accept-encoding': 'gzip' }
  return [
    { name: 'calendar-90', request: `POST /octo/{instance}/availability/calendar (${POLLED_DAYS} days, octo/pricing, gzip taken)`, path: '/availability/calendar', body: range, headers: gzip },
    { name: 'calendar-90-identity', request: `POST /octo/{instance}/availability/calendar (${POLLED_DAYS} days, octo/pricing, no gzip)`, path: '/availability/calendar', body: range, headers: {} },
    { name: 'availability-90', request: `POST /octo/{instance}/availability (${POLLED_DAYS} days, octo/pricing, gzip taken)`, path: '/availability', body: range, headers: gzip },
  ]
}

/** One poll as autocannon sends it, with a reseller key's secret. */
function pollTraffic(baseUrl: string, secret: string, poll: ReturnType<typeof polls>[number]): Traffic {
  const url = `${new URL(baseUrl).origin}/octo/${BENCH_PREFIX}${poll.path}`
  const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'octo-capabilities': 'octo/pricing', ...poll.headers }
  return { url, requests: [{ method: 'POST', path: new URL(url).pathname, headers, body: JSON.stringify(poll.body) }] }
}

/** The 90-day calendar poll (gzip taken) as a scenario of bench/profile.ts, with a reseller key made on the database given. */
export function octoCalendarScenario(today: Temporal.PlainDate, target: () => BenchDatabase['target'], now: Temporal.Instant): Scenario {
  const [calendar] = polls(today)
  return { name: 'octo-calendar', request: calendar.request, kind: 'read', traffic: async (base) => pollTraffic(base, await resellerKeySecret(target(), now), calendar) }
}

/**
 * Issue 28, item 5: resellers poll months ahead every few minutes. The 90-day calendar and the
 * 90 days of departures, polled with a reseller key at the main run's connections, on the work
 * tree, on the commit before kept OCTo answers and on the one before the cheaper kept poll,
 * built side by side from copies of the sources, each on a fresh database of its own, all
 * running at once; each round also
 * measures the ceiling, and each version's share of it is the median of its rounds' shares, so
 * other work on the machine falls on the ceiling and the versions alike.
 */
export async function measureOctoPolling(newDatabase: NewDatabase, ctx: RunContext): Promise<OctoPollingResults> {
  const { octoPolling: settings, connections } = ctx.settings
  const requests = polls(ctx.today)
  const running: RunningVersion[] = []
  try {
    ctx.progress('octo: building the work tree and the two commits it is compared with (once per run)')
    const trees = [ctx.trees.workTree(), ctx.trees.commit(commitBefore(KEPT_OCTO_ANSWERS_TEST)), ctx.trees.commit(commitBefore(CHEAPER_POLL_TEST))]
    const labels = ['kept answers (the work tree)', 'the commit before kept OCTo answers', 'kept answers, before the cheaper poll']
    for (const [i, tree] of trees.entries()) {
      const database = await newDatabase(`octo_${i}`)
      try {
        const service = await startService({ databaseUrl: database.url, catalogPath: ctx.catalogPath(ctx.settings.growth.small.tours), logDir: ctx.workDir, root: tree.dir })
        const version: RunningVersion = { label: labels[i], tree, database, service, key: '', rounds: {} }
        running.push(version)
        version.key = await resellerKeySecret(database.target, ctx.now)
      } catch (err) {
        await database.drop()
        throw err
      }
    }
    const load = { connections, durationSeconds: settings.durationSeconds, warmupSeconds: settings.warmupSeconds }
    const ceilingRounds: LoadFigures[] = []
    for (let round = 0; round < settings.rounds; round++) {
      ctx.progress(`octo: ceiling, round ${round + 1} of ${settings.rounds}`)
      ceilingRounds.push(await measureLoad({ url: ctx.ceiling.baseUrl, ...load }))
      for (let i = 0; i < running.length; i++) {
        const version = running[(round + i) % running.length]
        for (const poll of requests) {
          ctx.progress(`octo: ${poll.name} ${version.label}, round ${round + 1} of ${settings.rounds}`)
          const figures = await measureLoad({ ...pollTraffic(version.service.baseUrl, version.key, poll), ...load })
          ;(version.rounds[poll.name] ??= []).push(figures)
        }
      }
    }
    return {
      connections,
      rounds: settings.rounds,
      ceiling: { ...medianFigures(ceilingRounds), rounds: ceilingRounds },
      requests: requests.map((poll) => ({
        name: poll.name,
        request: poll.request,
        versions: running.map((v) => ({
          label: v.label,
          source: v.tree.source,
          ...medianFigures(v.rounds[poll.name]),
          ratioToCeiling: median(v.rounds[poll.name].map((figures, round) => figures.requestsPerSecond / ceilingRounds[round].requestsPerSecond)),
          rounds: v.rounds[poll.name],
        })),
      })),
    }
  } finally {
    for (const version of running) {
      await version.service.stop()
      await version.database.drop()
    }
  }
}
