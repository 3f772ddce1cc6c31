import { cpus } from 'node:os'
import { passed, type DrillOutcome } from './outcome.ts'
import { formatMs } from './readiness.ts'

export interface RunInfo {
  date: string
  mode: 'full' | 'quick'
  postgres: string
  seconds: number
}

function result(outcome: DrillOutcome): string {
  if (outcome.skipped !== undefined) return 'skipped'
  return passed(outcome) ? 'survived' : '**FAILED**'
}

function row(o: DrillOutcome): string {
  const skipped = o.skipped !== undefined
  const figure = (n: number) => skipped ? '—' : String(n)
  const recover = skipped || o.recoverMs === null ? '—' : formatMs(o.recoverMs)
  const duplicated = skipped || o.allowedDuplicates === undefined ? figure(o.duplicated) : `${o.duplicated} (≤ ${o.allowedDuplicates} allowed)`
  return `| ${o.drill} | ${o.database} | ${figure(o.attempted)} | ${figure(o.acknowledged)} | ${figure(o.lost)} | ${duplicated} | ${figure(o.overCapacity)} | ${recover} | ${result(o)} |`
}

function details(o: DrillOutcome): string[] {
  const lines = [`### ${o.drill} — ${o.database}`, '']
  if (o.skipped !== undefined) lines.push(`- skipped: ${o.skipped}`)
  if (o.recoverNote) lines.push(`- time to recover: ${o.recoverNote}`)
  for (const note of o.notes) lines.push(`- ${note}`)
  for (const failure of o.failures) lines.push(`- FAILURE: ${failure}`)
  return [...lines, '']
}

/** The results as Markdown: one table row per drill and database, then what each row means. */
export function renderReport(info: RunInfo, outcomes: DrillOutcome[]): string {
  const cpu = cpus()
  return [
    `# tourdesk fault drills, ${info.date}`,
    '',
    `\`npm run drill${info.mode === 'quick' ? ' -- --quick' : ''}\` on ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'} (shared with other work), Node ${process.version}, ${info.seconds} s in all. PostgreSQL: ${info.postgres}.`,
    '',
    '| drill | database | attempted | acknowledged | lost | duplicated | over capacity | time to recover | result |',
    '|---|---|--:|--:|--:|--:|--:|--:|---|',
    ...outcomes.map(row),
    '',
    'Lost, duplicated and over capacity must be 0, except where a row allows some duplicates (webhooks are delivered at least once). _Acknowledged_ counts 200 answers; _time to recover_ runs from the end of the fault to service again.',
    '',
    '## Details',
    '',
    ...outcomes.flatMap(details),
  ].join('\n')
}
