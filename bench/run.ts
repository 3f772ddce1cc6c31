/**
 * `npm run bench [-- --quick] [-- --out DIR] [-- --note TEXT] [-- --only catalog-edits|webhooks|units|streams|octo]`:
 * measures the service against a bare Fastify ceiling on SQLite, and on PostgreSQL when it
 * is reachable, then prints the report and writes it as <date>.md and <date>.json (see
 * README, "Benchmarks"). `--only catalog-edits` runs issue 15's section alone, into
 * <date>-catalog-edits.md and .json; `--only webhooks` issue 16's; `--only units` issue 27's; `--only streams` issue 24's
 * stalled event streams; `--only octo` issue 28's reseller polls.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { Temporal } from 'temporal-polyfill'
import { todayIn } from '../src/domain/instant-format.ts'
import { BENCH_TIME_ZONE, writeBenchCatalog } from './catalog.ts'
import { measureCatalogEdits } from './catalog-edits.ts'
import { benchDatabase, type RunContext } from './database-run.ts'
import { postgresDatabase, postgresUnavailableReason, sqliteDatabase, type BenchDatabase } from './databases.ts'
import { measureStreams } from './event-streams.ts'
import { ROOT } from './node-process.ts'
import { measureOctoPolling } from './octo-polling.ts'
import { formatReport } from './report.ts'
import type { BenchReport, DatabaseResult, MeasuredDatabase } from './results-model.ts'
import { startCeiling } from './service.ts'
import { FULL, QUICK } from './settings.ts'
import { sourceTrees } from './source-trees.ts'
import { measureUnitsCost } from './units-cost.ts'
import { measureWebhooks } from './webhooks.ts'

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    out: { type: 'string' },
    note: { type: 'string' },
    only: { type: 'string' },
  },
})
/** The sections `--only` runs by themselves. */
const SECTIONS = ['catalog-edits', 'webhooks', 'units', 'streams', 'octo']
if (args.only !== undefined && !SECTIONS.includes(args.only)) {
  process.stderr.write(`--only takes ${SECTIONS.join(', ')}, not "${args.only}"\n`)
  process.exit(2)
}
const settings = args.quick ? QUICK : FULL
// Quick runs only prove the bench works, and a section alone is not the record of a build:
// their files go to the git-ignored test-output/.
const outDir = args.out ?? join(ROOT, args.quick || args.only ? 'test-output/bench' : 'bench/results')

const startedAt = new Date()
const loadAtStart = os.loadavg()[0]
const now = Temporal.Now.instant()
const today = todayIn(now, BENCH_TIME_ZONE)
const workDir = mkdtempSync(join(os.tmpdir(), 'tourdesk-bench-'))
const catalogs = new Map<number, string>()
const progress = (message: string) => process.stderr.write(`bench [${((Date.now() - startedAt.getTime()) / 1000).toFixed(1)} s]: ${message}\n`)

async function measure(dialect: MeasuredDatabase['dialect'], newDatabase: (name: string) => Promise<BenchDatabase>, ctx: RunContext): Promise<DatabaseResult> {
  try {
    if (args.only === 'catalog-edits') return { dialect, status: 'sections', catalogEdits: await measureCatalogEdits(newDatabase, ctx) }
    if (args.only === 'webhooks') return { dialect, status: 'sections', webhooks: await measureWebhooks(newDatabase, ctx) }
    if (args.only === 'units') return { dialect, status: 'sections', unitsCost: await measureUnitsCost(newDatabase, ctx) }
    if (args.only === 'streams') return { dialect, status: 'sections', streams: await measureStreams(newDatabase, ctx) }
    if (args.only === 'octo') return { dialect, status: 'sections', octoPolling: await measureOctoPolling(newDatabase, ctx) }
    return await benchDatabase(dialect, newDatabase, ctx)
  } catch (err) {
    progress(`${dialect} failed: ${(err as Error).stack}`)
    return { dialect, status: 'failed', reason: (err as Error).message.split('\n')[0] }
  }
}

const ceiling = await startCeiling(workDir)
const databases: DatabaseResult[] = []
try {
  const ctx: RunContext = {
    settings,
    now,
    today,
    tomorrow: today.add({ days: 1 }),
    ceiling,
    workDir,
    catalogPath(tours) {
      if (!catalogs.has(tours)) catalogs.set(tours, writeBenchCatalog(workDir, tours, today))
      return catalogs.get(tours)!
    },
    trees: sourceTrees(workDir),
    progress,
  }
  databases.push(await measure('sqlite', async (name) => sqliteDatabase(workDir, name), ctx))
  const postgresReason = await postgresUnavailableReason()
  if (postgresReason === null) {
    databases.push(await measure('postgres', postgresDatabase, ctx))
  } else {
    progress(`PostgreSQL: skipped (${postgresReason})`)
    databases.push({ dialect: 'postgres', status: 'skipped', reason: postgresReason })
  }
} finally {
  await ceiling.stop()
  rmSync(workDir, { recursive: true, force: true })
}

/** The commit measured, with `+changes` when the work tree differs from it; null outside a git checkout. */
function measuredCommit(): string | null {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim()
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--untracked-files=no') === '' ? '' : '+changes'}`
  } catch {
    return null
  }
}

const cpus = os.cpus()
const report: BenchReport = {
  date: startedAt.toISOString().slice(0, 10),
  startedAt: startedAt.toISOString(),
  finishedAt: new Date().toISOString(),
  mode: settings.mode,
  commit: measuredCommit(),
  note: args.note ?? null,
  machine: { cpus: cpus.length, cpuModel: cpus[0]?.model ?? 'unknown', memoryBytes: os.totalmem(), platform: `${os.type()} ${os.release()}`, node: process.version },
  loadAverage: { start: loadAtStart, end: os.loadavg()[0] },
  settings,
  only: args.only ?? null,
  databases,
}
const markdown = formatReport(report)
const fileBase = join(outDir, args.only ? `${report.date}-${args.only}` : report.date)
mkdirSync(outDir, { recursive: true })
writeFileSync(`${fileBase}.md`, markdown)
writeFileSync(`${fileBase}.json`, `${JSON.stringify(report, null, 2)}\n`)
process.stdout.write(`${markdown}\nWritten to ${fileBase}.md and .json\n`)
process.exitCode = databases.some((d) => d.status === 'failed') ? 1 : 0
