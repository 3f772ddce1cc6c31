// autocannon ships no types; this declares the part of its API (v8) the bench uses.
declare module 'autocannon' {
  export interface RawRequest {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string
  }

  export interface Request extends RawRequest {
    /** Called before each send; returns the request to send. */
    setupRequest?: (request: RawRequest, context: Record<string, unknown>) => RawRequest
    onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void
  }

  export interface Client {
    /** Replaces the requests this one connection cycles through. */
    setRequests(requests: Request[]): void
  }

  export interface Options {
    url: string
    connections?: number
    duration?: number
    /** Milliseconds per sample; the end of the run is checked once per sample. */
    sampleInt?: number
    amount?: number
    timeout?: number
    method?: string
    headers?: Record<string, string>
    body?: string
    requests?: Request[]
    /** Called once per connection before it sends anything. */
    setupClient?: (client: Client) => void
  }

  export interface Histogram {
    average: number
    mean: number
    stddev: number
    min: number
    max: number
    total: number
    p50: number
    p90: number
    p99: number
    p99_9: number
  }

  export interface Result {
    duration: number
    errors: number
    timeouts: number
    non2xx: number
    statusCodeStats: Record<string, { count: number }>
    latency: Histogram
    requests: Histogram & { sent: number }
  }

  export interface Instance extends PromiseLike<Result> {
    stop(): void
  }

  function autocannon(options: Options): Instance
  export default autocannon
}
