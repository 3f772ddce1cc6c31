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
}

export interface UnmeasuredDatabase {
  dialect: 'sqlite' | 'postgres'
  status: 'skipped' | 'failed'
  reason: string
}

export type DatabaseResult = MeasuredDatabase | UnmeasuredDatabase

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
  databases: DatabaseResult[]
}
