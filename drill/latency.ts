/** The nearest-rank percentile of some latencies, in milliseconds. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

export function latencySummary(values: number[]): string {
  const ms = (n: number) => `${n.toFixed(1)} ms`
  return `p50 ${ms(percentile(values, 50))}, p99 ${ms(percentile(values, 99))}, max ${ms(Math.max(...values))}`
}
