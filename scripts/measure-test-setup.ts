/**
 * The per-test setup cost of the suite, measured alone: N times in a row, what `build` in
 * test/helpers/build.ts does for one test (a fresh database, migrations, the demo catalog,
 * the app started and its openapi.json read, then everything closed and dropped), and the
 * fresh database alone. Wall time and this process's CPU time per round, median of N.
 *
 *   node --import tsx scripts/measure-test-setup.ts [N]                      # SQLite
 *   TEST_DATABASE_URL=postgres://… node --import tsx scripts/measure-test-setup.ts [N]
 */
import { performance } from 'node:perf_hooks'
import { startService } from '../test/helpers/build.ts'
import { freshDatabase, migratedDatabase, testDialect } from '../test/helpers/database.ts'

const rounds = Number(process.argv[2] ?? 20)

async function measure(label: string, round: () => Promise<void>): Promise<void> {
  await round() // the first round pays for loading modules and the process's one-off work
  const wall: number[] = []
  const cpu: number[] = []
  for (let i = 0; i < rounds; i++) {
    const cpuBefore = process.cpuUsage()
    const wallBefore = performance.now()
    await round()
    wall.push(performance.now() - wallBefore)
    const used = process.cpuUsage(cpuBefore)
    cpu.push((used.user + used.system) / 1000)
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]
  console.log(`${testDialect} ${label}: median ${median(wall).toFixed(0)} ms wall, ${median(cpu).toFixed(0)} ms CPU in this process (${rounds} rounds)`)
}

await measure('an empty database (freshDatabase)', async () => {
  const database = await freshDatabase()
  await database.drop()
})
await measure('a migrated database (migratedDatabase)', async () => {
  const database = await migratedDatabase()
  await database.drop()
})
await measure('a started service (build)', async () => {
  const service = await startService()
  await service.close()
})
