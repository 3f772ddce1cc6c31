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
