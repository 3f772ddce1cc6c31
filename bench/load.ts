import autocannon, { type Client, type Request } from 'autocannon'

/** One endpoint's figures under a fixed number of connections for a fixed time. */
export interface LoadFigures {
  requestsPerSecond: number
  latencyMs: { p50: number, p99: number, max: number, mean: number }
  requests: number
  /** Answers other than 2xx, plus socket errors (timeouts included). */
  errors: number
  /** Answers counted by status code, to tell a 409 from a 500 when errors is not 0. */
  statusCodes: Record<string, number>
}

export interface LoadSpec {
  url: string
  connections: number
  durationSeconds: number
  /** Not measured: lets the JIT, caches and connections settle first. */
  warmupSeconds: number
  requests?: Request[]
  /** Called once per connection, e.g. to give each its own session. */
  setupClient?: (client: Client) => void
}

/** autocannon checks for the end of a run once per sample; a short sample keeps sub-second runs short. */
const SAMPLE_MS = 100

async function fire(spec: LoadSpec, durationSeconds: number) {
  return autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: durationSeconds,
    sampleInt: SAMPLE_MS,
    requests: spec.requests,
    setupClient: spec.setupClient,
  })
}

export async function measureLoad(spec: LoadSpec): Promise<LoadFigures> {
  if (spec.warmupSeconds > 0) await fire(spec, spec.warmupSeconds)
  const result = await fire(spec, spec.durationSeconds)
  return {
    requestsPerSecond: result.requests.total / result.duration,
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max, mean: result.latency.mean },
    requests: result.requests.total,
    errors: result.non2xx + result.errors,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
  }
}
