import type { RunContext } from './database-run.ts'
import type { BenchDatabase } from './databases.ts'
import { measureLoad, type LoadFigures } from './load.ts'
import type { StartedProcess } from './node-process.ts'
import type { UnitsCostResults } from './results-model.ts'
import { scenarios } from './scenarios.ts'
import { startService } from './service.ts'
import { commitBefore, type SourceTree } from './source-trees.ts'
import { medianFigures } from './statistics.ts'

type NewDatabase = (name: string) => Promise<BenchDatabase>

interface RunningVersion {
  label: string
  tree: SourceTree
  database: BenchDatabase
  service: StartedProcess
  rounds: Record<string, LoadFigures[]>
}

/** The file price categories (issue 27) added: the commit before it is the one measured beside the work tree. */
const UNITS_MODULE = 'src/domain/units.ts'

/**
 * Issue 27: what price categories cost the hold cycles. Every hold now resolves a unit mix and
 * keeps its seats and unit lines; the target is no drop in hold throughput beyond 5 %. The work
 * tree and the last commit before src/domain/units.ts are built side by side from copies of the
 * sources, each on a fresh database of its own, both running at once; each round measures both
 * cycles on each, starting with a different version each round, so other work on the machine
 * falls on both alike. The traffic is the main run's (parties only, as every client written
 * before units sends), so the figures compare the same requests.
 */
export async function measureUnitsCost(newDatabase: NewDatabase, ctx: RunContext): Promise<UnitsCostResults> {
  const { unitsCost: settings, connections, growth: { small } } = ctx.settings
  const cycles = scenarios(ctx.tomorrow).filter((s) => s.kind === 'write')
  const running: RunningVersion[] = []
  try {
    ctx.progress('units: building the work tree and the commit before price categories (once per run)')
    const trees = [ctx.trees.workTree(), ctx.trees.commit(commitBefore(UNITS_MODULE))]
    const labels = ['with price categories (the work tree)', 'the commit before price categories']
    for (const [i, tree] of trees.entries()) {
      const database = await newDatabase(`units_${i}`)
      try {
        const service = await startService({ databaseUrl: database.url, catalogPath: ctx.catalogPath(small.tours), logDir: ctx.workDir, root: tree.dir })
        running.push({ label: labels[i], tree, database, service, rounds: {} })
      } catch (err) {
        await database.drop()
        throw err
      }
    }
    const load = { connections, durationSeconds: settings.durationSeconds, warmupSeconds: settings.warmupSeconds }
    for (let round = 0; round < settings.rounds; round++) {
      for (let i = 0; i < running.length; i++) {
        const version = running[(round + i) % running.length]
        for (const cycle of cycles) {
          ctx.progress(`units: ${cycle.name} ${version.label}, round ${round + 1} of ${settings.rounds}`)
          const figures = await measureLoad({ ...await cycle.traffic(version.service.baseUrl, connections), ...load })
          ;(version.rounds[cycle.name] ??= []).push(figures)
        }
      }
    }
    return {
      connections,
      rounds: settings.rounds,
      cycles: cycles.map((cycle) => ({
        name: cycle.name,
        request: cycle.request,
        versions: running.map((v) => ({ label: v.label, source: v.tree.source, ...medianFigures(v.rounds[cycle.name]), rounds: v.rounds[cycle.name] })),
      })),
    }
  } finally {
    for (const version of running) {
      await version.service.stop()
      await version.database.drop()
    }
  }
}
