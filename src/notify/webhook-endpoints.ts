import { randomBytes } from 'node:crypto'
import type { Static } from 'typebox'
import type { Temporal } from 'temporal-polyfill'
import { toStoredInstant } from '../domain/instant-format.ts'
import { ApiError } from '../errors/api-error.ts'
import type { NewWebhook, WebhookChange } from '../schemas/admin/webhook.ts'
import type { Actor } from '../store/audit.ts'
import type { Store } from '../store/store.ts'
import type { WebhookEndpoint, WebhookEndpointRow } from '../store/webhooks.ts'
import type { WebhookDelivery } from './webhook-delivery.ts'
import { newWebhookSecret } from './webhook-signing.ts'

/** How long the previous secret signs too after a rotation (24 hours, docs/events-and-webhooks.md, "Webhooks"). */
const ROTATION_OVERLAP_HOURS = 24

/** Who changes an instance's endpoints, and when: each change is audited under them. */
export interface WebhookChangeContext {
  instanceId: string
  now: Temporal.Instant
  actor: Actor
  requestId: string | null
}

/** What the audit log keeps of an endpoint: never its secret. */
const audited = (row: WebhookEndpoint) => ({ url: row.url, description: row.description, events: row.events, enabled: row.disabled_at === null })

const notFound = (id: string) => new ApiError('not_found', `No webhook endpoint ${id}`)

/**
 * An instance's webhook endpoints as its managers keep them (the operator API's /webhooks):
 * made, changed, enabled or disabled, removed, their secret rotated, a test sent, events
 * replayed; each change written with its audit entry. Sending is src/notify/webhook-delivery.ts.
 */
export function webhookEndpoints(store: Store, delivery: WebhookDelivery) {
  const { webhooks, audit } = store

  async function checkUrl(url: string): Promise<void> {
    const refusal = await delivery.refusalOf(url)
    if (refusal !== null) throw new ApiError('webhook_url_refused', `url ${refusal}`, { errors: [{ field: 'url', message: refusal }] })
  }

  async function existing(instanceId: string, id: string): Promise<WebhookEndpoint> {
    const endpoint = await store.read(() => webhooks.find(instanceId, id))
    if (!endpoint) throw notFound(id)
    return endpoint
  }

  return {
    existing,

    /** A new endpoint and its signing secret, which is shown this once. */
    async create(ctx: WebhookChangeContext, input: Static<typeof NewWebhook>): Promise<{ endpoint: WebhookEndpoint, secret: string }> {
      await checkUrl(input.url)
      const now = toStoredInstant(ctx.now)
      const secret = newWebhookSecret()
      const row: WebhookEndpointRow = {
        instance_id: ctx.instanceId, id: `wh_${randomBytes(16).toString('hex')}`, url: input.url, description: input.description ?? null, secret,
        previous_secret: null, previous_secret_until: null, disabled_at: null, disabled_reason: null, failing_since: null, created_at: now, updated_at: now, version: 1,
      }
      const endpoint = await store.write(function* () {
        const endpoint = yield* webhooks.insertEndpoint(row, input.events)
        yield* audit.record({ instanceId: ctx.instanceId, at: now, actor: ctx.actor, action: 'webhook.created', target: { type: 'webhook', id: row.id }, after: audited(endpoint), requestId: ctx.requestId })
        return endpoint
      })
      return { endpoint, secret }
    },

    list(instanceId: string): Promise<WebhookEndpoint[]> {
      return store.read(() => webhooks.list(instanceId))
    },

    /** Only the fields given change; enabling clears the failure count, disabling stops sending. */
    async change(ctx: WebhookChangeContext, id: string, change: Static<typeof WebhookChange>): Promise<WebhookEndpoint> {
      if (change.url !== undefined) await checkUrl(change.url)
      const now = toStoredInstant(ctx.now)
      return store.write(function* () {
        const before = yield* webhooks.find(ctx.instanceId, id, true)
        if (!before) throw notFound(id)
        const columns: Parameters<typeof webhooks.update>[2] = { updated_at: now }
        if (change.url !== undefined) columns.url = change.url
        if (change.description !== undefined) columns.description = change.description
        if (change.enabled === true && before.disabled_at !== null) Object.assign(columns, { disabled_at: null, disabled_reason: null, failing_since: null })
        if (change.enabled === false && before.disabled_at === null) Object.assign(columns, { disabled_at: now, disabled_reason: 'disabled through the API' })
        yield* webhooks.update(ctx.instanceId, id, columns)
        if (change.events !== undefined) yield* webhooks.setEvents(ctx.instanceId, id, change.events)
        const after = (yield* webhooks.find(ctx.instanceId, id))!
        yield* audit.record({ instanceId: ctx.instanceId, at: now, actor: ctx.actor, action: 'webhook.changed', target: { type: 'webhook', id }, before: audited(before), after: audited(after), requestId: ctx.requestId })
        return after
      })
    },

    /** The endpoint and its delivery log go; nothing more is sent to it. */
    async remove(ctx: WebhookChangeContext, id: string): Promise<void> {
      const now = toStoredInstant(ctx.now)
      await store.write(function* () {
        const before = yield* webhooks.find(ctx.instanceId, id, true)
        if (!before) throw notFound(id)
        yield* webhooks.delete(ctx.instanceId, id)
        yield* audit.record({ instanceId: ctx.instanceId, at: now, actor: ctx.actor, action: 'webhook.deleted', target: { type: 'webhook', id }, before: audited(before), requestId: ctx.requestId })
      })
    },

    /** A new secret, shown this once; the previous one signs too for ROTATION_OVERLAP_HOURS. */
    async rotateSecret(ctx: WebhookChangeContext, id: string): Promise<{ endpoint: WebhookEndpoint, secret: string }> {
      const stored = toStoredInstant(ctx.now)
      const secret = newWebhookSecret()
      const endpoint = await store.write(function* () {
        const before = yield* webhooks.find(ctx.instanceId, id, true)
        if (!before) throw notFound(id)
        yield* webhooks.update(ctx.instanceId, id, {
          secret, previous_secret: before.secret, previous_secret_until: toStoredInstant(ctx.now.add({ hours: ROTATION_OVERLAP_HOURS })), updated_at: stored,
        })
        yield* audit.record({ instanceId: ctx.instanceId, at: stored, actor: ctx.actor, action: 'webhook.secret_rotated', target: { type: 'webhook', id }, requestId: ctx.requestId })
        return (yield* webhooks.find(ctx.instanceId, id))!
      })
      return { endpoint, secret }
    },

    /** A signed test message sent now (src/notify/webhook-delivery.ts, ping). */
    async test(instanceId: string, id: string, now: Temporal.Instant) {
      return delivery.ping(await existing(instanceId, id), now)
    },

    /**
     * A page of the endpoint's delivery log, newest first, each with its attempts, and one more
     * row when there are more. `before` reads the caller's cursor once the endpoint is found, so
     * an unknown endpoint is not_found whatever the cursor.
     */
    async deliveries(instanceId: string, id: string, before: () => [string, string] | null, limit: number) {
      await existing(instanceId, id)
      const after = before()
      return store.read(function* () {
        const rows = yield* webhooks.deliveries(instanceId, id, after, limit + 1)
        return { rows, attempts: yield* webhooks.attempts(instanceId, rows.slice(0, limit).map((row) => row.id)) }
      })
    },

    /** A new delivery of each of the endpoint's events at or after `since`; answers how many. */
    replay(ctx: WebhookChangeContext, id: string, since: Temporal.Instant): Promise<number> {
      const now = toStoredInstant(ctx.now)
      const from = toStoredInstant(since)
      return store.write(function* () {
        if (!(yield* webhooks.find(ctx.instanceId, id))) throw notFound(id)
        const made = yield* webhooks.replay(ctx.instanceId, id, from, now)
        yield* audit.record({ instanceId: ctx.instanceId, at: now, actor: ctx.actor, action: 'webhook.replayed', target: { type: 'webhook', id }, after: { since: from, deliveries: made }, requestId: ctx.requestId })
        return made
      })
    },
  }
}

export type WebhookEndpoints = ReturnType<typeof webhookEndpoints>
