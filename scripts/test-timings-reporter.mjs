/**
 * A reporter for Node's test runner, used beside `spec` or `dot`: at the end of a run it
 * prints the slowest test files and one summary line with the counts (tests, pass, fail,
 * duration). With TOURDESK_TEST_RESULTS naming a file it appends the run's figures there as
 * one JSON line instead (labelled with TOURDESK_TEST_LABEL), and scripts/test.sh prints all
 * its passes at once through scripts/test-summary.mjs.
 */
import { appendFileSync } from 'node:fs'
import { relative } from 'node:path'
import { formatRuns } from './test-summary.mjs'

const COUNTS = /^(tests|pass|fail|cancelled|skipped|todo|duration_ms) ([\d.]+)$/

/** @param {AsyncIterable<{ type: string, data: any }>} source */
export default async function* timingsReporter(source) {
  const started = Date.now()
  /** Each file's time as the runner reports it (Node 20: the file's own test:complete). */
  const reported = new Map()
  /** Else the time from the file's first event to its last. */
  const seen = new Map()
  /** @type {Record<string, number>} */
  const counts = {}
  for await (const { type, data } of source) {
    const { file, name, nesting, details, message } = data ?? {}
    if (file) {
      const now = Date.now()
      const span = seen.get(file)
      if (span) span.last = now
      else seen.set(file, { first: now, last: now })
      const fileLevel = nesting === 0 && name === file && typeof details?.duration_ms === 'number'
      if (fileLevel && (type === 'test:complete' || type === 'test:pass' || type === 'test:fail')) reported.set(file, details.duration_ms)
    }
    // The runner's own totals, sent last, at the top level.
    if (type === 'test:diagnostic' && nesting === 0 && typeof message === 'string') {
      const match = COUNTS.exec(message)
      if (match) counts[match[1]] = Number(match[2])
    }
  }
  const files = [...seen].map(([file, span]) => ({ file: relative(process.cwd(), file), ms: Math.round(reported.get(file) ?? span.last - span.first) }))
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
