import { setTimeout as sleep } from 'node:timers/promises'

const POLL_MS = 25

/** Polls GET /readyz until it answers 200; returns when it did (performance.now()), or throws after `timeoutMs`. */
export async function waitUntilReady(origin: string, timeoutMs: number): Promise<number> {
  const deadline = performance.now() + timeoutMs
  while (performance.now() < deadline) {
    try {
      const res = await fetch(`${origin}/readyz`, { signal: AbortSignal.timeout(Math.max(1, Math.ceil(deadline - performance.now()))) })
      await res.arrayBuffer()
      if (res.status === 200) return performance.now()
    } catch {
      // Not listening yet, or the answer took too long: try again.
    }
    await sleep(POLL_MS)
  }
  throw new Error(`${origin}/readyz did not answer 200 within ${timeoutMs} ms`)
}

export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`
}
