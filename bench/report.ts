import type { LoadFigures } from './load.ts'
import type { BenchReport, CatalogEditResults, OctoPollingResults, UnitsCostResults, HealthzLatency, MeasuredDatabase, NodeMemory, OperatorResults, SectionsMeasured, StreamResults, WebhookResults } from './results-model.ts'
import { checkTargets } from './targets.ts'

const DIALECT_NAMES = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const
const MB = 1_000_000

const count = (n: number) => Math.round(n).toLocaleString('en')
/** autocannon records whole milliseconds; only means have fractions. */
const ms = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(n < 10 ? 2 : 1))
const megabytes = (bytes: number | null) => (bytes === null ? 'n/a' : `${(bytes / MB).toFixed(0)} MB`)

function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n')
}

function figureCells(f: LoadFigures): string[] {
  return [count(f.requestsPerSecond), ms(f.latencyMs.p50), ms(f.latencyMs.p99), ms(f.latencyMs.max), count(f.errors)]
}

function statusNote(f: LoadFigures): string {
  const failures = Object.entries(f.statusCodes).filter(([code]) => !code.startsWith('2'))
  return failures.length === 0 ? '' : ` (${failures.map(([code, n]) => `${n}× ${code}`).join(', ')})`
}

function databaseSection(result: MeasuredDatabase, settings: BenchReport['settings']): string {
  const { small, large } = result.growth.sizes
  const endpointRows = [
    ['ceiling: GET / → {"ok":true}', ...figureCells(result.ceiling), '1.00', ''],
    ...result.endpoints.map((e) => [e.request, ...figureCells(e).slice(0, 4), `${count(e.errors)}${statusNote(e)}`, e.ratioToCeiling.toFixed(2), megabytes(e.peakRssBytes)]),
  ]
  const sizeLabel = (s: typeof small) => `${count(s.tours)} tours, ${count(s.bookings)} bookings`
  const growthRows = result.growth.endpoints.flatMap((g) => [
    [g.request, sizeLabel(small), ...figureCells(g.small), ms(g.small.latencyMs.mean), ''],
    [g.request, sizeLabel(large), ...figureCells(g.large), ms(g.large.latencyMs.mean), `${g.meanLatencyRatio.toFixed(2)}× mean, ${g.p99LatencyRatio.toFixed(2)}× p99`],
  ])
  const { growth } = settings
  return [
    `## ${DIALECT_NAMES[result.dialect]}`,
    '',
    `${settings.connections} connections, ${settings.durationSeconds} s per endpoint after ${settings.warmupSeconds} s of warm-up; latencies in ms. Database: ${count(small.tours)} tours and ${count(small.bookings)} seeded bookings; the writes run last. The service runs as \`npm start\` does, so repeated reads are answered from kept answers (README, "Fresh answers, reused").`,
    '',
    table(['endpoint', 'req/s', 'p50', 'p99', 'max', 'errors', 'ratio to ceiling', 'peak RSS so far'], endpointRows),
    '',
    `- RSS of the service: ${megabytes(result.startRssBytes)} once started, ${megabytes(result.peakRssBytes)} at its peak over these runs.`,
    `- Cold start, spawn to first answer on a fresh database: ${result.coldStartsMs.map((t) => `${Math.round(t)} ms`).join(', ')}.`,
    '',
    `### Growth (${growth.connections} connections, ${growth.durationSeconds} s per run, median of ${growth.rounds} rounds)`,
    '',
    'Both services run with TOURDESK_REUSE_ANSWERS=off, so every request reads the database and serializes its answer: these are the figures of a read that finds nothing kept.',
    '',
    table(['endpoint', 'database', 'req/s', 'p50', 'p99', 'max', 'errors', 'mean', 'large / small'], growthRows),
    '',
    `- Seeding took ${small.seedSeconds.toFixed(1)} s (small) and ${large.seedSeconds.toFixed(1)} s (large).`,
    `- The service on the large database (${count(large.tours)} tours) started in ${Math.round(large.coldStartMs)} ms and peaked at ${megabytes(large.peakRssBytes)}.`,
    ...result.operator ? ['', operatorSection(result.operator, settings)] : [],
    ...issueSections(result, settings),
  ].join('\n')
}

function octoSection(results: OctoPollingResults, settings: BenchReport['settings']): string {
  const { octoPolling } = settings
  return [
    '### Resellers polling (issue 28)',
    '',
    `A reseller's polls of one product (the measured tour, two departures a day) with a reseller key and \`octo/pricing\`, as its HTTP client asks `
      + '(taking gzip) and, for the calendar, also without gzip, '
      + `at ${results.connections} connections, ${octoPolling.durationSeconds} s per run after ${octoPolling.warmupSeconds} s of warm-up, on the work tree and on the `
      + 'last commit before kept OCTo answers (the commit before test/octo/calendar-freshness.test.ts) and on the last before the cheaper kept poll '
      + '(the commit before test/store/change-token.test.ts), built side by side from copies of the sources, each on a '
      + `fresh database of its own (no bookings, the oldest version's cheapest read), all running at once. ${results.rounds} round${results.rounds === 1 ? '' : 's'}, each measuring the ceiling first and then `
      + 'every version in turn from a different first one; figures are medians over the rounds, and a share of the ceiling is the median of the rounds\' shares. '
      + 'Target (the work tree\'s calendar, gzip taken): ≥ 0.3 of the ceiling, p99 < 25 ms.',
    '',
    table(['request', 'version', 'sources', 'req/s', 'p50', 'p99', 'max', 'errors', 'share of the ceiling'], [
      ['ceiling: GET / → {"ok":true}', '', '', ...figureCells(results.ceiling), '1.00'],
      ...results.requests.flatMap((poll) => poll.versions.map((v) => [poll.request, v.label, v.source, ...figureCells(v).slice(0, 4),
        `${count(v.errors)}${statusNote(v)}`, v.ratioToCeiling.toFixed(2)])),
    ]),
    '',
    `- Ceiling, req/s of each round: ${results.ceiling.rounds.map((r) => count(r.requestsPerSecond)).join(' / ')}.`,
    ...results.requests.map((poll) => `- ${poll.request}, req/s of each round: ${poll.versions.map((v) => `${v.label} ${v.rounds.map((r) => count(r.requestsPerSecond)).join(' / ')}`).join('; ')}.`),
  ].join('\n')
}

function streamSection(results: StreamResults): string {
  const { rssBytes: rss, healthz, stalled } = results
  const latency = (h: HealthzLatency) => [ms(h.p50), ms(h.p99), ms(h.max)]
  return [
    '### Stalled event streams (issue 24, item 7)',
    '',
    `${count(results.messages)} contact messages of about ${(results.eventBytes / 1000).toFixed(0)} kB each (as events) made through the guest API `
      + `in ${results.makeSeconds.toFixed(1)} s; then ${results.streams} streams (\`GET /admin/api/{instance}/stream\`), ${results.streams / results.keys} on each of `
      + `${results.keys} API keys of the viewer role, opened from the first event on raw sockets on 127.0.0.1 that take the answer's head and then read nothing. `
      + `GET /healthz is asked ${healthz.before.requests} times, one after the other, in each phase; latencies in ms.`,
    '',
    table(['phase', 'RSS', 'peak RSS', 'healthz p50', 'p99', 'max'], [
      ['started', '', megabytes(rss.started), '', '', ''],
      ['messages made, no stream open', megabytes(rss.beforeStreams), `${megabytes(rss.peakBeforeStreams)} since the start`, ...latency(healthz.before)],
      [`${results.streams} stalled streams open`, '', `${megabytes(rss.peakWithStreams)} while open`, ...latency(healthz.withStreams)],
      ['streams closed by the bench', megabytes(rss.afterClose), '', ...latency(healthz.afterClose)],
    ]),
    '',
    stalled
      ? `- Once the node had stopped writing them, ${(stalled.seconds).toFixed(1)} s after they opened: ${stalled.established} of ${results.streams} streams still open, `
        + `${megabytes(stalled.queuedBytes)} waiting in the kernel's socket buffers toward their readers (outside the node's RSS).`
      : '- The streams\' socket buffers: not read (no /proc/net/tcp).',
    `- A stream more than the node serves was answered ${results.beyondCapStatus}.`,
  ].join('\n')
}

function webhookSection(results: WebhookResults, settings: BenchReport['settings']): string {
  const { outboxCost: cost, deliveries } = results
  const { webhooks } = settings
  const without = cost.variants.find((v) => v.name === 'no-outbox')
  const withEmails = cost.variants.find((v) => v.name === 'outbox')
  const outboxOnly = cost.variants.find((v) => v.name === 'outbox-only')
  const lines = [
    '### Webhooks (issue 16)',
    '',
    `The checkout cycle (\`${cost.request}\`, one event per checkout) at ${cost.connections} connections, ${webhooks.durationSeconds} s per run after `
      + `${webhooks.warmupSeconds} s of warm-up, on versions of the service built side by side from copies of the sources, each on a fresh database of its own `
      + 'and all running at once: the work tree, whose nodes make an email from each checkout\'s event; the same with the email projection left out '
      + '(events written and read by webhook delivery as before, no emails made: the outbox\'s own cost, which the target holds to 10 %); the same with its '
      + 'writes\' events dropped where the store appends them (the service has no switch for either, so the copies are edited; nothing else differs); '
      + 'the last commit before the outbox (which also lacks everything committed since); and the work tree '
      + `with ${cost.fanOut?.endpoints ?? webhooks.fanOutEndpoints} endpoints subscribed to every event on receivers in the bench's process, so that each checkout `
      + `fans out and the node delivers while it takes checkouts. ${cost.rounds} round${cost.rounds === 1 ? '' : 's'}, each measuring every version in turn `
      + 'from a different first one; figures are medians over the rounds.',
    '',
    table(['version', 'sources', 'req/s', 'p50', 'p99', 'max', 'mean', 'errors', 'mean latency over without the outbox'],
      cost.variants.map((v) => [v.label, v.source, ...figureCells(v).slice(0, 4), ms(v.latencyMs.mean), `${count(v.errors)}${statusNote(v)}`,
        without ? `${(v.latencyMs.mean / without.latencyMs.mean).toFixed(2)}×` : 'n/a'])),
    '',
    `- req/s of each round: ${cost.variants.map((v) => `${v.label} ${v.rounds.map((r) => count(r.requestsPerSecond)).join(' / ')}`).join('; ')}.`,
  ]
  if (withEmails && outboxOnly) {
    lines.push(`- Emails: making one from each checkout's event (rendering the text, HTML, calendar file and manage link, and keeping it) takes the mean latency `
      + `from ${ms(outboxOnly.latencyMs.mean)} to ${ms(withEmails.latencyMs.mean)} ms (${(withEmails.latencyMs.mean / outboxOnly.latencyMs.mean).toFixed(2)}×) on the node `
      + 'that also takes every checkout; like the fan-out below, this is work the feature does, not a cost of the outbox.')
  }
  if (cost.fanOut) {
    lines.push(`- Fan-out: the ${cost.fanOut.endpoints} receivers took ${count(cost.fanOut.delivered)} deliveries, every one verified with the standardwebhooks package; `
      + `what was still queued after each round reached them in ${cost.fanOut.drainSeconds.map((s) => `${s.toFixed(1)} s`).join(', ')}.`)
  }
  for (const reason of cost.unavailable) lines.push(`- Not measured: ${reason}.`)
  const log = Object.entries(deliveries.deliveries).map(([status, n]) => `${count(n)} ${status}`).join(', ')
  lines.push(
    `- Deliveries: ${count(deliveries.events)} events made by guest checkouts in ${deliveries.makeSeconds.toFixed(1)} s, before any endpoint existed; then an endpoint `
      + 'on a receiver at 127.0.0.1 that verifies every message with the standardwebhooks package, and `POST /webhooks/{id}/replay` queued a delivery of each. '
      + `One node delivered them in ${deliveries.seconds.toFixed(1)} s from the replay's answer: ${Math.round(deliveries.deliveredPerSecond)}/s, `
      + `${Math.round(deliveries.sustainedPerSecond)}/s from the first receipt to the last; ${deliveries.duplicates} taken twice, ${deliveries.unverified} unverified; `
      + `the delivery log at the end: ${log}.`,
  )
  return lines.join('\n')
}

function unitsSection(results: UnitsCostResults, settings: BenchReport['settings']): string {
  const { unitsCost } = settings
  const lines = [
    '### Price categories (issue 27)',
    '',
    `The write cycles at ${results.connections} connections, ${unitsCost.durationSeconds} s per run after ${unitsCost.warmupSeconds} s of warm-up, on the work tree `
      + 'and on the last commit before price categories (src/domain/units.ts), built side by side from copies of the sources, each on a fresh database of its '
      + `own and both running at once. The requests give a party only, as every client written before units does. ${results.rounds} round${results.rounds === 1 ? '' : 's'}, `
      + 'each measuring both versions in turn from a different first one; figures are medians over the rounds. Target: no drop in hold throughput beyond 5 %.',
    '',
    table(['cycle', 'version', 'sources', 'req/s', 'p50', 'p99', 'max', 'errors', 'req/s over before'],
      results.cycles.flatMap((cycle) => {
        const before = cycle.versions[cycle.versions.length - 1]
        return cycle.versions.map((v) => [cycle.request, v.label, v.source, ...figureCells(v).slice(0, 4), `${count(v.errors)}${statusNote(v)}`,
          `${(v.requestsPerSecond / before.requestsPerSecond).toFixed(3)}×`])
      })),
    '',
    ...results.cycles.map((cycle) => `- ${cycle.request}, req/s of each round: ${cycle.versions.map((v) => `${v.label} ${v.rounds.map((r) => count(r.requestsPerSecond)).join(' / ')}`).join('; ')}.`),
  ]
  return lines.join('\n')
}

/** The issues' sections a run measured (a full run all of them, `--only` one), each after a blank line. */
function issueSections(result: Omit<SectionsMeasured, 'status'>, settings: BenchReport['settings']): string[] {
  return [
    ...result.catalogEdits ? ['', catalogEditSection(result.catalogEdits, settings)] : [],
    ...result.webhooks ? ['', webhookSection(result.webhooks, settings)] : [],
    ...result.unitsCost ? ['', unitsSection(result.unitsCost, settings)] : [],
    ...result.streams ? ['', streamSection(result.streams)] : [],
    ...result.octoPolling ? ['', octoSection(result.octoPolling, settings)] : [],
  ]
}

/** A run of some sections only: each one measured. */
function sectionsOnly(result: SectionsMeasured, settings: BenchReport['settings']): string {
  return [
    `## ${DIALECT_NAMES[result.dialect]}`,
    ...issueSections(result, settings),
  ].join('\n')
}

function catalogEditSection(results: CatalogEditResults, settings: BenchReport['settings']): string {
  const edits = settings.catalogEdits
  const lines = ['### Catalog edits (issue 15)', '']
  const reads = results.readsUnderEdits
  if (reads) {
    lines.push(
      `Guests' reads of the ${count(reads.tours)}-tour catalog at ${edits.connections} connections, ${edits.durationSeconds} s each after ${edits.warmupSeconds} s `
        + 'of warm-up, first with no edits, then on the same service while it takes a manager\'s edits over HTTP: PUT /admin/api/bench/tours/{id} with an API key '
        + `of the manager role, ${reads.editsPerSecond} a second, one at a time, each moving a tour's price. Each edit is a new catalog version, so the answers `
        + 'kept before it are made again after it. Edit latencies are to the PUT\'s answer, which comes once the node serves the new version.',
      '',
      table(['request', 'edits', 'req/s', 'p50', 'p99', 'max', 'errors', 'edits made (failed)', 'edits/s', 'edit p50', 'edit p99'],
        reads.reads.flatMap((r) => [
          [r.request, 'none', ...figureCells(r.withoutEdits).slice(0, 4), `${count(r.withoutEdits.errors)}${statusNote(r.withoutEdits)}`, '', '', '', ''],
          [r.request, `${reads.editsPerSecond}/s`, ...figureCells(r).slice(0, 4), `${count(r.errors)}${statusNote(r)}`,
            `${count(r.edits.edits)} (${count(r.edits.failed)})`, r.edits.perSecond.toFixed(1), ms(Math.round(r.edits.latencyMs.p50)), ms(Math.round(r.edits.latencyMs.p99))],
        ])),
      '',
    )
  }
  const spread = results.propagation
  if (spread) {
    const node = (name: string, memory: NodeMemory) => [name, `${Math.round(memory.coldStartMs)} ms`, megabytes(memory.startPeakRssBytes), megabytes(memory.servingPeakRssBytes)]
    const seconds = (msValue: number) => `${(msValue / 1000).toFixed(2)} s`
    lines.push(
      `Two nodes on one database serve an instance of ${count(spread.tours)} tours, put in the database before they start. Each node first streams the whole `
        + `list (\`${spread.wholeList.request}\`, ${megabytes(spread.wholeList.bytes)}) to ${edits.listConnections} connections for ${edits.listSeconds} s. Then `
        + `${spread.edits.length} edits, one after the other, go to the editing node as PUT /tours/{id}; each is timed from its commit (the instance's `
        + 'catalog_version seen to move in the database, read every 2 ms) to the first answer of GET /tours/{id} with the new price from each node (asked every 5 ms).',
      '',
      table(['edit', 'commit → other node', 'commit → editing node', 'commit → PUT answer'],
        spread.edits.map((e, i) => [String(i + 1), seconds(e.toOtherNodeMs), seconds(e.toEditingNodeMs), seconds(e.toPutAnswerMs)])),
      '',
      table(['node', 'whole list: req/s', 'p50', 'p99', 'max', 'errors'], [
        ['editing', ...figureCells(spread.wholeList.editing)],
        ['other', ...figureCells(spread.wholeList.other)],
      ]),
      '',
      table(['node', 'cold start', 'peak RSS once started', 'peak RSS since (lists, edits)'], [node('editing', spread.editing), node('other', spread.other)]),
    )
  }
  if (results.missing.length > 0) lines.push('', `- Not in this build, so not measured: ${results.missing.map((m) => `\`${m}\``).join(', ')}.`)
  return lines.join('\n')
}

function operatorSection(operator: OperatorResults, settings: BenchReport['settings']): string {
  const { size } = operator
  const exported = operator.export
  return [
    `### Operator reads (issue 13): ${count(size.tours)} tours, ${count(size.bookings)} bookings`,
    '',
    `An API key of the manager role, ${settings.operator.durationSeconds} s per read after ${settings.operator.warmupSeconds} s of warm-up. `
      + `The manifest's departure has ${operator.manifestGuests} one-guest bookings made through the booking API; it is read one request at a time, `
      + 'as a guide opens it. Every read goes to the database (nothing is kept between requests).',
    '',
    table(['request', 'connections', 'req/s', 'p50', 'p99', 'max', 'errors'],
      operator.reads.map((r) => [r.request, String(r.connections), ...figureCells(r).slice(0, 4), `${count(r.errors)}${statusNote(r)}`])),
    '',
    exported
      ? `- CSV export, \`${exported.request}\`: ${count(exported.rows)} bookings (${count(exported.expectedRows)} expected), `
        + `${megabytes(exported.bytes)}, streamed in ${exported.seconds.toFixed(2)} s; the service's RSS went from ${megabytes(exported.rssBeforeBytes)} `
        + `up by ${exported.rssGrowthBytes === null ? 'n/a' : `${(exported.rssGrowthBytes / MB).toFixed(1)} MB`} at most while it streamed.`
      : '- CSV export: not measured.',
    ...operator.missing.length > 0 ? [`- Not in this build, so not measured: ${operator.missing.map((m) => `\`${m}\``).join(', ')}.`] : [],
    `- Seeding took ${size.seedSeconds.toFixed(1)} s; the service started in ${Math.round(size.coldStartMs)} ms and peaked at ${megabytes(size.peakRssBytes)}.`,
  ].join('\n')
}

/** The arguments that ran `report`, as `npm run bench` takes them. */
function benchArguments(report: BenchReport): string {
  const args = [...report.mode === 'quick' ? ['--quick'] : [], ...report.only ? ['--only', report.only] : []]
  return args.length === 0 ? '' : ` -- ${args.join(' ')}`
}

export function formatReport(report: BenchReport): string {
  const m = report.machine
  const sections = report.databases.map((d) => (d.status === 'measured'
    ? databaseSection(d, report.settings)
    : d.status === 'sections'
      ? sectionsOnly(d, report.settings)
      : `## ${DIALECT_NAMES[d.dialect]}\n\n${DIALECT_NAMES[d.dialect]}: ${d.status} (${d.reason})`))
  const targets = checkTargets(report)
  // Issue 24's target is there only when the streams were measured (never in a quick run).
  const issues = report.databases.some((d) => (d.status === 'measured' || d.status === 'sections') && d.streams) ? '7, 12, 13, 15, 16, 24, 27 and 28' : '7, 12, 13, 15, 16, 27 and 28'
  return [
    `# tourdesk benchmark, ${report.date}${report.mode === 'quick' ? ' (quick run: figures not comparable)' : ''}${report.only ? ` (${report.only} only)` : ''}`,
    '',
    `${m.cpus} × ${m.cpuModel}, ${megabytes(m.memoryBytes)} memory, ${m.platform}, Node.js ${m.node}. The load generator`
      + ' (autocannon) runs on the same machine as the service, as issue 7 asks.'
      + ` 1-minute load average: ${report.loadAverage.start.toFixed(2)} at the start, ${report.loadAverage.end.toFixed(2)} at the end.`,
    ...(report.note ? ['', `Note: ${report.note}`] : []),
    '',
    `Run from ${report.startedAt} to ${report.finishedAt}${report.commit ? ` at commit ${report.commit}` : ''}. Reproduce with \`npm run bench${benchArguments(report)}\`.`,
    '',
    ...sections.flatMap((s) => [s, '']),
    `## Targets (issues ${issues})`,
    '',
    targets.length === 0
      ? 'No database was measured.'
      : table(['database', 'figure', 'target', 'measured', 'met'], targets.map((t) => [DIALECT_NAMES[t.dialect], t.figure, t.target, t.measured, t.met ? 'yes' : 'NO'])),
    '',
  ].join('\n')
}
