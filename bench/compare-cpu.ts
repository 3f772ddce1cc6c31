/**
 * `npx tsx bench/compare-cpu.ts --before COMMIT [scenario] [--db sqlite|postgres] [--rounds N] [--seconds N]`:
 * the CPU time the service spends, measured on the work tree and on another commit in one run.
 * Both are built from copies of the sources (bench/source-trees.ts); each round starts each
 * version on a fresh database of its own (the first version alternating between rounds), reads
 * the service's user + system CPU time (/proc) at its first answer and over the scenario's load
 * once warmed up (bench/load-cpu.ts), in all its threads and in its main thread, and stops it. On a machine shared with other work req/s and wall times follow the
 * neighbours; CPU time per request and per start follow the code. Prints the medians.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { Temporal } from 'temporal-polyfill'
import { todayIn } from '../src/domain/instant-format.ts'
import { openStore } from '../src/store/store.ts'
import { BENCH_TIME_ZONE, writeBenchCatalog } from './catalog.ts'
import { postgresDatabase, sqliteDatabase } from './databases.ts'
import { measureLoadCpu } from './load-cpu.ts'
import { readProcessCpuMs } from './process-cpu.ts'
import { scenarios } from './scenarios.ts'
import { seedBookings } from './seed.ts'
import { startService } from './service.ts'
import { FULL } from './settings.ts'
import { commitCopy, workTreeCopy, type SourceTree } from './source-trees.ts'
import { median } from './statistics.ts'

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    before: { type: 'string' },
    db: { type: 'string', default: 'sqlite' },
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: String(FULL.connections) },
  },
})
if (!args.before) throw new Error('--before COMMIT names the version to compare the work tree with')
const now = Temporal.Now.instant()
const today = todayIn(now, BENCH_TIME_ZONE)
const tomorrow = today.add({ days: 1 })
const name = positionals[0] ?? 'hold-checkout'
const scenario = scenarios(tomorrow).find((s) => s.name === name)
if (!scenario) throw new Error(`no scenario "${name}"; choose one of ${scenarios(tomorrow).map((s) => s.name).join(', ')}`)

interface Sample { startWallMs: number, startCpuMs: number | null, requestsPerSecond: number, cpuPerRequestUs: number | null, mainThreadPerRequestUs: number | null }

const workDir = mkdtempSync(join(os.tmpdir(), 'tourdesk-compare-'))
const { small } = FULL.growth
const catalogPath = writeBenchCatalog(workDir, small.tours, today)
const trees: SourceTree[] = []
const samples = new Map<SourceTree, Sample[]>()
let databases = 0

async function sample(tree: SourceTree): Promise<Sample> {
  const database = args.db === 'postgres' ? await postgresDatabase(`compare${++databases}`) : sqliteDatabase(workDir, `compare${++databases}`)
  try {
    const store = await openStore(database.target)
    await seedBookings(store, { ...small, today, now, windowStart: tomorrow, windowDays: 14 })
    await store.close()
    // The seed made the schema; a cold start is measured on an empty database of its own.
    const empty = args.db === 'postgres' ? await postgresDatabase(`compare${++databases}`) : sqliteDatabase(workDir, `compare${++databases}`)
    let startWallMs: number
    let startCpuMs: number | null
    try {
      const cold = await startService({ root: tree.dir, databaseUrl: empty.url, catalogPath, logDir: workDir })
      startWallMs = cold.coldStartMs
      startCpuMs = readProcessCpuMs(cold.pid)
      await cold.stop()
    } finally {
      await empty.drop()
    }
    const service = await startService({ root: tree.dir, databaseUrl: database.url, catalogPath, logDir: workDir })
    try {
      const connections = Number(args.connections)
      const traffic = await scenario!.traffic(service.baseUrl, connections)
      const figures = await measureLoadCpu(service.pid, { ...traffic, connections, durationSeconds: Number(args.seconds), warmupSeconds: 1 })
      return { startWallMs, startCpuMs, requestsPerSecond: figures.requestsPerSecond, cpuPerRequestUs: figures.cpuUs, mainThreadPerRequestUs: figures.mainThreadUs }
    } finally {
      await service.stop()
    }
  } finally {
    await database.drop()
  }
}

try {
  trees.push(workTreeCopy(workDir, 'after'), commitCopy(workDir, 'before', args.before))
  for (const tree of trees) samples.set(tree, [])
  for (let round = 0; round < Number(args.rounds); round++) {
    for (const tree of round % 2 === 0 ? trees : [...trees].reverse()) samples.get(tree)!.push(await sample(tree))
  }
} finally {
  for (const tree of trees) tree.remove()
  rmSync(workDir, { recursive: true, force: true })
}

const known = (values: (number | null)[]) => values.filter((v): v is number => v !== null)
const lines = [`${scenario.request} on ${args.db}, ${args.rounds} rounds of ${args.seconds} s at ${args.connections} connections (after 1 s of warm-up); 1-minute load average ${os.loadavg()[0].toFixed(1)} at the end`]
for (const tree of trees) {
  const runs = samples.get(tree)!
  const perRequest = known(runs.map((r) => r.cpuPerRequestUs))
  const mainThread = known(runs.map((r) => r.mainThreadPerRequestUs))
  lines.push(`${tree.source.padEnd(24)} CPU per request ${median(perRequest).toFixed(0)} µs (${perRequest.map((v) => v.toFixed(0)).join(' / ')}), `
    + `main thread ${median(mainThread).toFixed(0)} µs (${mainThread.map((v) => v.toFixed(0)).join(' / ')}), `
    + `${median(runs.map((r) => r.requestsPerSecond)).toFixed(0)} req/s; cold start ${median(runs.map((r) => r.startWallMs)).toFixed(0)} ms wall `
    + `(${runs.map((r) => r.startWallMs.toFixed(0)).join(' / ')}), ${median(known(runs.map((r) => r.startCpuMs))).toFixed(0)} ms CPU (${runs.map((r) => r.startCpuMs?.toFixed(0) ?? '?').join(' / ')})`)
}
process.stdout.write(`${lines.join('\n')}\n`)
