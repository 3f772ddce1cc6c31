import type { LoadFigures } from './load.ts'

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** The median of each figure over runs of one load (max: the highest), with their requests, errors and answers summed. */
export function medianFigures(runs: LoadFigures[]): LoadFigures {
  const statusCodes: Record<string, number> = {}
  for (const run of runs) for (const [code, count] of Object.entries(run.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count
  return {
    requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
    latencyMs: {
      p50: median(runs.map((r) => r.latencyMs.p50)),
      p99: median(runs.map((r) => r.latencyMs.p99)),
      max: Math.max(...runs.map((r) => r.latencyMs.max)),
      mean: median(runs.map((r) => r.latencyMs.mean)),
    },
    requests: runs.reduce((sum, r) => sum + r.requests, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    statusCodes,
  }
}

/** The nearest-rank percentile (`share` from 0 to 1) of some values. */
export function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)]
}
