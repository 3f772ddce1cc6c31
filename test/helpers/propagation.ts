import { performance } from 'node:perf_hooks'

/** What docs/operator-api.md ("Catalog, settings and policy") promises: a catalog edit reaches guests on every node within 2 seconds. */
export const PROPAGATION_LIMIT_MS = 2_000

/**
 * Milliseconds from `since` (a performance.now() reading) until `check` first answers true,
 * asking again as soon as each answer is in: no sleeps, so the delay measured is the node's,
 * give or take one request. Gives up after `patienceMs`, well past the promise, so a slow
 * node fails with its real delay in the message rather than a bare timeout.
 */
export async function delayUntil(check: () => Promise<boolean>, since = performance.now(), patienceMs = 10_000): Promise<number> {
  for (;;) {
    if (await check()) return performance.now() - since
    if (performance.now() - since > patienceMs) throw new Error(`the change had not arrived after ${patienceMs} ms`)
  }
}
