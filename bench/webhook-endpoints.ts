import { setTimeout as sleep } from 'node:timers/promises'
import { EVENT_TYPES } from '../src/schemas/event-type.ts'
import { openStore } from '../src/store/store.ts'
import { statement } from '../src/store/write-plan.ts'
import type { BenchDatabase } from './databases.ts'
import type { StartedProcess } from './node-process.ts'

/** What a node needs to send webhooks to a receiver of the bench's, on 127.0.0.1. */
export const PRIVATE_WEBHOOKS = { TOURDESK_WEBHOOKS_ALLOW_PRIVATE: 'on' }

/** How often the bench reads the delivery log while it waits for it to empty. */
const DRAIN_POLL_MS = 50

/** A manager's call to the operator API of the instance a service's base URL names. */
export async function operatorCall(service: StartedProcess, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const answer = await fetch(`${service.baseUrl.replace('/api/', '/admin/api/')}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...body === undefined ? {} : { 'content-type': 'application/json' } },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const parsed = await answer.json()
  if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(parsed).slice(0, 300)}`)
  return parsed
}

/** POST /webhooks: an endpoint at `url` subscribed to every event type; answers its id and secret. */
export async function addEndpoint(service: StartedProcess, key: string, url: string): Promise<{ id: string, secret: string }> {
  const made = await operatorCall(service, key, 'POST', '/webhooks', { url, events: [...EVENT_TYPES], description: 'bench receiver' })
  return { id: made.webhook.id, secret: made.secret }
}

/** The delivery log of a database, by status. */
export async function deliveriesByStatus(database: BenchDatabase): Promise<Record<string, number>> {
  const store = await openStore(database.target, { migrate: false })
  try {
    const { rows } = await store.read(() => statement<{ status: string, n: number }>('select status, count(*) as n from webhook_deliveries group by status', []))
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]))
  } finally {
    await store.close()
  }
}

/** Waits until no delivery is pending (every one delivered or failed); answers how long that took, in seconds. */
export async function drainDeliveries(database: BenchDatabase, timeoutMs: number): Promise<number> {
  const store = await openStore(database.target, { migrate: false })
  const began = performance.now()
  try {
    for (;;) {
      const { rows: [row] } = await store.read(() => statement<{ n: number }>(`select count(*) as n from webhook_deliveries where status = 'pending'`, []))
      if (Number(row.n) === 0) return (performance.now() - began) / 1000
      if (performance.now() - began > timeoutMs) throw new Error(`${row.n} deliveries still pending after ${timeoutMs / 1000} s`)
      await sleep(DRAIN_POLL_MS)
    }
  } finally {
    await store.close()
  }
}
