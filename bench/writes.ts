/**
 * `npx tsx bench/writes.ts [--db sqlite|postgres|both] [--seconds N] [--connections N]`: the
 * write cycles of `npm run bench` alone (hold-release, hold-checkout) against the ceiling,
 * on a fresh database, for measuring one change to the write path in a minute instead of
 * the full run's ten.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { Temporal } from 'temporal-polyfill'
import { todayIn } from '../src/domain/instant-format.ts'
import { BENCH_TIME_ZONE, writeBenchCatalog } from './catalog.ts'
import { postgresDatabase, sqliteDatabase, type BenchDatabase } from './databases.ts'
import { measureLoad } from './load.ts'
import { scenarios } from './scenarios.ts'
import { startCeiling, startService } from './service.ts'
import { FULL } from './settings.ts'

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: String(FULL.connections) },
  },
})
const load = { connections: Number(args.connections), durationSeconds: Number(args.seconds), warmupSeconds: 2 }
const today = todayIn(Temporal.Now.instant(), BENCH_TIME_ZONE)
const tomorrow = today.add({ days: 1 })
const workDir = mkdtempSync(join(os.tmpdir(), 'tourdesk-writes-'))
const catalogPath = writeBenchCatalog(workDir, FULL.growth.small.tours, today)
const writes = scenarios(tomorrow).filter((s) => s.kind === 'write')

const ceiling = await startCeiling(workDir)
try {
  const ceilingFigures = await measureLoad({ url: `${ceiling.baseUrl}/`, ...load })
  process.stdout.write(`ceiling: ${Math.round(ceilingFigures.requestsPerSecond)} req/s\n`)
  const databases: Array<[string, () => Promise<BenchDatabase>]> = []
  if (args.db !== 'postgres') databases.push(['SQLite', async () => sqliteDatabase(workDir, 'writes')])
  if (args.db !== 'sqlite') databases.push(['PostgreSQL', () => postgresDatabase('writes')])
  for (const [name, newDatabase] of databases) {
    const database = await newDatabase()
    const service = await startService({ databaseUrl: database.url, catalogPath, logDir: workDir })
    try {
      for (const scenario of writes) {
        const figures = await measureLoad({ ...await scenario.traffic(service.baseUrl, load.connections), ...load })
        const ratio = (figures.requestsPerSecond / ceilingFigures.requestsPerSecond).toFixed(3)
        process.stdout.write(`${name} ${scenario.name}: ${Math.round(figures.requestsPerSecond)} req/s (${ratio} of ceiling), `
          + `p50 ${figures.latencyMs.p50} ms, p99 ${figures.latencyMs.p99} ms, errors ${figures.errors} ${JSON.stringify(figures.statusCodes)}, `
          + `peak RSS so far ${Math.round((service.peakRssBytes() ?? 0) / 1e6)} MB\n`)
      }
    } finally {
      await service.stop()
      await database.drop()
    }
  }
} finally {
  await ceiling.stop()
  rmSync(workDir, { recursive: true, force: true })
}
