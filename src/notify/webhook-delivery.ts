import { randomBytes } from 'node:crypto'
import http from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'
import type { Temporal } from 'temporal-polyfill'
import { systemClock, type Clock } from '../domain/clock.ts'
import { DEFAULT_RETRY_SCHEDULE_MS, DISABLE_AFTER_MS, waitInWords } from '../domain/webhook-retry.ts'
import { formatStoredInZone, toStoredInstant } from '../domain/instant-format.ts'
import type { EventRow } from '../store/events.ts'
import type { Store } from '../store/store.ts'
import type { ClaimedDelivery, DeliveryOutcome, WebhookEndpointRow } from '../store/webhooks.ts'
import type { Plan } from '../store/write-plan.ts'
import type { CatalogRegistry } from '../catalog/catalog-registry.ts'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { hostOf, resolveSafely, safeLookup } from './safe-address.ts'
import type { Task } from '../jobs/scheduler.ts'
import { signedHeaders } from './webhook-signing.ts'

export interface WebhookSettings {
  /** TOURDESK_WEBHOOKS_ALLOW_PRIVATE: send to loopback and private addresses too (tests, drills, a receiver on the same network). */
  allowPrivate: boolean
  /** The waits before each retry (TOURDESK_WEBHOOK_RETRY_SCHEDULE), in milliseconds. */
  retryScheduleMs: readonly number[]
  /**
   * The wall clock the signature's timestamp and an HTTP-date Retry-After are read with. It is
   * not the service's clock: receivers compare the timestamp with their own
   * (docs/events-and-webhooks.md, "Webhooks"), so a service whose clock a test holds still signs in real time.
   */
  signingClock: Clock
}

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = { allowPrivate: false, retryScheduleMs: DEFAULT_RETRY_SCHEDULE_MS, signingClock: systemClock }

/** No answer within this is a failed attempt. */
const TIMEOUT_MS = 15_000
/** A claimed attempt is this node's for this long: twice the timeout, so a live node always writes its outcome first. */
const LEASE_MS = 30_000
/** A Retry-After later than this is read as this. */
const MAX_RETRY_AFTER_MS = 24 * 3_600_000
/** Deliveries claimed, and attempted concurrently, at a time. */
const BATCH = 100
/** Claims per run at most, so a backlog does not hold the task for ever. */
const ROUNDS = 20
const LOG_DAYS = 30
/** Of a receiver's answer, only this much is read (and then dropped). */
const MAX_ANSWER_BYTES = 64 * 1024
/** Of a receiver's answer, this much is kept in the delivery log. */
const KEPT_ANSWER_BYTES = 1024

/** What one POST to a receiver came to. */
export interface AttemptResult {
  /** The receiver's HTTP status; null when there was no answer. */
  status: number | null
  /** Why it is not a success, for the delivery log; null for a 2xx. */
  error: string | null
  retryAfterMs: number | null
  durationMs: number
  /** The first 1 KiB of the answer's body, as text; null when there was no answer. */
  answer: string | null
}

export interface DeliveryReport {
  delivered: number
  retried: number
  failed: number
  disabledEndpoints: number
  prunedDeliveries: number
}

/** Retry-After as a wait from `nowMs`: delay-seconds or an HTTP-date (RFC 9110 10.2.3); null when absent or unreadable. */
export function retryAfterMs(value: string | undefined, nowMs: number): number | null {
  if (!value) return null
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs)
}

/** What happens after a failed attempt: the next one after the schedule's wait (±10 % jitter, or the receiver's later Retry-After), or none. */
export function afterFailure(attemptsMade: number, schedule: readonly number[], retryAfter: number | null, random = Math.random): number | null {
  if (attemptsMade > schedule.length) return null
  const wait = schedule[attemptsMade - 1] * (0.9 + 0.2 * random())
  return Math.round(Math.max(wait, Math.min(retryAfter ?? 0, MAX_RETRY_AFTER_MS)))
}

/**
 * POSTs `body` to `url` once: no redirects followed (a 3xx is a failure), 15 s at most, and,
 * unless private addresses are allowed, every address the connection resolves to checked
 * (safe-address.ts), so DNS that changes after the endpoint was made cannot reach inside.
 */
export async function postOnce(url: string, headers: Record<string, string>, body: string, settings: Pick<WebhookSettings, 'allowPrivate' | 'signingClock'>): Promise<AttemptResult> {
  const { allowPrivate, signingClock } = settings
  const started = performance.now()
  const kept: Buffer[] = []
  const done = (status: number | null, error: string | null, retryAfter: number | null = null): AttemptResult => ({
    status, error, retryAfterMs: retryAfter, durationMs: Math.round(performance.now() - started),
    // A streaming decode leaves out a character the cut split in two, rather than a replacement character.
    answer: status === null ? null : new TextDecoder().decode(Buffer.concat(kept).subarray(0, KEPT_ANSWER_BYTES), { stream: true }),
  })
  let target: URL
  try {
    target = new URL(url)
    // An IP literal never reaches `lookup`: check it here (names are checked as they connect).
    if (!allowPrivate && isIP(hostOf(target)) !== 0) await resolveSafely(hostOf(target))
  } catch (err) {
    return done(null, (err as Error).message)
  }
  return new Promise<AttemptResult>((resolve) => {
    const client = target.protocol === 'https:' ? https : http
    const request = client.request(target, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'tourdesk-webhooks/1' },
      lookup: allowPrivate ? undefined : safeLookup as never,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    }, (response) => {
      let read = 0
      response.on('data', (chunk: Buffer) => {
        if (read < KEPT_ANSWER_BYTES) kept.push(chunk.subarray(0, KEPT_ANSWER_BYTES - read))
        read += chunk.length
        if (read > MAX_ANSWER_BYTES) response.destroy()
      })
      const status = response.statusCode ?? 0
      const finish = () => {
        if (status >= 200 && status < 300) return resolve(done(status, null))
        const redirect = status >= 300 && status < 400 ? ' (redirects are not followed)' : ''
        resolve(done(status, `the receiver answered ${status}${redirect}`, retryAfterMs(response.headers['retry-after'], signingClock.now().epochMilliseconds)))
      }
      response.on('end', finish)
      response.on('close', finish)
      response.on('error', finish)
    })
    request.on('error', (err: NodeJS.ErrnoException) => {
      const timedOut = err.name === 'AbortError' || err.name === 'TimeoutError'
      resolve(done(null, timedOut ? `no answer within ${TIMEOUT_MS / 1000} s` : `could not connect: ${err.message}`))
    })
    request.end(body)
  })
}

/** The secrets that sign now: the current one, and during the 24 hours after a rotation the previous one too. */
export function signingSecrets(endpoint: WebhookEndpointRow, now: string): string[] {
  return endpoint.previous_secret !== null && endpoint.previous_secret_until !== null && now < endpoint.previous_secret_until
    ? [endpoint.secret, endpoint.previous_secret] : [endpoint.secret]
}

/** The body a webhook carries for an event: the operator API's record of it (src/admin/event-view.ts, handed over by src/context.ts). */
export type EventPayload = (event: EventRow, catalog: InstanceCatalog) => unknown

/**
 * Attempts the deliveries that are due, on every node (docs/events-and-webhooks.md, "Webhooks"): each is
 * claimed under a 30-second lease, so one node makes a given attempt; a node that dies
 * mid-attempt leaves the lease to lapse, and another node makes the same attempt again
 * (same webhook-id). The signature's timestamp is the time of the attempt by the signing
 * clock (WebhookSettings), which receivers compare with their own; the schedule follows the service's clock.
 */
export function webhookDelivery(store: Store, catalogs: CatalogRegistry, clock: Clock, settings: WebhookSettings, payloadOf: EventPayload) {
  const { webhooks } = store

  function catalogOf(ref: string) {
    for (const catalog of catalogs.values()) if (catalog.instance.ref === ref) return catalog
    return undefined
  }

  function sign(endpoint: WebhookEndpointRow, id: string, body: string, now: string) {
    return signedHeaders(signingSecrets(endpoint, now), id, Math.floor(settings.signingClock.now().epochMilliseconds / 1000), body)
  }

  async function disable(endpoint: WebhookEndpointRow, at: string, reason: string): Promise<void> {
    await store.write(function* () {
      yield* webhooks.setHealth(endpoint.instance_id, endpoint.id, { disabled: at, reason })
      yield* store.audit.record({
        instanceId: endpoint.instance_id, at, actor: { type: 'system', id: null, name: 'webhooks' }, action: 'webhook.disabled',
        target: { type: 'webhook', id: endpoint.id }, after: { reason },
      })
    })
  }

  /**
   * One attempt at one claimed delivery; answers what became of it. `endpoint` is read once
   * per run and its failing_since kept up to date here, so a success writes the endpoint only
   * when it was failing, and a failure only when it was not.
   */
  async function attempt(delivery: ClaimedDelivery, endpoint: WebhookEndpointRow, event: EventRow | undefined, now: Temporal.Instant, writes: Promise<unknown>[]): Promise<'delivered' | 'retried' | 'failed' | 'disabled'> {
    const catalog = catalogOf(delivery.instance_id)
    const startedAt = toStoredInstant(clock.now())
    if (!event || !catalog) {
      const error = 'the event is no longer in the feed (kept 30 days)'
      await store.write(() => webhooks.record(delivery, { kind: 'failed', status: null, error }, { at: startedAt, duration_ms: 0, status: null, error, answer: null }))
      return 'failed'
    }
    const body = JSON.stringify(payloadOf({ ...event, seq: Number(event.seq) }, catalog))
    const result = await postOnce(endpoint.url, sign(endpoint, event.id, body, toStoredInstant(now)), body, settings)
    const done = toStoredInstant(clock.now())
    const logged = { at: startedAt, duration_ms: result.durationMs, status: result.status, error: result.error, answer: result.answer }
    if (result.error === null) {
      const wasFailing = endpoint.failing_since !== null
      // Not awaited here: the next attempt goes out while this is written (a write that fails leaves the lease to lapse, and the event is sent again).
      writes.push(store.write(function* () {
        if ((yield* webhooks.record(delivery, { kind: 'delivered', status: result.status!, at: done }, logged)) && wasFailing) yield* webhooks.setHealth(endpoint.instance_id, endpoint.id, { failing: null })
      }))
      endpoint.failing_since = null
      return 'delivered'
    }
    if (result.status === 410) {
      await store.write(() => webhooks.record(delivery, { kind: 'failed', status: 410, error: 'the receiver answered 410 Gone: the endpoint is disabled' }, logged))
      await disable(endpoint, done, 'the receiver answered 410 Gone')
      return 'disabled'
    }
    const wait = afterFailure(delivery.attempts + 1, settings.retryScheduleMs, result.retryAfterMs)
    const outcome: DeliveryOutcome = wait === null
      ? { kind: 'failed', status: result.status, error: result.error }
      : { kind: 'retry', status: result.status, error: result.error, next_attempt_at: toStoredInstant(clock.now().add({ milliseconds: wait })) }
    const wasFailing = endpoint.failing_since !== null
    await store.write(function* () {
      if ((yield* webhooks.record(delivery, outcome, logged)) && !wasFailing) yield* webhooks.setHealth(endpoint.instance_id, endpoint.id, { failing: done })
    })
    endpoint.failing_since ??= done
    if (Date.parse(done) - Date.parse(endpoint.failing_since) >= DISABLE_AFTER_MS) {
      await disable(endpoint, done, `every delivery failed for ${waitInWords(DISABLE_AFTER_MS)} (since ${endpoint.failing_since})`)
      return 'disabled'
    }
    return wait === null ? 'failed' : 'retried'
  }

  /**
   * Attempts claimed deliveries: each endpoint's one after another in event order (so a
   * receiver sees an instance's events in the feed's order, retries aside), endpoints side
   * by side. An endpoint's turn stops once the lease could lapse before its next attempt
   * ends; what is left is given back for the next run.
   */
  async function attemptAll(claimed: ClaimedDelivery[], at: Temporal.Instant, report: DeliveryReport, stopping: AbortSignal): Promise<void> {
    const started = performance.now()
    const byEndpoint = new Map<string, ClaimedDelivery[]>()
    for (const d of [...claimed].sort((a, b) => a.event_seq - b.event_seq)) {
      const key = `${d.instance_id} ${d.endpoint_id}`
      byEndpoint.set(key, [...byEndpoint.get(key) ?? [], d])
    }
    const events = await store.read(() => eventsOf(claimed))
    await Promise.all([...byEndpoint.values()].map(async (queue) => {
      const endpoint = await store.read(() => webhooks.find(queue[0].instance_id, queue[0].endpoint_id))
      const writes: Promise<unknown>[] = []
      try {
        await attemptQueue(queue, endpoint, writes)
      } finally {
        await Promise.allSettled(writes)
      }
    }))

    async function attemptQueue(queue: ClaimedDelivery[], endpoint: WebhookEndpointRow | undefined, writes: Promise<unknown>[]) {
      for (let i = 0; i < queue.length; i++) {
        // Deleted meanwhile (its deliveries went with it), past the lease's safe time, or the node is stopping: leave the rest.
        if (!endpoint || performance.now() - started > LEASE_MS - TIMEOUT_MS - 5_000 || stopping.aborted) {
          const rest = queue.slice(i)
          await store.write(() => webhooks.release(rest))
          return
        }
        const outcome = await attempt(queue[i], endpoint, events.get(`${queue[i].instance_id} ${queue[i].event_seq}`), at, writes)
        if (outcome === 'disabled') {
          report.disabledEndpoints++
          const rest = queue.slice(i + 1)
          await store.write(() => webhooks.release(rest))
          return
        }
        report[outcome]++
      }
    }
  }

  /** The events of the claimed deliveries, by "instance seq". */
  function* eventsOf(claimed: readonly ClaimedDelivery[]): Plan<Map<string, EventRow>> {
    const found = new Map<string, EventRow>()
    const byInstance = new Map<string, number[]>()
    for (const d of claimed) byInstance.set(d.instance_id, [...byInstance.get(d.instance_id) ?? [], d.event_seq])
    for (const [instanceId, seqs] of byInstance) {
      for (const row of yield* store.events.bySeq(instanceId, seqs)) found.set(`${instanceId} ${Number(row.seq)}`, row)
    }
    return found
  }

  async function runDue(now: Temporal.Instant, stopping: AbortSignal = new AbortController().signal): Promise<DeliveryReport> {
    const report: DeliveryReport = { delivered: 0, retried: 0, failed: 0, disabledEndpoints: 0, prunedDeliveries: 0 }
    // Nothing is written when nothing is due or old enough to prune: this runs every second on
    // every node, and every commit makes every node read its kept answers again.
    for (let round = 0; round < ROUNDS && !stopping.aborted; round++) {
      const at = round === 0 ? now : clock.now()
      if (round === 0 && !await store.read(() => webhooks.anyDue(toStoredInstant(at)))) break
      const claimed = await store.write(() => webhooks.claim(toStoredInstant(at), toStoredInstant(at.add({ milliseconds: LEASE_MS })), BATCH))
      await attemptAll(claimed, at, report, stopping)
      if (claimed.length < BATCH) break
    }
    const oldest = toStoredInstant(now.subtract({ hours: 24 * LOG_DAYS }))
    if (await store.read(() => webhooks.anyBefore(oldest))) report.prunedDeliveries = await store.write(() => webhooks.prune(oldest, 10_000))
    return report
  }

  return {
    settings,

    /** Why a webhook may not be sent to `url` (creation and edits), or null when it may. */
    async refusalOf(url: string): Promise<string | null> {
      let target: URL
      try {
        target = new URL(url)
      } catch {
        return 'must be an absolute http or https URL'
      }
      if (target.protocol !== 'https:' && target.protocol !== 'http:') return 'must be an http or https URL'
      if (settings.allowPrivate) return null
      try {
        await resolveSafely(hostOf(target))
        return null
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code
        return code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA' ? `${hostOf(target)} does not resolve` : (err as Error).message
      }
    },

    /** A signed `webhook.test` event sent now, outside the log and the retries: the receiver's answer. */
    async ping(endpoint: WebhookEndpointRow, now: Temporal.Instant): Promise<AttemptResult & { id: string }> {
      const catalog = catalogOf(endpoint.instance_id)!
      const id = `evt_${randomBytes(16).toString('hex')}`
      const stored = toStoredInstant(now)
      const body = JSON.stringify({
        id, type: 'webhook.test', occurred_at: formatStoredInZone(stored, catalog.instance.timezone),
        instance: { prefix: catalog.instance.prefix, ref: catalog.instance.ref }, data: { endpoint_id: endpoint.id },
      })
      return { id, ...await postOnce(endpoint.url, sign(endpoint, id, body, stored), body, settings) }
    },

    runDue,

    /** The scheduler's task: every second, on every node. */
    task(): Task {
      return { name: 'webhooks', everyMs: 1000, run: async (now, stopping) => ({ ...await runDue(now, stopping) }) }
    },
  }
}

export type WebhookDelivery = ReturnType<typeof webhookDelivery>
