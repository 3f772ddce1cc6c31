/**
 * The end of a test run: the slowest 10 test files and one summary line with the counts.
 * scripts/test-timings-reporter.mjs prints it for one `node --test` run; scripts/test.sh runs
 * `node scripts/test-summary.mjs RESULTS_FILE STARTED_MS` to print it once for all its passes.
 * Plain JavaScript: Node 20 loads test reporters before `--import tsx` takes effect.
 */
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

/**
 * One `node --test` run's figures, as the reporter records them.
 * @typedef {{ label: string, tests: number, pass: number, fail: number, cancelled: number,
 *   skipped: number, todo: number, ms: number, files: { file: string, ms: number }[] }} RunRecord
 */

const SLOWEST = 10
const COUNTED = ['tests', 'pass', 'fail', 'cancelled', 'skipped', 'todo']

/** @param {number} ms */
function seconds(ms) {
  if (ms < 59_950) return `${(ms / 1000).toFixed(1)} s`
  // Rounded to the second first, so 599.7 s reads 10 min 0 s, not 9 min 60 s.
  const s = Math.round(ms / 1000)
  return `${Math.floor(s / 60)} min ${s % 60} s`
}

/**
 * The slowest files of all runs (each named with its run's label), then the runs' counts
 * added up, over `wallMs`: the runs may have overlapped, so their durations are not summed.
 * @param {readonly RunRecord[]} runs
 * @param {number} wallMs
 */
export function formatRuns(runs, wallMs) {
  const files = runs.flatMap((run) => run.files.map((f) => ({ ...f, label: run.label })))
    .sort((a, b) => b.ms - a.ms).slice(0, SLOWEST)
  const width = Math.max(0, ...files.map((f) => seconds(f.ms).length))
  const lines = [`slowest ${files.length} test files:`]
  for (const f of files) lines.push(`  ${seconds(f.ms).padStart(width)}  ${f.file}${f.label ? ` (${f.label})` : ''}`)
  const counts = COUNTED.map((key) => `${key} ${runs.reduce((total, run) => total + run[key], 0)}`)
  lines.push(`${counts.join(', ')}, duration ${seconds(wallMs)}`)
  return `${lines.join('\n')}\n`
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [resultsFile, startedMs] = process.argv.slice(2)
  const runs = readFileSync(resultsFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line))
  process.stdout.write(formatRuns(runs, Date.now() - Number(startedMs)))
}
