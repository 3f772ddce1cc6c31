import type { BenchReport, CatalogEditResults, MeasuredDatabase, OctoPollingResults, OperatorResults, SectionsMeasured, StreamResults, UnitsCostResults, WebhookResults } from './results-model.ts'
import { median } from './statistics.ts'

/** One of the targets (issues 7, 12, 13, 15, 16 and 24), checked against one database's figures. */
export interface TargetCheck {
  dialect: MeasuredDatabase['dialect']
  figure: string
  target: string
  measured: string
  met: boolean
}

const MB = 1_000_000

function checksFor(result: MeasuredDatabase): Omit<TargetCheck, 'dialect'>[] {
  const endpoint = (name: string) => result.endpoints.find((e) => e.name === name)!
  const ratio = (name: string, least: number) => ({
    figure: `${endpoint(name).request}: share of the ceiling`,
    target: `≥ ${least}`,
    measured: endpoint(name).ratioToCeiling.toFixed(2),
    met: endpoint(name).ratioToCeiling >= least,
  })
  const reads = result.endpoints.filter((e) => e.kind === 'read')
  const worstRead = reads.reduce((a, b) => (b.latencyMs.p99 > a.latencyMs.p99 ? b : a))
  const checks = [
    ratio('tours', 0.7),
    ratio('availability-14', 0.5),
    // Issue 12: both write cycles, every acknowledged write durable.
    ...['hold-release', 'hold-checkout'].map((name) => ratio(name, result.dialect === 'sqlite' ? 0.25 : 0.15)),
    {
      figure: `p99 of reads at ${worstRead.connections} connections (worst: ${worstRead.request})`,
      target: '< 25 ms',
      measured: `${worstRead.latencyMs.p99.toFixed(1)} ms`,
      met: worstRead.latencyMs.p99 < 25,
    },
    ...result.growth.endpoints.map((g) => ({
      figure: `${g.request}: mean latency, large database over small`,
      target: '≤ 1.2×',
      measured: `${g.meanLatencyRatio.toFixed(2)}×`,
      met: g.meanLatencyRatio <= 1.2,
    })),
  ]
  if (result.peakRssBytes !== null) {
    checks.push({ figure: 'peak RSS of the service', target: '< 200 MB', measured: `${(result.peakRssBytes / MB).toFixed(0)} MB`, met: result.peakRssBytes < 200 * MB })
  }
  const coldStart = median(result.coldStartsMs)
  checks.push({ figure: 'cold start to first answer (median)', target: '< 1 s', measured: `${Math.round(coldStart)} ms`, met: coldStart < 1000 })
  if (result.operator) checks.push(...operatorChecks(result.operator))
  if (result.catalogEdits) checks.push(...catalogEditChecks(result.catalogEdits))
  if (result.webhooks) checks.push(...webhookChecks(result.webhooks))
  if (result.unitsCost) checks.push(...unitsChecks(result.unitsCost))
  if (result.streams) checks.push(streamCheck(result.streams))
  if (result.octoPolling) checks.push(...octoChecks(result.octoPolling))
  return checks
}

/** Issue 13: p99 of the operator's reads (ms) by read, and the export's time and memory. */
const OPERATOR_P99_MS: Record<string, number> = { 'bookings-day': 50, 'departures-14': 50, 'departures-14-200': 50, manifest: 20 }
const EXPORT_SECONDS = 5
const EXPORT_RSS_GROWTH_MB = 50

function operatorChecks(operator: OperatorResults): Omit<TargetCheck, 'dialect'>[] {
  const size = `${operator.size.bookings.toLocaleString('en')} bookings`
  const checks: Omit<TargetCheck, 'dialect'>[] = operator.reads.filter((r) => r.name in OPERATOR_P99_MS).map((r) => ({
    figure: `${r.request}: p99 at ${r.connections} connection${r.connections === 1 ? '' : 's'}, ${size}`,
    target: `< ${OPERATOR_P99_MS[r.name]} ms`,
    measured: `${r.latencyMs.p99} ms`,
    met: r.latencyMs.p99 < OPERATOR_P99_MS[r.name] && r.errors === 0,
  }))
  const exported = operator.export
  if (exported) {
    const rows = `${exported.rows.toLocaleString('en')} bookings`
    checks.push({ figure: `CSV export of ${rows}: time to the last byte`, target: `< ${EXPORT_SECONDS} s`, measured: `${exported.seconds.toFixed(2)} s`, met: exported.seconds < EXPORT_SECONDS })
    if (exported.rssGrowthBytes !== null) {
      checks.push({
        figure: `CSV export of ${rows}: the service's RSS growth`,
        target: `< ${EXPORT_RSS_GROWTH_MB} MB`,
        measured: `${(exported.rssGrowthBytes / MB).toFixed(1)} MB`,
        met: exported.rssGrowthBytes < EXPORT_RSS_GROWTH_MB * MB,
      })
    }
  }
  for (const request of operator.missing) checks.push({ figure: request, target: 'measured', measured: 'not in this build', met: false })
  return checks
}

/**
 * Issue 15: read p99 while a manager edits at the pace asked (which must be kept up, with no
 * edit failing), an edit's time from commit to the other node's answer, and each node's peak
 * resident size over its whole life, start included.
 */
const EDIT_READ_P99_MS = 25
const EDIT_PACE_SHARE = 0.95
const PROPAGATION_MS = 2_000
const NODE_RSS_MB = 300

function catalogEditChecks(results: CatalogEditResults): Omit<TargetCheck, 'dialect'>[] {
  const checks: Omit<TargetCheck, 'dialect'>[] = []
  const reads = results.readsUnderEdits
  for (const read of reads?.reads ?? []) {
    const { edits } = read
    checks.push({
      figure: `${read.request}: p99 at ${read.connections} connections while a manager makes ${reads!.editsPerSecond} catalog edits a second`,
      target: `< ${EDIT_READ_P99_MS} ms, ≥ ${(reads!.editsPerSecond * EDIT_PACE_SHARE).toFixed(1)} edits/s`,
      measured: `${read.latencyMs.p99} ms (${read.withoutEdits.latencyMs.p99} ms without edits), ${edits.perSecond.toFixed(1)} edits/s (${edits.failed} failed)`,
      met: read.latencyMs.p99 < EDIT_READ_P99_MS && read.errors === 0 && edits.failed === 0 && edits.perSecond >= reads!.editsPerSecond * EDIT_PACE_SHARE,
    })
  }
  const spread = results.propagation
  if (spread) {
    const tours = `${spread.tours.toLocaleString('en')} tours`
    const slowest = Math.max(...spread.edits.map((e) => e.toOtherNodeMs))
    checks.push({
      figure: `catalog edit of an instance of ${tours}: commit to the other node's answer (slowest of ${spread.edits.length})`,
      target: `< ${PROPAGATION_MS / 1000} s`,
      measured: `${(slowest / 1000).toFixed(2)} s`,
      met: slowest < PROPAGATION_MS,
    })
    const peaks = [spread.editing, spread.other].flatMap((node) => [node.startPeakRssBytes, node.servingPeakRssBytes]).filter((b): b is number => b !== null)
    if (peaks.length > 0) {
      const peak = Math.max(...peaks)
      checks.push({ figure: `peak RSS of a node serving ${tours} (either node, start included)`, target: `< ${NODE_RSS_MB} MB`, measured: `${(peak / MB).toFixed(0)} MB`, met: peak < NODE_RSS_MB * MB })
    }
  }
  for (const request of results.missing) checks.push({ figure: request, target: 'measured', measured: 'not in this build', met: false })
  return checks
}

/**
 * Issue 16: the outbox adds at most 10 % to the checkout cycle's latency (mean latency, as
 * the whole-millisecond p50 is too coarse for a 10 % step): the tree whose writes append
 * their events (read by webhook delivery, which has no endpoint here) over the same tree with
 * its events dropped. What the emails made from those events add, and the commit before the
 * outbox (which lacks every other change since too), are reported beside it, not held to it;
 * one node delivers at least 200 events a second to a local receiver, each once and verified.
 */
const OUTBOX_LATENCY_RATIO = 1.10
const DELIVERIES_PER_SECOND = 200

function webhookChecks(results: WebhookResults): Omit<TargetCheck, 'dialect'>[] {
  const checks: Omit<TargetCheck, 'dialect'>[] = []
  const { outboxCost: cost, deliveries } = results
  const outbox = cost.variants.find((v) => v.name === 'outbox-only')
  const baseline = cost.variants.find((v) => v.name === 'no-outbox')
  if (outbox && baseline) {
    const ratio = outbox.latencyMs.mean / baseline.latencyMs.mean
    checks.push({
      figure: `${cost.request} at ${cost.connections} connections: mean latency with the outbox (no emails made from it) over the same tree without it`,
      target: `≤ ${OUTBOX_LATENCY_RATIO.toFixed(2)}×`,
      measured: `${ratio.toFixed(2)}× (p50 ${baseline.latencyMs.p50} → ${outbox.latencyMs.p50} ms, p99 ${baseline.latencyMs.p99} → ${outbox.latencyMs.p99} ms, `
        + `${Math.round(baseline.requestsPerSecond).toLocaleString('en')} → ${Math.round(outbox.requestsPerSecond).toLocaleString('en')} req/s)`,
      met: ratio <= OUTBOX_LATENCY_RATIO && outbox.errors === 0 && baseline.errors === 0,
    })
  }
  for (const reason of cost.unavailable) checks.push({ figure: `checkout cycle: ${reason.split(':')[0]}`, target: 'measured', measured: 'unavailable', met: false })
  const undelivered = deliveries.events - (deliveries.deliveries.delivered ?? 0)
  checks.push({
    figure: `deliveries of ${deliveries.events.toLocaleString('en')} events by one node to a local receiver verifying each`,
    target: `≥ ${DELIVERIES_PER_SECOND}/s, each once`,
    measured: `${Math.round(deliveries.deliveredPerSecond)}/s (${Math.round(deliveries.sustainedPerSecond)}/s once flowing); ${deliveries.duplicates} duplicates, ${deliveries.unverified} unverified, ${undelivered} not delivered`,
    met: deliveries.deliveredPerSecond >= DELIVERIES_PER_SECOND && deliveries.duplicates === 0 && deliveries.unverified === 0 && undelivered === 0,
  })
  return checks
}

/**
 * Issue 24, item 7: with every stream it serves open and none read, the node stays under the
 * service's memory target, its peak since it started included; each stream must still have
 * been open when the peak was read.
 */
const STALLED_STREAMS_RSS_MB = 200

/** Issue 27: each write cycle with price categories keeps at least 95 % of the commit before's throughput. */
function unitsChecks(results: UnitsCostResults): Omit<TargetCheck, 'dialect'>[] {
  return results.cycles.map((cycle) => {
    const [current, before] = cycle.versions
    const ratio = current.requestsPerSecond / before.requestsPerSecond
    return { figure: `${cycle.request}: req/s with price categories over the commit before`, target: '≥ 0.95', measured: ratio.toFixed(3), met: ratio >= 0.95 }
  })
}

/** Issue 28, item 5: the work tree's 90-day calendar at ≥ 0.3 of the ceiling, p99 under 25 ms. */
const OCTO_CALENDAR_SHARE = 0.3
const OCTO_CALENDAR_P99_MS = 25

function octoChecks(results: OctoPollingResults): Omit<TargetCheck, 'dialect'>[] {
  const calendar = results.requests.find((poll) => poll.name === 'calendar-90')!
  const [current, before] = calendar.versions
  return [
    {
      figure: `${calendar.request} at ${results.connections} connections: share of the ceiling (the commit before: ${before.ratioToCeiling.toFixed(2)})`,
      target: `≥ ${OCTO_CALENDAR_SHARE}`,
      measured: current.ratioToCeiling.toFixed(2),
      met: current.ratioToCeiling >= OCTO_CALENDAR_SHARE && current.errors === 0,
    },
    {
      figure: `${calendar.request} at ${results.connections} connections: p99 (the commit before: ${before.latencyMs.p99} ms)`,
      target: `< ${OCTO_CALENDAR_P99_MS} ms`,
      measured: `${current.latencyMs.p99} ms`,
      met: current.latencyMs.p99 < OCTO_CALENDAR_P99_MS && current.errors === 0,
    },
  ]
}

function streamCheck(results: StreamResults): Omit<TargetCheck, 'dialect'> {
  const { peakBeforeStreams, peakWithStreams } = results.rssBytes
  const peak = Math.max(peakBeforeStreams ?? 0, peakWithStreams ?? 0)
  const open = results.stalled?.established ?? results.streams
  return {
    figure: `peak RSS of a node with ${results.streams} stalled event streams over ${results.messages.toLocaleString('en')} events of ${(results.eventBytes / 1000).toFixed(0)} kB`,
    target: `< ${STALLED_STREAMS_RSS_MB} MB`,
    measured: peakWithStreams === null ? 'n/a' : `${(peak / MB).toFixed(0)} MB (${open} streams open)`,
    met: peakWithStreams !== null && peak < STALLED_STREAMS_RSS_MB * MB && open === results.streams,
  }
}

function checksOf(result: MeasuredDatabase | SectionsMeasured): Omit<TargetCheck, 'dialect'>[] {
  if (result.status === 'measured') return checksFor(result)
  return [
    ...result.catalogEdits ? catalogEditChecks(result.catalogEdits) : [],
    ...result.webhooks ? webhookChecks(result.webhooks) : [],
    ...result.unitsCost ? unitsChecks(result.unitsCost) : [],
    ...result.streams ? [streamCheck(result.streams)] : [],
    ...result.octoPolling ? octoChecks(result.octoPolling) : [],
  ]
}

export function checkTargets(report: BenchReport): TargetCheck[] {
  return report.databases
    .filter((d): d is MeasuredDatabase | SectionsMeasured => d.status === 'measured' || d.status === 'sections')
    .flatMap((d) => checksOf(d).map((check) => ({ dialect: d.dialect, ...check })))
}
