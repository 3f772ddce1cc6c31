import type { Temporal } from 'temporal-polyfill'
import { startWebhookReceiver, type WebhookReceiver } from '../drill/webhook-receiver.ts'
import { HOLD_TOUR } from './catalog.ts'
import type { RunContext } from './database-run.ts'
import type { BenchDatabase } from './databases.ts'
import type { StartedProcess } from './node-process.ts'
import { createApiKey } from './operator-reads.ts'
import type { DeliveryThroughput } from './results-model.ts'
import { startService } from './service.ts'
import { addEndpoint, deliveriesByStatus, operatorCall, PRIVATE_WEBHOOKS } from './webhook-endpoints.ts'

type NewDatabase = (name: string) => Promise<BenchDatabase>

/** Guests checking out at once while the events are made. */
const GUESTS_AT_ONCE = 16
/** Every delivery must have reached the receiver within this long. */
const DELIVERY_TIMEOUT_MS = 600_000

async function json(url: string, init?: RequestInit): Promise<any> {
  const answer = await fetch(url, init)
  const body = await answer.json()
  if (!answer.ok) throw new Error(`${init?.method ?? 'GET'} ${url} answered ${answer.status}: ${JSON.stringify(body).slice(0, 300)}`)
  return body
}

/** `count` guest checkouts of one seat each on the hold tour (instant confirmation: one booking.confirmed event each), through the booking API. */
async function checkouts(service: StartedProcess, count: number, tomorrow: Temporal.PlainDate): Promise<void> {
  const base = service.baseUrl
  const { slots } = await json(`${base}/availability?tour=${HOLD_TOUR}&date=${tomorrow}&days=14`)
  const starts = (slots as { start: string, status: string }[]).filter((s) => s.status !== 'closed' && s.status !== 'sold_out').map((s) => s.start)
  let next = 0
  const guest = async () => {
    for (let i = next++; i < count; i = next++) {
      const session = await json(`${base}/session`, { method: 'POST' })
      const headers = { 'content-type': 'application/json', 'x-session': session.session, 'x-csrf-token': session.csrf_token }
      await json(`${base}/booking`, { method: 'POST', headers, body: JSON.stringify({ tour_id: HOLD_TOUR, start: starts[i % starts.length], party: 1 }) })
      await json(`${base}/checkout`, { method: 'POST', headers, body: JSON.stringify({ name: `Guest ${i}`, email: `guest${i}@example.com` }) })
    }
  }
  await Promise.all(Array.from({ length: GUESTS_AT_ONCE }, guest))
}

async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: not within ${ms / 1000} s`)), ms) })
  try {
    return await Promise.race([work, late])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Issue 16: one node delivers a backlog of events to one receiver on 127.0.0.1, which
 * verifies every message with the standardwebhooks package. The events are guest checkouts
 * made through the API before the endpoint exists; the endpoint is then added and
 * `POST /webhooks/{id}/replay` queues a delivery of each (as an operator catching a new
 * receiver up would), and the time runs from the replay's answer to the last event taken.
 */
export async function measureDeliveries(newDatabase: NewDatabase, ctx: RunContext): Promise<DeliveryThroughput> {
  const events = ctx.settings.webhooks.deliveredEvents
  const database = await newDatabase('deliveries')
  let service: StartedProcess | undefined
  let receiver: WebhookReceiver | undefined
  try {
    service = await startService({ databaseUrl: database.url, catalogPath: ctx.catalogPath(ctx.settings.growth.small.tours), logDir: ctx.workDir, env: PRIVATE_WEBHOOKS })
    ctx.progress(`webhooks: making ${events.toLocaleString('en')} events (guest checkouts)`)
    const making = performance.now()
    await checkouts(service, events, ctx.tomorrow)
    const makeSeconds = (performance.now() - making) / 1000

    receiver = await startWebhookReceiver()
    const key = await createApiKey(database, ctx.now)
    const endpoint = await addEndpoint(service, key, receiver.url)
    receiver.trust(endpoint.secret)
    ctx.progress(`webhooks: delivering ${events.toLocaleString('en')} events to one receiver`)
    const { deliveries: queued } = await operatorCall(service, key, 'POST', `/webhooks/${endpoint.id}/replay`, { since: ctx.now.toString() })
    const queuedAt = performance.now()
    if (queued !== events) throw new Error(`the replay queued ${queued} deliveries for ${events} checkouts`)
    await withTimeout(receiver.acceptedAtLeast(events), DELIVERY_TIMEOUT_MS, `${events} deliveries`)
    const seconds = (performance.now() - queuedAt) / 1000
    const taken = [...receiver.byId.values()].map((r) => r.firstAcceptedAt!)
    const flowSeconds = (Math.max(...taken) - Math.min(...taken)) / 1000
    // A clean stop finishes the run in progress, the log's last writes included.
    await service.stop()
    return {
      events,
      makeSeconds,
      seconds,
      deliveredPerSecond: events / seconds,
      sustainedPerSecond: flowSeconds > 0 ? (events - 1) / flowSeconds : events / seconds,
      duplicates: receiver.acceptedTotal() - receiver.distinctAccepted(),
      unverified: receiver.unverified.length,
      deliveries: await deliveriesByStatus(database),
    }
  } finally {
    await service?.stop()
    await receiver?.stop()
    await database.drop()
  }
}
