/**
 * `npx tsx bench/profile.ts [scenario] [--db sqlite|postgres] [--seconds N] [--connections N]`:
 * drives one bench scenario (default hold-release; `octo-calendar`: a reseller's 90-day
 * calendar poll, as `npm run bench -- --only octo` measures it) against the service (on SQLite unless
 * told) started with `node --cpu-prof`, then prints where the service's CPU time went (`--seconds 0`:
 * no load, the start-up alone, as the bench's cold start measures it). The .cpuprofile is
 * kept under test-output/bench/profiles/ for Chrome DevTools or speedscope. It also prints the
 * service's CPU time (user + system) per request served and at its first answer: on a shared
 * machine req/s says as much about the neighbours as about the service; CPU time per request
 * does not.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { Temporal } from 'temporal-polyfill'
import { todayIn } from '../src/domain/instant-format.ts'
import { openStore } from '../src/store/store.ts'
import { BENCH_TIME_ZONE, writeBenchCatalog } from './catalog.ts'
import { bundleModules, summarizeProfile, type CpuProfile, type TimeShare } from './cpu-profile-summary.ts'
import { postgresDatabase, sqliteDatabase } from './databases.ts'
import { measureLoadCpu, type LoadCpuFigures } from './load-cpu.ts'
import { ROOT } from './node-process.ts'
import { readProcessCpuMs } from './process-cpu.ts'
import { scenarios } from './scenarios.ts'
import { octoCalendarScenario } from './octo-polling.ts'
import { seedBookings } from './seed.ts'
import { startService } from './service.ts'
import { FULL } from './settings.ts'

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: { db: { type: 'string', default: 'sqlite' }, seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: String(FULL.connections) } },
})
const now = Temporal.Now.instant()
const today = todayIn(now, BENCH_TIME_ZONE)
const tomorrow = today.add({ days: 1 })
const name = positionals[0] ?? 'hold-release'
// The OCTo poll needs a reseller key, made on the profiled database once it exists.
const known = [...scenarios(tomorrow), octoCalendarScenario(today, () => database.target, now)]
const scenario = known.find((s) => s.name === name)
if (!scenario) throw new Error(`no scenario "${name}"; choose one of ${known.map((s) => s.name).join(', ')}`)

const workDir = mkdtempSync(join(os.tmpdir(), 'tourdesk-profile-'))
const profileDir = join(workDir, 'profile')
const database = args.db === 'postgres' ? await postgresDatabase('profile') : sqliteDatabase(workDir, 'profile')
const { small } = FULL.growth
let summaryLines: string[]
try {
  const store = await openStore(database.target)
  await seedBookings(store, { ...small, today, now, windowStart: tomorrow, windowDays: 14 })
  await store.close()
  const service = await startService({
    databaseUrl: database.url,
    catalogPath: writeBenchCatalog(workDir, small.tours, today),
    logDir: workDir,
    nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profileDir],
  })
  const startCpuMs = readProcessCpuMs(service.pid)
  let figures: LoadCpuFigures | null = null
  try {
    const connections = Number(args.connections)
    if (Number(args.seconds) > 0) {
      const traffic = await scenario.traffic(service.baseUrl, connections)
      figures = await measureLoadCpu(service.pid, { ...traffic, connections, durationSeconds: Number(args.seconds), warmupSeconds: 0 })
    }
  } finally {
    await service.stop()
  }
  const [file] = readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile'))
  const keptDir = join(ROOT, 'test-output/bench/profiles')
  mkdirSync(keptDir, { recursive: true })
  const kept = join(keptDir, `${name}-${Date.now()}.cpuprofile`)
  copyFileSync(join(profileDir, file), kept)
  const summary = summarizeProfile(JSON.parse(readFileSync(kept, 'utf8')) as CpuProfile, 20, { file: '/dist/server.js', modules: bundleModules(join(ROOT, 'dist/server.js')) })
  const rows = (shares: TimeShare[]) => shares.map((s) => `  ${(100 * s.share).toFixed(1).padStart(5)} %  ${s.ms.toFixed(0).padStart(7)} ms  ${s.name}`)
  summaryLines = [
    ...figures === null ? [] : [
      `${scenario.request}: ${figures.requestsPerSecond.toFixed(0)} req/s, p50 ${figures.latencyMs.p50} ms, p99 ${figures.latencyMs.p99} ms, ${figures.errors} errors`,
      `service CPU under load: ${figures.cpuUs === null ? '?' : `${figures.cpuUs.toFixed(0)} µs per request (main thread ${figures.mainThreadUs!.toFixed(0)} µs), ${figures.requests} requests`}`,
    ],
    `cold start: first answer ${service.coldStartMs.toFixed(0)} ms after spawn, ${startCpuMs === null ? '?' : startCpuMs.toFixed(0)} ms of CPU by then (with --cpu-prof)`,
    `service CPU profile: ${(summary.totalMs / 1000).toFixed(1)} s sampled (start-up and shutdown included), kept at ${kept}`,
    'self time by area:',
    ...rows(summary.byArea),
    'self time by function:',
    ...rows(summary.byFunction),
    'time with a function of src/ on the stack:',
    ...rows(summary.inclusiveOurs),
    'time with an area on the stack:',
    ...rows(summary.inclusiveByArea),
  ]
} finally {
  await database.drop()
  rmSync(workDir, { recursive: true, force: true })
}
process.stdout.write(`${summaryLines.join('\n')}\n`)
