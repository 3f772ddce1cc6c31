import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

// The reporter that ends every run of scripts/test.sh and scripts/test-fast.sh, run by Node's
// test runner on two small test files of its own.

const run = promisify(execFile)
const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const REPORTER = join(ROOT, 'scripts/test-timings-reporter.mjs')
const SUMMARY = join(ROOT, 'scripts/test-summary.mjs')

function fixtureFiles(t: { after(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'tourdesk-reporter-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const quick = join(dir, 'quick.test.mjs')
  const slow = join(dir, 'slow.test.mjs')
  writeFileSync(quick, `import { test } from 'node:test'
test('passes', () => {})
test('fails', () => { throw new Error('on purpose') })
test('is skipped', { skip: true }, () => {})
`)
  writeFileSync(slow, `import { test } from 'node:test'
test('waits', () => new Promise((resolve) => setTimeout(resolve, 700)))
test('passes too', () => {})
`)
  return { dir, quick, slow }
}

/**
 * Runs the files under the reporter; the run fails (one test does), so the output is on the
 * error. Without the outer run's settings: NODE_TEST_CONTEXT would make the inner runner talk
 * to the runner running this file instead of reporting, and under scripts/test.sh the
 * TOURDESK_TEST_* settings would send the inner figures to the outer run's record.
 */
async function reportOf(files: string[], env: Record<string, string> = {}): Promise<string> {
  const { NODE_TEST_CONTEXT: _context, TOURDESK_TEST_RESULTS: _results, TOURDESK_TEST_LABEL: _label, ...outer } = process.env
  const failed = await run(process.execPath, ['--test', `--test-reporter=${REPORTER}`, ...files], { cwd: ROOT, env: { ...outer, ...env } })
    .then(() => null, (err: { stdout: string, code: number }) => err)
  assert.ok(failed, 'a run with a failing test exits non-zero')
  return failed.stdout
}

test('a run ends with its slowest files, slowest first, and one line of counts', async (t) => {
  const { quick, slow } = fixtureFiles(t)
  const output = await reportOf([quick, slow])
  const lines = output.trimEnd().split('\n')
  assert.equal(lines[0], 'slowest 2 test files:')
  const listed = lines.slice(1, 3).map((line) => /^\s+(\d+\.\d) s {2}\S*\/(\w+)\.test\.mjs$/.exec(line))
  assert.ok(listed.every(Boolean), lines.join('\n'))
  const seconds = Object.fromEntries(listed.map((match) => [match![2], Number(match![1])]))
  assert.ok(seconds.slow >= 0.7, `the file that waits 0.7 s took ${seconds.slow} s`)
  assert.ok(Number(listed[0]![1]) >= Number(listed[1]![1]), 'slowest first')
  assert.match(lines[3], /^tests 5, pass 3, fail 1, cancelled 0, skipped 1, todo 0, duration \d+\.\d s$/)
})

test('with TOURDESK_TEST_RESULTS the figures go to that file, and test-summary.mjs adds up the runs', async (t) => {
  const { dir, quick, slow } = fixtureFiles(t)
  const results = join(dir, 'results.jsonl')
  assert.equal(await reportOf([quick], { TOURDESK_TEST_RESULTS: results, TOURDESK_TEST_LABEL: 'first' }), '', 'nothing printed')
  assert.equal(await reportOf([slow, quick], { TOURDESK_TEST_RESULTS: results, TOURDESK_TEST_LABEL: 'second' }), '')
  const runs = readFileSync(results, 'utf8').trim().split('\n').map((line) => JSON.parse(line))
  assert.deepEqual(runs.map((r) => [r.label, r.tests, r.pass, r.fail, r.skipped, r.files.length]), [['first', 3, 1, 1, 1, 1], ['second', 5, 3, 1, 1, 2]])

  const { stdout } = await run(process.execPath, [SUMMARY, results, String(Date.now() - 65_000)])
  const lines = stdout.trimEnd().split('\n')
  assert.equal(lines[0], 'slowest 3 test files:')
  assert.ok(lines.slice(1, 4).some((line) => line.endsWith('slow.test.mjs (second)')), stdout)
  assert.match(lines[4], /^tests 8, pass 4, fail 2, cancelled 0, skipped 2, todo 0, duration 1 min [56] s$/)
})
