import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Temporal } from 'temporal-polyfill'
import { formatStoredInZone, toStoredInstant } from '../../domain/instant-format.ts'
import { NoBody } from '../../schemas/common.ts'
import {
  NewWebhook, WebhookChange, WebhookDeliveryList, WebhookDeliveryQuery, WebhookEndpoint, WebhookIdParams, WebhookList, WebhookReplay,
  WebhookReplayResult, WebhookTestResult, WebhookWithSecret,
} from '../../schemas/admin/webhook.ts'
import type { EventType } from '../../schemas/event-type.ts'
import { actorOf } from '../../services/staff-auth.ts'
import type { WebhookChangeContext } from '../../notify/webhook-endpoints.ts'
import type { LoggedDeliveryRow, WebhookAttemptRow, WebhookEndpoint as EndpointRecord } from '../../store/webhooks.ts'
import { decodeCursor, encodeCursor, pageOf } from '../list-cursor.ts'

function endpointView(row: EndpointRecord, zone: string, now: string) {
  const at = (stored: string | null) => stored === null ? null : formatStoredInZone(stored, zone)
  const overlapping = row.previous_secret_until !== null && now < row.previous_secret_until
  return {
    id: row.id, url: row.url, description: row.description, events: row.events as EventType[], enabled: row.disabled_at === null,
    disabled_at: at(row.disabled_at), disabled_reason: row.disabled_reason, failing_since: at(row.failing_since),
    previous_secret_expires_at: overlapping ? at(row.previous_secret_until) : null,
    created_at: at(row.created_at)!, updated_at: at(row.updated_at)!, version: row.version,
  }
}

function deliveryView(row: LoggedDeliveryRow, attempts: readonly WebhookAttemptRow[], zone: string) {
  const at = (stored: string | null) => stored === null ? null : formatStoredInZone(stored, zone)
  return {
    id: row.id, event_id: row.event_id, event_type: row.event_type, booking: row.booking_code, status: row.status as 'pending' | 'delivered' | 'failed', attempts: Number(row.attempts),
    next_attempt_at: row.status === 'pending' ? at(row.next_attempt_at) : null, last_status: row.last_status === null ? null : Number(row.last_status),
    last_error: row.last_error, created_at: at(row.created_at)!, delivered_at: at(row.delivered_at),
    attempt_log: attempts.map((a) => ({ attempt: a.attempt, at: at(a.at)!, duration_ms: a.duration_ms, status: a.status, error: a.error, answer: a.answer })),
  }
}

/** Webhook endpoints (docs/events-and-webhooks.md, "Webhooks", Standard Webhooks 1.0); managers only. */
export const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { clock, webhookEndpoints: endpoints } = app.tourdesk
  const changeContext = (request: FastifyRequest): WebhookChangeContext =>
    ({ instanceId: request.catalog.instance.ref, now: clock.now(), actor: actorOf(request.staff!), requestId: request.id })

  app.post('/webhooks', {
    schema: { body: NewWebhook, response: { 201: WebhookWithSecret } },
    config: {
      access: 'access.manage',
      summary: 'Add a webhook endpoint; the answer shows its signing secret',
      description: 'Each event of the listed types is POSTed to url (Standard Webhooks 1.0): the body is the event as GET /events gives it, with webhook-id '
        + '(the event id, the same on every retry), webhook-timestamp and webhook-signature (v1,<base64 HMAC-SHA256 of id.timestamp.body> keyed with the '
        + "secret's bytes). 2xx is delivered; 410 disables the endpoint; anything else, or no answer within 15 s, is retried after 5 s, 5 min, 30 min, 2 h, "
        + '5 h, 10 h, 14 h, 20 h and 24 h (±10 %, or later when Retry-After says so), then the delivery is failed. Redirects are not followed. An endpoint '
        + 'that fails for 5 days is disabled. A url that resolves to a loopback, private, link-local or otherwise internal address is 422 '
        + 'webhook_url_refused (unless the server runs with TOURDESK_WEBHOOKS_ALLOW_PRIVATE=on); it is checked again at every connection.',
      errors: ['webhook_url_refused'],
    },
  }, async (request, reply) => {
    const ctx = changeContext(request)
    const { endpoint, secret } = await endpoints.create(ctx, request.body)
    reply.code(201).header('Cache-Control', 'no-store')
    return { webhook: endpointView(endpoint, request.catalog.instance.timezone, toStoredInstant(ctx.now)), secret }
  })

  app.get('/webhooks', {
    schema: { querystring: WebhookDeliveryQuery, response: { 200: WebhookList } },
    config: { access: 'access.manage', summary: 'Webhook endpoints, oldest first', description: 'Disabled endpoints included. Secrets are shown only when made (creation, rotation).' },
  }, async (request) => {
    const { instance } = request.catalog
    const now = toStoredInstant(clock.now())
    const page = pageOf(await endpoints.list(instance.ref), (row) => [row.created_at, row.id], request.query)
    return { webhooks: page.items.map((row) => endpointView(row, instance.timezone, now)), next_cursor: page.nextCursor }
  })

  app.get('/webhooks/:id', {
    schema: { params: WebhookIdParams, response: { 200: WebhookEndpoint } },
    config: { access: 'access.manage', summary: 'One webhook endpoint', description: 'Its settings and health: enabled, failing_since, and why it was disabled.' },
  }, async (request) => {
    const { instance } = request.catalog
    return endpointView(await endpoints.existing(instance.ref, request.params.id), instance.timezone, toStoredInstant(clock.now()))
  })

  app.patch('/webhooks/:id', {
    schema: { params: WebhookIdParams, body: WebhookChange, response: { 200: WebhookEndpoint } },
    config: {
      access: 'access.manage',
      summary: 'Change a webhook endpoint, or enable or disable it',
      description: 'Only the fields sent change. A new url is checked as on creation. enabled: true on a disabled endpoint sends again, including the '
        + 'deliveries that were waiting; its failure count starts afresh. Events made while it was disabled are not sent: replay them.',
      errors: ['webhook_url_refused'],
    },
  }, async (request) => {
    const ctx = changeContext(request)
    const endpoint = await endpoints.change(ctx, request.params.id, request.body)
    return endpointView(endpoint, request.catalog.instance.timezone, toStoredInstant(ctx.now))
  })

  app.delete('/webhooks/:id', {
    schema: { params: WebhookIdParams, body: NoBody, response: { 204: { type: 'null' } } },
    config: { access: 'access.manage', summary: 'Remove a webhook endpoint and its delivery log', description: 'Nothing more is sent to it, pending retries included. Answers 204.' },
  }, async (request, reply) => {
    await endpoints.remove(changeContext(request), request.params.id)
    return reply.code(204).send(null)
  })

  app.post('/webhooks/:id/rotate-secret', {
    schema: { params: WebhookIdParams, body: NoBody, response: { 200: WebhookWithSecret } },
    config: {
      access: 'access.manage',
      summary: 'Make a new signing secret; the old one signs too for 24 hours',
      description: 'Answers the new secret, this once. For 24 hours every delivery carries two signatures in webhook-signature, space-separated, one '
        + 'with each secret, so the receiver can switch to the new secret at any moment in that time. Rotating again ends the old overlap.',
    },
  }, async (request) => {
    const ctx = changeContext(request)
    const { endpoint, secret } = await endpoints.rotateSecret(ctx, request.params.id)
    return { webhook: endpointView(endpoint, request.catalog.instance.timezone, toStoredInstant(ctx.now)), secret }
  })

  app.post('/webhooks/:id/test', {
    schema: { params: WebhookIdParams, body: NoBody, response: { 200: WebhookTestResult } },
    config: {
      access: 'access.manage',
      summary: 'Send a signed test message now; answers what the receiver said',
      description: 'A webhook.test message ({id, type, occurred_at, instance, data: {endpoint_id}}), signed like every delivery, sent once, now, even '
        + 'to a disabled endpoint. It is not retried, not kept in the delivery log, and does not count towards disabling the endpoint.',
    },
  }, async (request) => {
    const result = await endpoints.test(request.catalog.instance.ref, request.params.id, clock.now())
    return { id: result.id, delivered: result.error === null, status: result.status, error: result.error, duration_ms: result.durationMs }
  })

  app.get('/webhooks/:id/deliveries', {
    schema: { params: WebhookIdParams, querystring: WebhookDeliveryQuery, response: { 200: WebhookDeliveryList } },
    config: {
      access: 'access.manage',
      summary: "The endpoint's delivery log, newest first",
      description: 'One entry per event sent (a replay adds new ones): its status, the next attempt, the last answer or error, and every attempt '
        + '(when, how long it took, the HTTP status or the network error, the first 1 KiB of the answer). Kept 30 days.',
    },
  }, async (request) => {
    const { instance } = request.catalog
    const limit = request.query.limit ?? 50
    const { cursor } = request.query
    const before = () => cursor === undefined ? null : decodeCursor(cursor, 2) as [string, string]
    const { rows, attempts } = await endpoints.deliveries(instance.ref, request.params.id, before, limit)
    const page = rows.slice(0, limit)
    const last = page[page.length - 1]
    return {
      deliveries: page.map((row) => deliveryView(row, attempts.get(row.id) ?? [], instance.timezone)),
      next_cursor: rows.length > limit ? encodeCursor([last.created_at, last.id]) : null,
    }
  })

  app.post('/webhooks/:id/replay', {
    schema: { params: WebhookIdParams, body: WebhookReplay, response: { 200: WebhookReplayResult } },
    config: {
      access: 'access.manage',
      summary: 'Send again every event since an instant',
      description: "Makes a new delivery of each event of the feed that occurred at or after since and is of the endpoint's types, whatever became of "
        + 'earlier deliveries; each keeps its event id as webhook-id, so a receiver that deduplicates by it processes each event once. A disabled '
        + 'endpoint gets them once enabled again.',
    },
  }, async (request) => {
    return { deliveries: await endpoints.replay(changeContext(request), request.params.id, Temporal.Instant.from(request.body.since)) }
  })
}
