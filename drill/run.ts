/**
 * `npm run drill`: fault drills against the real service, printed as a table and written
 * to drill/results/<date>.md. `--quick` runs few rounds (for the test suite) and writes
 * nothing unless `--out DIR` is given. `--only kill,pg-cut,…` runs some drills, written to
 * <date>-kill-pg-cut….md.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { fileURLToPath } from 'node:url'
import { DRILLS, type DrillSettings } from './drills.ts'
import { crashedOutcome, passed, type DrillOutcome } from './outcome.ts'
import { createDrillPostgres } from './postgres.ts'
import { formatMs } from './readiness.ts'
import { renderReport } from './report.ts'

const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url))

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    out: { type: 'string' },
    only: { type: 'string' },
  },
})
const only = values.only?.split(',').map((name) => name.trim())
const unknown = only?.filter((name) => !DRILLS.some((d) => d.name === name)) ?? []
if (unknown.length > 0) {
  process.stderr.write(`unknown drill ${unknown.join(', ')}; drills are ${DRILLS.map((d) => d.name).join(', ')}\n`)
  process.exit(64)
}

const began = performance.now()
const postgres = await createDrillPostgres()
const settings: DrillSettings = {
  quick: values.quick,
  postgresUrl: 'url' in postgres ? postgres.url : null,
  postgresUnreachable: 'unreachable' in postgres ? postgres.unreachable : null,
}
const outcomes: DrillOutcome[] = []
try {
  for (const drill of DRILLS.filter((d) => !only || only.includes(d.name))) {
    const title = drill.title(settings)
    for (const run of drill.runs(settings, title)) {
      process.stdout.write(`drill: ${drill.name} on ${run.database} … `)
      const drillBegan = performance.now()
      let outcome: DrillOutcome
      try {
        outcome = await run.run()
      } catch (err) {
        outcome = crashedOutcome(title, run.database, err)
        process.stderr.write(`${(err as Error).stack ?? err}\n`)
      }
      const verdict = outcome.skipped !== undefined ? 'skipped' : passed(outcome) ? 'survived' : 'FAILED'
      process.stdout.write(`${verdict} (${formatMs(performance.now() - drillBegan)})\n`)
      outcomes.push(outcome)
    }
  }
} finally {
  if ('drop' in postgres) await postgres.drop()
}

const date = new Date().toISOString().slice(0, 10)
const report = renderReport({
  date,
  mode: values.quick ? 'quick' : 'full',
  postgres: settings.postgresUrl ? `a fresh database at ${new URL(settings.postgresUrl).host}` : `skipped (${settings.postgresUnreachable})`,
  seconds: Math.round((performance.now() - began) / 1000),
}, outcomes)
process.stdout.write(`\n${report}\n`)
const out = values.out ?? (values.quick ? null : RESULTS_DIR)
if (out !== null) {
  mkdirSync(out, { recursive: true })
  // Some drills alone are not the day's record of all of them: their file says which they are.
  const path = join(out, `${date}${only ? `-${only.join('-')}` : ''}.md`)
  writeFileSync(path, report)
  process.stdout.write(`written to ${path}\n`)
}
process.exitCode = outcomes.every(passed) ? 0 : 1
