import { Type } from 'typebox'
import { Instant, Nullable } from '../common.ts'
import { named } from '../named.ts'
import { EventType } from '../event-type.ts'
import { PageQuery } from './page.ts'

const ENDPOINT_ID = 'wh_0f3c9a7e5b2d4c6e8a1b3d5f7092e4c6'
const EXAMPLE_URL = 'https://hooks.example.com/tourdesk'

const WebhookUrl = Type.String({ minLength: 1, maxLength: 2000, description: 'Where the events are POSTed: an http or https URL that does not resolve to a private, loopback or link-local address', examples: [EXAMPLE_URL] })
const Events = Type.Array(EventType, { minItems: 1, maxItems: 50, uniqueItems: true, description: 'The event types this endpoint receives' })
const Description = Type.String({ maxLength: 500 })

export const WebhookIdParams = Type.Object({
  instance: Type.String(),
  id: Type.String({ pattern: '^wh_[0-9a-f]{32}$', maxLength: 35, description: 'The endpoint id, wh_…', examples: [ENDPOINT_ID] }),
})

const ENDPOINT_EXAMPLE = {
  id: ENDPOINT_ID, url: EXAMPLE_URL, description: 'Accounting', events: ['booking.confirmed', 'booking.cancelled'], enabled: true,
  disabled_at: null, disabled_reason: null, failing_since: null, previous_secret_expires_at: null,
  created_at: '2026-06-01T09:00:00.000+01:00', updated_at: '2026-06-01T09:00:00.000+01:00', version: 1,
}

export const WebhookEndpoint = named('WebhookEndpoint', Type.Object({
  id: Type.String({ description: 'wh_…' }),
  url: Type.String(),
  description: Nullable(Type.String()),
  events: Type.Array(EventType),
  enabled: Type.Boolean({ description: 'false once disabled (the receiver answered 410, or failed for 5 days, or a PATCH said so): nothing is sent until it is enabled again' }),
  disabled_at: Nullable(Instant),
  disabled_reason: Nullable(Type.String()),
  failing_since: Nullable(Type.Union([Instant], { description: 'The first failed attempt since the last success; null while deliveries succeed' })),
  previous_secret_expires_at: Nullable(Type.Union([Instant], { description: 'After a rotation: until when the previous secret signs too (a second signature in webhook-signature)' })),
  created_at: Instant,
  updated_at: Instant,
  version: Type.Integer(),
}, { examples: [ENDPOINT_EXAMPLE] }))

const SECRET_EXAMPLE = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw5ZpHKZG3Nsc='

export const WebhookWithSecret = named('WebhookWithSecret', Type.Object({
  webhook: WebhookEndpoint,
  secret: Type.String({ description: 'whsec_ and the base64 of 32 random bytes (Standard Webhooks): verify every delivery with it. Shown on creation and rotation only.' }),
}, { examples: [{ webhook: ENDPOINT_EXAMPLE, secret: SECRET_EXAMPLE }] }))

export const WebhookList = named('WebhookList', Type.Object({
  webhooks: Type.Array(WebhookEndpoint),
  next_cursor: Nullable(Type.String()),
}))

export const NewWebhook = named('NewWebhook', Type.Object({
  url: WebhookUrl,
  events: Events,
  description: Type.Optional(Description),
}, { additionalProperties: false, examples: [{ url: EXAMPLE_URL, events: ['booking.confirmed', 'booking.cancelled'], description: 'Accounting' }] }))

export const WebhookChange = named('WebhookChange', Type.Object({
  url: Type.Optional(WebhookUrl),
  events: Type.Optional(Events),
  description: Type.Optional(Nullable(Description)),
  enabled: Type.Optional(Type.Boolean({ description: 'true enables a disabled endpoint again (its failure count starts afresh); false stops deliveries' })),
}, { additionalProperties: false, minProperties: 1, examples: [{ enabled: true }] }))

export const WebhookTestResult = named('WebhookTestResult', Type.Object({
  id: Type.String({ description: 'The webhook-id of the test message (evt_…); its type is webhook.test' }),
  delivered: Type.Boolean({ description: 'The receiver answered 2xx' }),
  status: Nullable(Type.Integer({ description: "The receiver's HTTP status; null when it did not answer" })),
  error: Nullable(Type.String()),
  duration_ms: Type.Integer(),
}, { examples: [{ id: 'evt_9b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9a', delivered: true, status: 200, error: null, duration_ms: 42 }] }))

export const WebhookAttempt = named('WebhookAttempt', Type.Object({
  attempt: Type.Integer({ minimum: 1, description: '1 for the first attempt' }),
  at: Instant,
  duration_ms: Type.Integer({ description: 'From the start of the connection to the end of the answer (or to the failure)' }),
  status: Nullable(Type.Integer({ description: "The receiver's HTTP status; null when there was no answer" })),
  error: Nullable(Type.String({ description: 'Why it is not a success (the status, or the network error); null for a 2xx' })),
  answer: Nullable(Type.String({ description: "The first 1 KiB of the receiver's answer, as text; null when there was no answer" })),
}))

export const WebhookDelivery = named('WebhookDelivery', Type.Object({
  id: Type.String({ description: 'whd_…' }),
  event_id: Type.String({ description: 'The event, and the webhook-id of every attempt' }),
  event_type: Nullable(Type.String({ description: 'The event\'s type (booking.confirmed…); null once the event has left the feed (30 days)' })),
  booking: Nullable(Type.String({ description: 'The code of the booking the event is about; null for an event about something else, or once it has left the feed' })),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  next_attempt_at: Nullable(Type.Union([Instant], { description: 'When pending: the next attempt' })),
  last_status: Nullable(Type.Integer({ description: "The receiver's HTTP status at the last attempt" })),
  last_error: Nullable(Type.String()),
  created_at: Instant,
  delivered_at: Nullable(Instant),
  attempt_log: Type.Array(WebhookAttempt, { description: 'Every attempt, first first, kept as long as the delivery (30 days)' }),
}))

export const WebhookDeliveryList = named('WebhookDeliveryList', Type.Object({
  deliveries: Type.Array(WebhookDelivery),
  next_cursor: Nullable(Type.String()),
}))

export const WebhookDeliveryQuery = Type.Object({ ...PageQuery }, { additionalProperties: false })

export const WebhookReplay = named('WebhookReplay', Type.Object({
  since: Type.String({ format: 'date-time', maxLength: 64, description: "Every event of the feed that occurred at or after this instant, of the endpoint's types, is delivered again (the feed keeps 30 days)" }),
}, { additionalProperties: false, examples: [{ since: '2026-06-01T00:00:00Z' }] }))

export const WebhookReplayResult = named('WebhookReplayResult', Type.Object({
  deliveries: Type.Integer({ description: 'New deliveries made; they go out with the next run of the delivery task' }),
}))
