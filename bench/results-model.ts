import type { LoadFigures } from './load.ts'
import type { BenchSettings, DatabaseSize } from './settings.ts'

/** The shape of bench/results/<date>.json. */
export interface EndpointResult extends LoadFigures {
  name: string
  request: string
  kind: 'read' | 'write'
  connections: number
  /** requestsPerSecond over the ceiling's, both measured in the same run. */
  ratioToCeiling: number
  /** The service's peak resident size so far, read after this endpoint's run: shows which endpoint raised it. */
  peakRssBytes: number | null
}

export interface GrowthSizeResult extends DatabaseSize {
  seedSeconds: number
  coldStartMs: number
  peakRssBytes: number | null
}

export interface GrowthResult {
  name: string
  request: string
  /** Medians over the rounds. */
  small: LoadFigures
  large: LoadFigures
  /** Large over small; 1 means no growth. */
  meanLatencyRatio: number
  p99LatencyRatio: number
}

export interface OperatorReadResult extends LoadFigures {
  name: string
  request: string
  connections: number
}

export interface OperatorExportResult {
  request: string
  /** Bookings in the export's window, counted in the database beforehand. */
  expectedRows: number
  rows: number
  bytes: number
  seconds: number
  rssBeforeBytes: number | null
  /** The service's highest resident size while streaming, over its size before. */
  rssGrowthBytes: number | null
}

/** Issue 13's operator reads, on a database of their own. */
export interface OperatorResults {
  size: GrowthSizeResult
  /** Guests on the departure whose manifest is read. */
  manifestGuests: number
  reads: OperatorReadResult[]
  export: OperatorExportResult | null
  /** Operator routes not in the build measured (answered with the router's 404). */
  missing: string[]
}

/** A manager's catalog edits at a fixed pace, while the reads ran. */
export interface EditFigures {
  /** PUT /tours/{id} answered 200. */
  edits: number
  failed: number
  /** Edits made per second of the run (the pace asked for at most). */
  perSecond: number
  /** Each edit's time to its answer, which the node sends once it serves the new version. */
  latencyMs: { p50: number, p99: number, max: number }
}

export interface ReadUnderEdits extends LoadFigures {
  name: string
  request: string
  connections: number
  edits: EditFigures
  /** The same read on the same service just before, with no edits: what the edits add, whatever the machine's load. */
  withoutEdits: LoadFigures
}

/** One edit of the large instance, timed from its commit (seen in the database) to each node's first answer with the new price. */
export interface TimedEdit {
  toOtherNodeMs: number
  /** The node the edit was sent to; it answers the PUT once it serves the new version. */
  toEditingNodeMs: number
  toPutAnswerMs: number
}

export interface NodeMemory {
  coldStartMs: number
  /** VmHWM once started (loading the instance and comparing it with the catalog file). */
  startPeakRssBytes: number | null
  /** VmHWM from then on (it is reset after the start): the lists streamed, the edits reloaded. */
  servingPeakRssBytes: number | null
}

/** Issue 15's catalog figures. */
export interface CatalogEditResults {
  /** Reads on the small catalog, on a service that also takes the edits. */
  readsUnderEdits: { tours: number, editsPerSecond: number, reads: ReadUnderEdits[] } | null
  /** Two nodes on one database serving the large instance. */
  propagation: {
    tours: number
    /** The whole list, streamed by each node (editing node first) before the edits. */
    wholeList: { request: string, bytes: number, editing: LoadFigures, other: LoadFigures }
    edits: TimedEdit[]
    editing: NodeMemory
    other: NodeMemory
  } | null
  /** Operator routes not in the build measured (answered with the router's 404). */
  missing: string[]
}

/** One version of the service on the checkout cycle: the median of its rounds, and each round. */
export interface CycleVariant extends LoadFigures {
  name: 'outbox' | 'outbox-only' | 'no-outbox' | 'before-outbox' | 'fan-out'
  /** How the report names it. */
  label: string
  /** The sources it was built from: a commit, `+changes` for the work tree, and any edit. */
  source: string
  rounds: LoadFigures[]
}

/** Issue 16: the checkout cycle with the outbox, without it, and with webhook endpoints to fan out to. */
export interface OutboxCostResults {
  request: string
  connections: number
  /** Every variant ran this many times, in turn, back to back. */
  rounds: number
  variants: CycleVariant[]
  /** The fan-out variant's endpoints, and how long their deliveries took to drain after each round. */
  fanOut: { endpoints: number, delivered: number, drainSeconds: number[] } | null
  /** Variants that could not be built or run here, with why. */
  unavailable: string[]
}

/** Issue 27: one write cycle on the work tree and on the commit before price categories. */
export interface UnitsCycle {
  name: string
  request: string
  versions: Array<LoadFigures & { label: string, source: string, rounds: LoadFigures[] }>
}

export interface UnitsCostResults {
  connections: number
  /** Every version ran each cycle this many times, in turn, back to back. */
  rounds: number
  cycles: UnitsCycle[]
}

/** Issue 28: one reseller poll on the work tree and on the commit before kept OCTo answers. */
export interface OctoPoll {
  name: string
  request: string
  /** Each version's medians, its share of the ceiling (the median of its rounds' shares) and each round. */
  versions: Array<LoadFigures & { label: string, source: string, ratioToCeiling: number, rounds: LoadFigures[] }>
}

export interface OctoPollingResults {
  connections: number
  /** Each round measured the ceiling, then every version's polls in turn. */
  rounds: number
  ceiling: LoadFigures & { rounds: LoadFigures[] }
  requests: OctoPoll[]
}

/** Issue 16: deliveries of a backlog of events to one receiver, by one node. */
export interface DeliveryThroughput {
  events: number
  /** Making them: guest checkouts through the API. */
  makeSeconds: number
  /** From the replay that queued them to the last one taken by the receiver. */
  seconds: number
  deliveredPerSecond: number
  /** From the first receipt to the last: the rate once deliveries flow (the scheduler runs each second). */
  sustainedPerSecond: number
  /** Events the receiver took more than once, and messages that failed its verification. */
  duplicates: number
  unverified: number
  /** The delivery log at the end, by status. */
  deliveries: Record<string, number>
}

export interface WebhookResults {
  outboxCost: OutboxCostResults
  deliveries: DeliveryThroughput
}

/** GET /healthz asked one request at a time; latencies in ms. */
export interface HealthzLatency {
  requests: number
  p50: number
  p99: number
  max: number
}

/** Issue 24, item 7: a node holding as many event streams as it serves, none of them read, over a feed of large events. */
export interface StreamResults {
  streams: number
  /** API keys they were opened with, as many as the per-key cap needs. */
  keys: number
  /** Contact messages made through the guest API before the streams opened from the first one. */
  messages: number
  /** One message's event as JSON. */
  eventBytes: number
  makeSeconds: number
  /** The answer to one stream more than the node serves. */
  beyondCapStatus: number
  /**
   * The node's peak RSS once started; its RSS once the messages were made (current, and its
   * peak since it started); its peak while the streams were open (VmHWM reset as they opened);
   * its RSS once they closed.
   */
  rssBytes: { started: number | null, beforeStreams: number | null, peakBeforeStreams: number | null, peakWithStreams: number | null, afterClose: number | null }
  /** Once the node had stopped writing them: streams still established, bytes in the kernel's buffers toward their readers, seconds since they opened; null without /proc/net/tcp. */
  stalled: { established: number, queuedBytes: number, seconds: number } | null
  healthz: { before: HealthzLatency, withStreams: HealthzLatency, afterClose: HealthzLatency }
}

export interface MeasuredDatabase {
  dialect: 'sqlite' | 'postgres'
  status: 'measured'
  ceiling: LoadFigures
  /** Each start on a fresh, empty database (migrations included), spawn to first answer. */
  coldStartsMs: number[]
  /** The peak resident size of the service over every endpoint's run. */
  peakRssBytes: number | null
  /** Peak resident size reached by the end of the cold start, before any load. */
  startRssBytes: number | null
  endpoints: EndpointResult[]
  growth: { sizes: { small: GrowthSizeResult, large: GrowthSizeResult }, endpoints: GrowthResult[] }
  /** Absent from results written before issue 13. */
  operator?: OperatorResults
  /** Absent from results written before issue 15. */
  catalogEdits?: CatalogEditResults
  /** Absent from results written before issue 16. */
  webhooks?: WebhookResults
  /** Absent from results written before issue 27. */
  unitsCost?: UnitsCostResults
  /** Absent from quick runs and from results written before issue 24. */
  streams?: StreamResults
  /** Absent from results written before issue 28. */
  octoPolling?: OctoPollingResults
}

/** A run of some sections only (`npm run bench -- --only catalog-edits`): their figures, nothing else. */
export interface SectionsMeasured {
  dialect: 'sqlite' | 'postgres'
  status: 'sections'
  catalogEdits?: CatalogEditResults
  webhooks?: WebhookResults
  unitsCost?: UnitsCostResults
  streams?: StreamResults
  octoPolling?: OctoPollingResults
}

export interface UnmeasuredDatabase {
  dialect: 'sqlite' | 'postgres'
  status: 'skipped' | 'failed'
  reason: string
}

export type DatabaseResult = MeasuredDatabase | SectionsMeasured | UnmeasuredDatabase

export interface BenchReport {
  date: string
  startedAt: string
  finishedAt: string
  mode: BenchSettings['mode']
  /** The commit measured, `+changes` when the work tree had uncommitted changes; null outside git. */
  commit: string | null
  note: string | null
  machine: { cpus: number, cpuModel: string, memoryBytes: number, platform: string, node: string }
  /** 1-minute load average when the run started and ended: above 0 shows other work on the machine. */
  loadAverage: { start: number, end: number }
  settings: BenchSettings
  /** The sections run when not all were (`--only`); absent or null for a whole run. */
  only?: string | null
  databases: DatabaseResult[]
}
