import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
/** Every drill, on the databases it runs on, in the order the table lists them. */
const ROWS = [
  ['SIGKILL under booking load (1 round)', 'SQLite'],
  ['SIGKILL under booking load (1 round)', 'PostgreSQL'],
  ['PostgreSQL cut by a TCP proxy', 'PostgreSQL'],
  ['SQLite disk full', 'SQLite'],
  ['100 slow clients (slowloris) beside bookings', 'SQLite'],
  ['Races over 3 nodes on one database (1 round)', 'SQLite'],
  ['Races over 3 nodes on one database (1 round)', 'PostgreSQL'],
  ['Webhook receiver down, slow and back', 'SQLite'],
  ['Webhook receiver down, slow and back', 'PostgreSQL'],
  ['Clock jumps between hold and checkout', 'SQLite'],
  ['Clock jumps between hold and checkout', 'PostgreSQL'],
]

interface Row {
  drill: string
  database: string
  attempted: string
  acknowledged: string
  lost: string
  duplicated: string
  overCapacity: string
  result: string
}

function tableRows(report: string): Row[] {
  const lines = report.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| drill |'))
  return lines.map((line) => {
    const [drill, database, attempted, acknowledged, lost, duplicated, overCapacity, , result] = line.slice(2, -2).split(' | ')
    return { drill, database, attempted, acknowledged, lost, duplicated, overCapacity, result }
  })
}

test('npm run drill -- --quick survives every drill: nothing lost, duplicated or over capacity', { timeout: 240_000 }, async (t) => {
  const out = mkdtempSync(join(tmpdir(), 'tourdesk-drill-test-'))
  t.after(() => rmSync(out, { recursive: true, force: true }))

  const run = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'drill/run.ts', '--quick', '--out', out], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((err: { code?: number, stdout?: string, stderr?: string }) => {
    assert.fail(`the drill exited ${err.code}:\n${err.stdout}\n${err.stderr}`)
  })

  const written = readdirSync(out)
  assert.equal(written.length, 1)
  assert.match(written[0], /^\d{4}-\d{2}-\d{2}\.md$/)
  const report = readFileSync(join(out, written[0]), 'utf8')
  assert.ok(run.stdout.includes(report), 'the table printed is the table written')

  const rows = tableRows(report)
  assert.deepEqual(rows.map((r) => [r.drill, r.database]), ROWS)
  for (const row of rows) {
    const name = `${row.drill} on ${row.database}`
    if (row.result === 'skipped') {
      // Only PostgreSQL may be missing (and a tmpfs where mounting is not allowed); the reason is printed.
      assert.ok(row.database === 'PostgreSQL' || row.drill === 'SQLite disk full', `${name} was skipped`)
      assert.match(report, new RegExp(`### ${row.drill.replace(/[()]/g, '\\$&')} — ${row.database}\\n\\n- skipped: \\S`))
      continue
    }
    assert.equal(row.result, 'survived', `${name}:\n${report}`)
    assert.ok(Number(row.attempted) > 0 && Number(row.acknowledged) > 0, `${name} sent requests and got some acknowledged`)
    // Webhooks are delivered at least once: their row says how many duplicates that allows.
    const [, duplicated, allowed] = /^(\d+)(?: \(≤ (\d+) allowed\))?$/.exec(row.duplicated) ?? []
    assert.ok(Number(duplicated) <= Number(allowed ?? 0), `${name}: ${row.duplicated} duplicated`)
    assert.deepEqual([row.lost, row.overCapacity], ['0', '0'], `${name}: lost, over capacity`)
  }
})
