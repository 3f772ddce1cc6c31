/**
 * A reporter for Node's test runner, used beside `spec` or `dot`: at the end of a run it
 * prints the slowest test files and one summary line with the counts (tests, pass, fail,
 * duration). With TOURDESK_TEST_RESULTS naming a file it appends the run's figures there as
 * one JSON line instead (labelled with TOURDESK_TEST_LABEL), and scripts/test.sh prints all
 * its passes at once through scripts/test-summary.mjs.
 */
import { appendFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { formatRuns } from './test-summary.mjs'

const COUNTS = /^(tests|pass|fail|cancelled|skipped|todo|duration_ms) ([\d.]+)$/

/**
 * Whether an event is the one that closes a whole test file. Each file runs as a top-level test
 * of the runner's own, named after the file: by its absolute path on Node 20, by the path as
 * given on the command line on Node 22 and later. Its `test:complete` carries the file's time,
 * process start included, on every line. (Node 22 and later also send a `test:summary` per
 * file, timed from inside the file's process.) Events are not a clock: with files side by side
 * the runner holds back one file's events until another's are printed.
 * @param {string} type
 * @param {{ file?: string, name?: string, nesting?: number, details?: { duration_ms?: number } }} data
 */
function closesFile(type, { file, name, nesting, details }) {
  return type === 'test:complete' && nesting === 0 && file !== undefined && name !== undefined
    && typeof details?.duration_ms === 'number' && resolve(name) === resolve(file)
}

/**
 * The test file a reported file stands for: a bundle made by scripts/bundle-tests.ts
 * (`test-output/NAME/api--booking.test.mjs`, for `npm run test:fast`) is named by its source
 * (`test/api/booking.test.ts`); any other file by itself.
 * @param {string} file relative to the working directory
 */
function testFileOf(file) {
  const bundle = /^test-output\/[^/]+\/(.+)\.mjs$/.exec(file)
  return bundle ? `test/${bundle[1].replaceAll('--', '/')}.ts` : file
}

/** A group of test files run in one process (scripts/test-groups.mjs): its tests are timed under their own files. */
const isGroup = (file) => /\/group-\d+\.mjs$/.test(file)

/** @param {AsyncIterable<{ type: string, data: any }>} source */
export default async function* timingsReporter(source) {
  const started = Date.now()
  /** Each file's time: its file-level test:complete, else its test:summary, else (a file run in a group) its top-level tests' times added up. */
  const timed = new Map()
  const summarized = new Map()
  const ofTests = new Map()
  /** @type {Record<string, number>} */
  const counts = {}
  for await (const { type, data } of source) {
    if (closesFile(type, data ?? {})) timed.set(resolve(data.file), data.details.duration_ms)
    else if (type === 'test:complete' && data?.nesting === 0 && typeof data.file === 'string' && typeof data.details?.duration_ms === 'number') {
      // A test at the top of its file names the file that declares it, a group's member included.
      ofTests.set(resolve(data.file), (ofTests.get(resolve(data.file)) ?? 0) + data.details.duration_ms)
    }
    if (type === 'test:summary' && typeof data?.file === 'string') summarized.set(resolve(data.file), data.duration_ms)
    const { nesting, message } = data ?? {}
    // The runner's own totals, sent last, at the top level.
    if (type === 'test:diagnostic' && nesting === 0 && typeof message === 'string') {
      const match = COUNTS.exec(message)
      if (match) counts[match[1]] = Number(match[2])
    }
  }
  // By test file, the better figure last: under --enable-source-maps a test names the TypeScript
  // file it is declared in, and its process the bundle made from that file.
  const byFile = new Map()
  for (const times of [ofTests, summarized, timed]) {
    for (const [file, ms] of times) if (!isGroup(file)) byFile.set(testFileOf(relative(process.cwd(), file)), Math.round(ms))
  }
  const files = [...byFile].map(([file, ms]) => ({ file, ms }))
  const record = {
    label: process.env.TOURDESK_TEST_LABEL ?? '',
    tests: counts.tests ?? 0,
    pass: counts.pass ?? 0,
    fail: counts.fail ?? 0,
    cancelled: counts.cancelled ?? 0,
    skipped: counts.skipped ?? 0,
    todo: counts.todo ?? 0,
    ms: Math.round(counts.duration_ms ?? Date.now() - started),
    files,
  }
  const resultsFile = process.env.TOURDESK_TEST_RESULTS
  if (resultsFile) appendFileSync(resultsFile, `${JSON.stringify(record)}\n`)
  else yield formatRuns([record], record.ms)
}
