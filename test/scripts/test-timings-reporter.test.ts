import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { formatRuns } from '../../scripts/test-summary.mjs'
import timingsReporter from '../../scripts/test-timings-reporter.mjs'

// The reporter that ends every run of scripts/test.sh and scripts/test-fast.sh, run by Node's
// test runner on two small test files of its own.

const run = promisify(execFile)
const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const REPORTER = join(ROOT, 'scripts/test-timings-reporter.mjs')
const SUMMARY = join(ROOT, 'scripts/test-summary.mjs')

function fixtureFiles(t: { after(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'tourdesk-reporter-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  // Named relative to the folder the runner starts in, as scripts/test.sh names test files.
  const quick = 'quick.test.mjs'
  const slow = 'slow.test.mjs'
  writeFileSync(join(dir, quick), `import { test } from 'node:test'
test('passes', () => {})
test('fails', () => { throw new Error('on purpose') })
test('is skipped', { skip: true }, () => {})
`)
  writeFileSync(join(dir, slow), `import { test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
test('waits', async () => { await sleep(1500) })
test('waits again', async () => { await sleep(500) })
`)
  return { dir, quick, slow }
}

/**
 * Runs the files under the reporter, side by side as scripts/test.sh does; the run fails (one test does), so the output is on the
 * error. Without the outer run's settings: NODE_TEST_CONTEXT would make the inner runner talk
 * to the runner running this file instead of reporting, and under scripts/test.sh the
 * TOURDESK_TEST_* settings would send the inner figures to the outer run's record.
 */
async function reportOf(dir: string, files: string[], env: Record<string, string> = {}): Promise<string> {
  const { NODE_TEST_CONTEXT: _context, TOURDESK_TEST_RESULTS: _results, TOURDESK_TEST_LABEL: _label, ...outer } = process.env
  const failed = await run(process.execPath, ['--test', '--test-concurrency=2', `--test-reporter=${REPORTER}`, ...files], { cwd: dir, env: { ...outer, ...env } })
    .then(() => null, (err: { stdout: string, code: number }) => err)
  assert.ok(failed, 'a run with a failing test exits non-zero')
  return failed.stdout
}

test('a run ends with its slowest files, slowest first, and one line of counts', async (t) => {
  const { dir, quick, slow } = fixtureFiles(t)
  const output = await reportOf(dir, [slow, quick])
  const lines = output.trimEnd().split('\n')
  assert.equal(lines[0], 'slowest 2 test files:')
  const listed = lines.slice(1, 3).map((line) => /^\s+(\d+\.\d) s {2}(\w+)\.test\.mjs$/.exec(line))
  assert.ok(listed.every(Boolean), lines.join('\n'))
  const seconds = Object.fromEntries(listed.map((match) => [match![2], Number(match![1])]))
  assert.ok(seconds.slow >= 2, `the file that waits 2 s took ${seconds.slow} s`)
  assert.ok(seconds.slow - seconds.quick >= 1, `the quick file took ${seconds.quick} s beside the slow one's ${seconds.slow} s`)
  assert.ok(Number(listed[0]![1]) >= Number(listed[1]![1]), 'slowest first')
  assert.match(lines[3], /^tests 5, pass 3, fail 1, cancelled 0, skipped 1, todo 0, duration \d+\.\d s$/)
})

test('with TOURDESK_TEST_RESULTS the figures go to that file, and test-summary.mjs adds up the runs', async (t) => {
  const { dir, quick, slow } = fixtureFiles(t)
  const results = join(dir, 'results.jsonl')
  assert.equal(await reportOf(dir, [quick], { TOURDESK_TEST_RESULTS: results, TOURDESK_TEST_LABEL: 'first' }), '', 'nothing printed')
  assert.equal(await reportOf(dir, [slow, quick], { TOURDESK_TEST_RESULTS: results, TOURDESK_TEST_LABEL: 'second' }), '')
  const runs = readFileSync(results, 'utf8').trim().split('\n').map((line) => JSON.parse(line))
  assert.deepEqual(runs.map((r) => [r.label, r.tests, r.pass, r.fail, r.skipped, r.files.length]), [['first', 3, 1, 1, 1, 1], ['second', 5, 3, 1, 1, 2]])

  const { stdout } = await run(process.execPath, [SUMMARY, results, String(Date.now() - 65_000)])
  const lines = stdout.trimEnd().split('\n')
  assert.equal(lines[0], 'slowest 3 test files:')
  assert.ok(lines.slice(1, 4).some((line) => line.endsWith('slow.test.mjs (second)')), stdout)
  // The run started 65 s before; the summary's own process may take a few seconds on a loaded machine.
  const duration = /^tests 8, pass 4, fail 2, cancelled 0, skipped 2, todo 0, duration 1 min (\d+) s$/.exec(lines[4])
  assert.ok(duration && Number(duration[1]) >= 5 && Number(duration[1]) < 60, lines[4])
})

/** What the reporter prints for a stream of runner events. */
async function reportOfEvents(events: Array<{ type: string, data: Record<string, unknown> }>): Promise<string> {
  // Under scripts/test.sh these would send the figures to the outer run's record instead.
  const outer = { results: process.env.TOURDESK_TEST_RESULTS, label: process.env.TOURDESK_TEST_LABEL }
  delete process.env.TOURDESK_TEST_RESULTS
  delete process.env.TOURDESK_TEST_LABEL
  try {
    let text = ''
    for await (const chunk of timingsReporter((async function* () { yield* events })())) text += chunk
    return text
  } finally {
    if (outer.results !== undefined) process.env.TOURDESK_TEST_RESULTS = outer.results
    if (outer.label !== undefined) process.env.TOURDESK_TEST_LABEL = outer.label
  }
}

test("each file's own time from the event that closes it, on Node 20 (named by absolute path) and on Node 22 and later (by the path given), whenever its events arrive", async () => {
  const file = (name: string) => join(process.cwd(), name)
  const closes = (path: string, name: string, ms: number) => ({ type: 'test:complete', data: { file: path, name, nesting: 0, details: { duration_ms: ms } } })
  const inner = (path: string, type: string, ms?: number) => ({ type, data: { file: path, name: 'a test', nesting: 0, details: ms === undefined ? undefined : { duration_ms: ms } } })
  const totals = ['tests 3', 'pass 3', 'duration_ms 2555'].map((message) => ({ type: 'test:diagnostic', data: { nesting: 0, message } }))
  const slow = file('slow.test.ts')
  const quick = file('quick.test.ts')
  // The order Node 26.12 sent them in, two files side by side: the quick file closed first, but
  // its tests' start and pass events came after the slow file was done (a run in this repository).
  const node26 = [
    { type: 'test:enqueue', data: { file: slow, name: 'slow.test.ts', nesting: 0 } },
    { type: 'test:enqueue', data: { file: quick, name: 'quick.test.ts', nesting: 0 } },
    inner(quick, 'test:complete', 301), closes(quick, 'quick.test.ts', 647),
    inner(slow, 'test:complete', 1521), inner(slow, 'test:pass', 1521),
    { type: 'test:summary', data: { file: slow, duration_ms: 2099 } }, closes(slow, 'slow.test.ts', 2449),
    inner(quick, 'test:start'), inner(quick, 'test:pass', 301),
    { type: 'test:summary', data: { file: quick, duration_ms: 350 } },
    ...totals, { type: 'test:summary', data: { duration_ms: 2555 } },
  ]
  assert.match(await reportOfEvents(node26), /^slowest 2 test files:\n {2}2\.4 s {2}slow\.test\.ts\n {2}0\.6 s {2}quick\.test\.ts\ntests 3, pass 3,/)
  const node20 = [
    closes(quick, quick, 1260), inner(slow, 'test:complete', 1510), inner(slow, 'test:pass', 1510), closes(slow, slow, 2939),
    inner(quick, 'test:start'), inner(quick, 'test:pass', 334), ...totals,
  ]
  assert.match(await reportOfEvents(node20), /^slowest 2 test files:\n {2}2\.9 s {2}slow\.test\.ts\n {2}1\.3 s {2}quick\.test\.ts\n/)
  // A bundle run under --enable-source-maps: its tests name the TypeScript file, its process the bundle.
  const bundle = file('test-output/test-bundles-1/api--slow.test.mjs')
  const source = file('test/api/slow.test.ts')
  const mapped = [inner(source, 'test:complete', 1510), closes(bundle, bundle, 2939), ...totals]
  assert.match(await reportOfEvents(mapped), /^slowest 1 test files:\n {2}2\.9 s {2}test\/api\/slow\.test\.ts\ntests 3,/)
})

test('times are rounded to the second before they are split into minutes and seconds', () => {
  const run = { label: 'sqlite', tests: 1, pass: 1, fail: 0, cancelled: 0, skipped: 0, todo: 0, ms: 599_700, files: [{ file: 'test/a.test.ts', ms: 599_700 }, { file: 'test/b.test.ts', ms: 59_400 }] }
  assert.equal(formatRuns([run], 3_599_600), 'slowest 2 test files:\n  10 min 0 s  test/a.test.ts (sqlite)\n      59.4 s  test/b.test.ts (sqlite)\n'
    + 'tests 1, pass 1, fail 0, cancelled 0, skipped 0, todo 0, duration 60 min 0 s\n')
})

test('a bundle of npm run test:fast is named by the test file it was made from', async (t) => {
  const { dir, quick } = fixtureFiles(t)
  // As scripts/bundle-tests.ts names the bundle of test/api/quick.test.ts.
  mkdirSync(join(dir, 'test-output/fast-bundles-1'), { recursive: true })
  const bundle = 'test-output/fast-bundles-1/api--quick.test.mjs'
  writeFileSync(join(dir, bundle), readFileSync(join(dir, quick)))
  const lines = (await reportOf(dir, [bundle])).trimEnd().split('\n')
  assert.equal(lines[0], 'slowest 1 test files:')
  assert.match(lines[1], /^\s+\d+\.\d s {2}test\/api\/quick\.test\.ts$/)
})

test('files run in one process as a group are each timed by their own tests, and the group is not listed', async (t) => {
  const { dir, quick, slow } = fixtureFiles(t)
  // As scripts/test-groups.mjs writes a group beside the bundles of test/api/quick.test.ts and test/api/slow.test.ts.
  const bundles = 'test-output/bundles-1'
  mkdirSync(join(dir, bundles), { recursive: true })
  writeFileSync(join(dir, bundles, 'api--quick.test.mjs'), readFileSync(join(dir, quick)))
  writeFileSync(join(dir, bundles, 'api--slow.test.mjs'), readFileSync(join(dir, slow)))
  writeFileSync(join(dir, bundles, 'group-01.mjs'), "import './api--slow.test.mjs'\nimport './api--quick.test.mjs'\n")
  const lines = (await reportOf(dir, [`${bundles}/group-01.mjs`])).trimEnd().split('\n')
  assert.equal(lines[0], 'slowest 2 test files:', lines.join('\n'))
  const slowLine = /^\s+(\d+\.\d) s {2}test\/api\/slow\.test\.ts$/.exec(lines[1])
  assert.ok(slowLine && Number(slowLine[1]) >= 2 && Number(slowLine[1]) < 3, `the file that waits 2 s: ${lines[1]}`)
  assert.match(lines[2], /^\s+0\.\d s {2}test\/api\/quick\.test\.ts$/)
  assert.match(lines[3], /^tests 5, pass 3, fail 1, cancelled 0, skipped 1, todo 0, duration \d+\.\d s$/)
})
