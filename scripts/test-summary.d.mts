/** The types of scripts/test-summary.mjs (plain JavaScript, loaded by the test reporter), for the tests that import it. */
export interface RunRecord {
  label: string
  tests: number
  pass: number
  fail: number
  cancelled: number
  skipped: number
  todo: number
  ms: number
  files: { file: string, ms: number }[]
}
export function formatRuns(runs: readonly RunRecord[], wallMs: number): string
