import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { BenchReport } from '../../bench/results-model.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const ENDPOINTS = ['tours', 'search', 'availability-7', 'availability-14', 'hold-release', 'hold-checkout']

test('npm run bench -- --quick measures every endpoint and growth, and writes its report', { timeout: 420_000 }, async (t) => {
  const out = mkdtempSync(join(tmpdir(), 'tourdesk-bench-test-'))
  t.after(() => rmSync(out, { recursive: true, force: true }))

  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--quick', '--out', out], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
  })

  for (const heading of ['## SQLite', '### Growth', '### Operator reads (issue 13)', '### Catalog edits (issue 15)', '### Webhooks (issue 16)', '### Price categories (issue 27)', '### Resellers polling (issue 28)', '## PostgreSQL', '## Targets (issues 7, 12, 13, 15, 16, 27 and 28)']) {
    assert.ok(stdout.includes(heading), `the printed report has "${heading}"`)
  }
  const written = readdirSync(out).sort()
  assert.equal(written.length, 2, `one .json and one .md: ${written}`)
  assert.match(written[0], /^\d{4}-\d{2}-\d{2}\.json$/)
  assert.equal(written[1], written[0].replace('.json', '.md'))
  const report = JSON.parse(readFileSync(join(out, written[0]), 'utf8')) as BenchReport
  assert.equal(report.mode, 'quick')

  const [sqlite, postgres] = report.databases
  assert.equal(sqlite.dialect, 'sqlite')
  assert.equal(sqlite.status, 'measured', JSON.stringify(sqlite))
  assert.equal(postgres.dialect, 'postgres')
  if (postgres.status === 'measured') {
    assert.ok(stdout.includes('## PostgreSQL\n\n'), 'a measured PostgreSQL has its own section')
  } else {
    assert.equal(postgres.status, 'skipped', 'PostgreSQL is measured or skipped, never failed')
    assert.ok(stdout.includes(`PostgreSQL: skipped (${postgres.reason})`))
  }

  for (const result of report.databases) {
    if (result.status !== 'measured') continue
    assert.ok(result.ceiling.requests > 0, `${result.dialect}: the ceiling answered`)
    assert.deepEqual(result.endpoints.map((e) => e.name), ENDPOINTS)
    for (const endpoint of result.endpoints) {
      assert.ok(endpoint.requests > 0, `${result.dialect} ${endpoint.name} sent requests`)
      // Every request of every scenario is valid: a 4xx here means the bench, not the service, is broken.
      assert.deepEqual(Object.keys(endpoint.statusCodes).filter((code) => !code.startsWith('2')), [], `${result.dialect} ${endpoint.name}: ${JSON.stringify(endpoint.statusCodes)}`)
      assert.ok(endpoint.ratioToCeiling > 0)
    }
    assert.equal(result.coldStartsMs.length, report.settings.coldStarts)
    if (process.platform === 'linux') assert.ok(result.peakRssBytes! > 0, 'peak RSS is read from /proc')
    assert.deepEqual(result.growth.endpoints.map((g) => g.name), ['search', 'availability-14'])
    for (const growth of result.growth.endpoints) {
      assert.ok(growth.small.requests > 0 && growth.large.requests > 0, `${result.dialect} ${growth.name} ran on both sizes`)
      assert.ok(Number.isFinite(growth.meanLatencyRatio))
    }
    assert.equal(result.growth.sizes.large.tours, report.settings.growth.large.tours)
    const operator = result.operator!
    assert.deepEqual(operator.missing, [], `${result.dialect}: every operator route is in this build`)
    assert.deepEqual(operator.reads.map((r) => r.name), ['bookings-day', 'departures-14', 'departures-14-200', 'manifest'])
    for (const read of operator.reads) {
      assert.ok(read.requests > 0, `${result.dialect} ${read.name} sent requests`)
      assert.deepEqual(Object.keys(read.statusCodes).filter((code) => !code.startsWith('2')), [], `${result.dialect} ${read.name}: ${JSON.stringify(read.statusCodes)}`)
    }
    assert.ok(operator.export!.rows >= report.settings.operator.exportBookings, `${result.dialect}: the export held ${operator.export!.rows} bookings`)
    assert.equal(operator.export!.rows, operator.export!.expectedRows)

    const edits = result.catalogEdits!
    assert.deepEqual(edits.missing, [], `${result.dialect}: PUT /tours/{id} is in this build`)
    assert.deepEqual(edits.readsUnderEdits!.reads.map((r) => r.name), ['tours', 'availability-14'])
    for (const read of edits.readsUnderEdits!.reads) {
      assert.ok(read.requests > 0 && read.edits.edits > 0, `${result.dialect} ${read.name}: reads and edits were made`)
      assert.equal(read.edits.failed, 0, `${result.dialect} ${read.name}: no edit failed`)
      assert.deepEqual(Object.keys(read.statusCodes).filter((code) => !code.startsWith('2')), [], `${result.dialect} ${read.name}: ${JSON.stringify(read.statusCodes)}`)
    }
    const spread = edits.propagation!
    assert.equal(spread.tours, report.settings.catalogEdits.largeTours)
    assert.equal(spread.edits.length, report.settings.catalogEdits.timedEdits)
    for (const edit of spread.edits) assert.ok(edit.toOtherNodeMs >= 0 && Number.isFinite(edit.toOtherNodeMs), JSON.stringify(edit))
    assert.ok(spread.wholeList.other.requests > 0 && spread.wholeList.other.errors === 0, `${result.dialect}: the other node streamed the whole list`)

    const { outboxCost, deliveries } = result.webhooks!
    assert.deepEqual(outboxCost.unavailable, [], `${result.dialect}: every version of the checkout cycle was built`)
    assert.deepEqual(outboxCost.variants.map((v) => v.name), ['outbox', 'outbox-only', 'no-outbox', 'before-outbox', 'fan-out'])
    for (const variant of outboxCost.variants) {
      assert.ok(variant.requests > 0, `${result.dialect} ${variant.label} sent requests`)
      assert.deepEqual(Object.keys(variant.statusCodes).filter((code) => !code.startsWith('2')), [], `${result.dialect} ${variant.label}: ${JSON.stringify(variant.statusCodes)}`)
    }
    assert.ok(outboxCost.fanOut!.delivered > 0, `${result.dialect}: the fan-out receivers took deliveries`)
    assert.equal(deliveries.events, report.settings.webhooks.deliveredEvents)
    assert.deepEqual(deliveries.deliveries, { delivered: deliveries.events }, `${result.dialect}: every event delivered`)
    assert.deepEqual([deliveries.duplicates, deliveries.unverified], [0, 0], `${result.dialect}: no duplicate, every message verified`)

    const units = result.unitsCost!
    assert.deepEqual(units.cycles.map((c) => c.name), ['hold-release', 'hold-checkout'])
    for (const cycle of units.cycles) {
      assert.equal(cycle.versions.length, 2, `${result.dialect} ${cycle.name}: the work tree and the commit before price categories`)
      for (const version of cycle.versions) {
        assert.ok(version.requests > 0, `${result.dialect} ${cycle.name} ${version.label} sent requests`)
        assert.deepEqual(Object.keys(version.statusCodes).filter((code) => !code.startsWith('2')), [], `${result.dialect} ${cycle.name} ${version.label}: ${JSON.stringify(version.statusCodes)}`)
      }
    }

    const octo = result.octoPolling!
    assert.ok(octo.ceiling.requests > 0, `${result.dialect}: the ceiling answered beside the polls`)
    assert.deepEqual(octo.requests.map((poll) => poll.name), ['calendar-90', 'calendar-90-identity', 'availability-90'])
    for (const poll of octo.requests) {
      assert.equal(poll.versions.length, 3, `${result.dialect} ${poll.name}: the work tree, the commit before kept OCTo answers and the one before the cheaper poll`)
      for (const version of poll.versions) {
        // A reseller key's poll answered 2xx: a 4xx here means the bench's key or body is broken.
        assert.ok(version.requests > 0 && version.ratioToCeiling > 0, `${result.dialect} ${poll.name} ${version.label} sent requests`)
        assert.deepEqual(Object.keys(version.statusCodes).filter((code) => !code.startsWith('2')), [], `${result.dialect} ${poll.name} ${version.label}: ${JSON.stringify(version.statusCodes)}`)
      }
    }
  }
})

test('npm run bench -- --only refuses a section it does not have', async () => {
  await assert.rejects(promisify(execFile)(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--only', 'everything'], { cwd: ROOT }),
    (err: { code: number, stderr: string }) => err.code === 2 && err.stderr.includes('--only takes catalog-edits'))
})
