import type { Selectable } from 'kysely'
import type { Database } from './database.ts'
import type { Tables } from './tables.ts'
import { statement, type Plan } from './write-plan.ts'

export type WebhookEndpointRow = Selectable<Tables['webhook_endpoints']>
export type WebhookDeliveryRow = Selectable<Tables['webhook_deliveries']>
/** A delivery as its log shows it: with its event's type and booking code, when the feed still holds the event. */
export type LoggedDeliveryRow = WebhookDeliveryRow & { event_type: string | null, booking_code: string | null }
export type WebhookAttemptRow = Selectable<Tables['webhook_attempts']>
/** What one attempt came to, for the delivery log. */
export type AttemptRecord = Omit<WebhookAttemptRow, 'instance_id' | 'delivery_id' | 'attempt' | 'endpoint_id'>

/** An endpoint with the event types it receives. */
export interface WebhookEndpoint extends WebhookEndpointRow {
  events: string[]
}

/** A delivery this node claimed, with what an attempt needs. */
export interface ClaimedDelivery extends WebhookDeliveryRow {
  /** The lease this node set: the outcome is written only while it still holds it. */
  lease_until: string
}

export type DeliveryOutcome =
  | { kind: 'delivered', status: number, at: string }
  | { kind: 'retry', status: number | null, error: string, next_attempt_at: string }
  | { kind: 'failed', status: number | null, error: string }

/** A delivery id made by the database, so fan-out is one INSERT … SELECT (whd_ and 32 hex digits, like event ids). */
function newDeliveryIdSql(dialect: Database['dialect']): string {
  return dialect === 'postgres' ? `'whd_' || replace(gen_random_uuid()::text, '-', '')` : `'whd_' || lower(hex(randomblob(16)))`
}

/**
 * Webhook endpoints, their subscriptions and deliveries (docs/events-and-webhooks.md, "Webhooks"). A delivery
 * is made for each subscribed, enabled endpoint in the transaction that writes the event
 * (`fanOut`, from events.append), so an event that commits is delivered at least once.
 */
export function webhookRepository({ dialect, supportsSkipLocked }: Database) {
  const deliveryId = newDeliveryIdSql(dialect)
  /** The deliveries of the events in `source` (a table or a CTE with instance_id, seq, id, type, occurred_at) to their subscribed, enabled endpoints. */
  const fanOutFrom = (source: string) =>
    `insert into webhook_deliveries (instance_id, id, endpoint_id, event_id, event_seq, status, attempts, next_attempt_at, created_at)
     select ev.instance_id, ${deliveryId}, s.endpoint_id, ev.id, ev.seq, 'pending', 0, ev.occurred_at, ev.occurred_at
     from ${source} ev
     join webhook_subscriptions s on s.instance_id = ev.instance_id and s.event_type = ev.type
     join webhook_endpoints e on e.instance_id = s.instance_id and e.id = s.endpoint_id and e.disabled_at is null`

  function* eventsOf(instanceId: string, ids: readonly string[]): Plan<Map<string, string[]>> {
    const byEndpoint = new Map<string, string[]>(ids.map((id) => [id, []]))
    if (ids.length === 0) return byEndpoint
    const { rows } = yield* statement<{ endpoint_id: string, event_type: string }>(
      `select endpoint_id, event_type from webhook_subscriptions where instance_id = ? and endpoint_id in (${ids.map(() => '?').join(', ')}) order by event_type`,
      [instanceId, ...ids])
    for (const row of rows) byEndpoint.get(row.endpoint_id)?.push(row.event_type)
    return byEndpoint
  }

  function* setEvents(instanceId: string, id: string, events: readonly string[]): Plan<void> {
    yield* statement('delete from webhook_subscriptions where instance_id = ? and endpoint_id = ?', [instanceId, id])
    yield* statement(`insert into webhook_subscriptions (instance_id, endpoint_id, event_type) values ${events.map(() => '(?, ?, ?)').join(', ')}`,
      events.flatMap((type) => [instanceId, id, type]))
  }

  function* withEvents(instanceId: string, rows: WebhookEndpointRow[]): Plan<WebhookEndpoint[]> {
    const events = yield* eventsOf(instanceId, rows.map((row) => row.id))
    return rows.map((row) => ({ ...row, version: Number(row.version), events: events.get(row.id) ?? [] }))
  }

  return {
    /** The deliveries of events seq first..last of an instance (just written by events.append), one per subscribed, enabled endpoint. */
    *fanOut(instanceId: string, firstSeq: number, lastSeq: number): Plan<void> {
      yield* statement(`${fanOutFrom('events')} where ev.instance_id = ? and ev.seq >= ? and ev.seq <= ?`, [instanceId, firstSeq, lastSeq])
    },

    fanOutFrom,

    *insertEndpoint(row: WebhookEndpointRow, events: readonly string[]): Plan<WebhookEndpoint> {
      yield* statement(
        `insert into webhook_endpoints (instance_id, id, url, description, secret, previous_secret, previous_secret_until, disabled_at, disabled_reason,
           failing_since, created_at, updated_at, version) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [row.instance_id, row.id, row.url, row.description, row.secret, row.previous_secret, row.previous_secret_until, row.disabled_at,
          row.disabled_reason, row.failing_since, row.created_at, row.updated_at, row.version])
      yield* setEvents(row.instance_id, row.id, events)
      return { ...row, events: [...events].sort() }
    },

    setEvents,

    /** The endpoint, locked against concurrent changes on PostgreSQL when `lock`. */
    *find(instanceId: string, id: string, lock = false): Plan<WebhookEndpoint | undefined> {
      const { rows } = yield* statement<WebhookEndpointRow>(
        `select * from webhook_endpoints where instance_id = ? and id = ?${lock && dialect === 'postgres' ? ' for update' : ''}`, [instanceId, id])
      return rows.length === 0 ? undefined : (yield* withEvents(instanceId, rows))[0]
    },

    /** Oldest first. */
    *list(instanceId: string): Plan<WebhookEndpoint[]> {
      const { rows } = yield* statement<WebhookEndpointRow>('select * from webhook_endpoints where instance_id = ? order by created_at, id', [instanceId])
      return yield* withEvents(instanceId, rows)
    },

    /** Writes the endpoint's changed columns and raises its version. */
    *update(instanceId: string, id: string, changes: Partial<Omit<WebhookEndpointRow, 'instance_id' | 'id' | 'created_at' | 'version'>>): Plan<void> {
      const columns = Object.keys(changes) as Array<keyof typeof changes>
      yield* statement(
        `update webhook_endpoints set ${columns.map((c) => `${c} = ?`).join(', ')}, version = version + 1 where instance_id = ? and id = ?`,
        [...columns.map((c) => changes[c]), instanceId, id])
    },

    /**
     * The endpoint's health, kept by the deliveries (not a change of its settings: the version
     * stays). `failing_since` keeps the first failure of a run of them.
     */
    *setHealth(instanceId: string, id: string, health: { failing: string | null } | { disabled: string, reason: string }): Plan<void> {
      if ('disabled' in health) {
        yield* statement('update webhook_endpoints set disabled_at = ?, disabled_reason = ? where instance_id = ? and id = ? and disabled_at is null',
          [health.disabled, health.reason, instanceId, id])
      } else if (health.failing === null) {
        yield* statement('update webhook_endpoints set failing_since = null where instance_id = ? and id = ? and failing_since is not null', [instanceId, id])
      } else {
        yield* statement('update webhook_endpoints set failing_since = ? where instance_id = ? and id = ? and failing_since is null', [health.failing, instanceId, id])
      }
    },

    /** Removes the endpoint, what it receives and its delivery log. */
    *delete(instanceId: string, id: string): Plan<void> {
      yield* statement('delete from webhook_subscriptions where instance_id = ? and endpoint_id = ?', [instanceId, id])
      yield* statement('delete from webhook_attempts where instance_id = ? and endpoint_id = ?', [instanceId, id])
      yield* statement('delete from webhook_deliveries where instance_id = ? and endpoint_id = ?', [instanceId, id])
      yield* statement('delete from webhook_endpoints where instance_id = ? and id = ?', [instanceId, id])
    },

    /** New deliveries to the endpoint of the feed's events since `since` that it receives; answers how many. */
    *replay(instanceId: string, endpointId: string, since: string, now: string): Plan<number> {
      const { changes } = yield* statement(
        `insert into webhook_deliveries (instance_id, id, endpoint_id, event_id, event_seq, status, attempts, next_attempt_at, created_at)
         select ev.instance_id, ${deliveryId}, s.endpoint_id, ev.id, ev.seq, 'pending', 0, ?, ?
         from events ev join webhook_subscriptions s on s.instance_id = ev.instance_id and s.event_type = ev.type
         where ev.instance_id = ? and s.endpoint_id = ? and ev.occurred_at >= ?`,
        [now, now, instanceId, endpointId, since])
      return changes
    },

    /**
     * The endpoint's deliveries, newest first, before the (created_at, id) of the page before,
     * each with what its event was: its type, and the code of the booking it is about (null for
     * another subject, or once the event has left the feed).
     */
    *deliveries(instanceId: string, endpointId: string, before: [string, string] | null, limit: number): Plan<LoggedDeliveryRow[]> {
      const page = before === null ? '' : ' and (d.created_at < ? or (d.created_at = ? and d.id < ?))'
      const { rows } = yield* statement<LoggedDeliveryRow>(
        `select d.*, e.type as event_type, b.code as booking_code from webhook_deliveries d
         left join events e on e.instance_id = d.instance_id and e.id = d.event_id
         left join bookings b on e.subject_type = 'booking' and b.instance_id = e.instance_id and b.id = e.subject_id
         where d.instance_id = ? and d.endpoint_id = ?${page} order by d.created_at desc, d.id desc limit ?`,
        [instanceId, endpointId, ...before === null ? [] : [before[0], before[0], before[1]], limit])
      return rows.map((row) => ({ ...row, event_seq: Number(row.event_seq) }))
    },

    /**
     * Whether `claim` would find a delivery due: read first, so that a node with nothing to
     * deliver commits nothing every second (each commit makes every node read its kept answers
     * again: src/services/availability-answers.ts).
     */
    *anyDue(now: string): Plan<boolean> {
      const { rows } = yield* statement(
        `select 1 as due from webhook_deliveries d
         join webhook_endpoints e on e.instance_id = d.instance_id and e.id = d.endpoint_id and e.disabled_at is null
         where d.status = 'pending' and d.next_attempt_at <= ? and (d.lease_until is null or d.lease_until <= ?) limit 1`,
        [now, now])
      return rows.length > 0
    },

    /**
     * Takes up to `limit` due deliveries of enabled endpoints, across instances, by setting
     * their lease: no other node takes them until it lapses. PostgreSQL skips rows another node
     * is claiming at the same moment; SQLite runs the one statement while holding the writer lock.
     */
    *claim(now: string, leaseUntil: string, limit: number): Plan<ClaimedDelivery[]> {
      const { rows } = yield* statement<ClaimedDelivery>(
        `update webhook_deliveries set lease_until = ?
         where (instance_id, id) in (
           select d.instance_id, d.id from webhook_deliveries d
           join webhook_endpoints e on e.instance_id = d.instance_id and e.id = d.endpoint_id and e.disabled_at is null
           where d.status = 'pending' and d.next_attempt_at <= ? and (d.lease_until is null or d.lease_until <= ?)
           order by d.next_attempt_at, d.event_seq limit ?${supportsSkipLocked ? ' for update of d skip locked' : ''})
         returning *`,
        [leaseUntil, now, now, limit])
      return rows.map((row) => ({ ...row, event_seq: Number(row.event_seq), attempts: Number(row.attempts) }))
    },

    /** Every attempt of the deliveries, first attempt first, by delivery id. */
    *attempts(instanceId: string, deliveryIds: readonly string[]): Plan<Map<string, WebhookAttemptRow[]>> {
      const byDelivery = new Map<string, WebhookAttemptRow[]>(deliveryIds.map((id) => [id, []]))
      if (deliveryIds.length === 0) return byDelivery
      const { rows } = yield* statement<WebhookAttemptRow>(
        `select * from webhook_attempts where instance_id = ? and delivery_id in (${deliveryIds.map(() => '?').join(', ')}) order by delivery_id, attempt`,
        [instanceId, ...deliveryIds])
      for (const row of rows) byDelivery.get(row.delivery_id)?.push({ ...row, attempt: Number(row.attempt), duration_ms: Number(row.duration_ms), status: row.status === null ? null : Number(row.status) })
      return byDelivery
    },

    /**
     * Writes an attempt's outcome, and the attempt itself into the log, if this node still holds
     * the lease it claimed the delivery with; true when written.
     */
    *record(delivery: ClaimedDelivery, outcome: DeliveryOutcome, attempt: AttemptRecord): Plan<boolean> {
      const [status, nextAttempt, deliveredAt] = outcome.kind === 'delivered' ? ['delivered', delivery.next_attempt_at, outcome.at]
        : outcome.kind === 'retry' ? ['pending', outcome.next_attempt_at, null] : ['failed', delivery.next_attempt_at, null]
      const { changes } = yield* statement(
        `update webhook_deliveries set status = ?, attempts = attempts + 1, next_attempt_at = ?, lease_until = null, last_status = ?, last_error = ?, delivered_at = ?
         where instance_id = ? and id = ? and status = 'pending' and lease_until = ?`,
        [status, nextAttempt, outcome.status, outcome.kind === 'delivered' ? null : outcome.error, deliveredAt, delivery.instance_id, delivery.id, delivery.lease_until])
      if (changes !== 1) return false
      yield* statement(
        `insert into webhook_attempts (instance_id, delivery_id, attempt, endpoint_id, at, duration_ms, status, error, answer) values (?, ?, ?, ?, ?, ?, ?, ?, ?)
         on conflict (instance_id, delivery_id, attempt) do nothing`,
        [delivery.instance_id, delivery.id, delivery.attempts + 1, delivery.endpoint_id, attempt.at, attempt.duration_ms, attempt.status, attempt.error, attempt.answer])
      return true
    },

    /** Gives back claimed deliveries this node will not attempt now (while it still holds their lease), for the next run on any node. */
    *release(deliveries: readonly ClaimedDelivery[]): Plan<void> {
      for (const d of deliveries) {
        yield* statement('update webhook_deliveries set lease_until = null where instance_id = ? and id = ? and lease_until = ?', [d.instance_id, d.id, d.lease_until])
      }
    },

    /** Endpoints failing since `since` or longer and not disabled, or disabled since `since`: those managers are told about. */
    *failingOrDisabledSince(instanceId: string, since: string): Plan<Array<Pick<WebhookEndpointRow, 'id' | 'url' | 'failing_since' | 'disabled_at' | 'disabled_reason'>>> {
      const { rows } = yield* statement<Pick<WebhookEndpointRow, 'id' | 'url' | 'failing_since' | 'disabled_at' | 'disabled_reason'>>(
        `select id, url, failing_since, disabled_at, disabled_reason from webhook_endpoints
         where instance_id = ? and ((disabled_at is null and failing_since <= ?) or disabled_at >= ?)`,
        [instanceId, since, since])
      return rows
    },

    /** Whether `prune` has a delivery to delete (read first, as `anyDue`). */
    *anyBefore(before: string): Plan<boolean> {
      const { rows } = yield* statement('select 1 as old from webhook_deliveries where created_at < ? limit 1', [before])
      return rows.length > 0
    },

    /** Deletes deliveries made before `before`, whatever their status (the log keeps 30 days, as the feed), with their attempts; answers how many deliveries. */
    *prune(before: string, limit: number): Plan<number> {
      // Every attempt of every delivery past the limit too: an attempt never outlives its delivery.
      yield* statement(
        `delete from webhook_attempts where (instance_id, delivery_id) in (select instance_id, id from webhook_deliveries where created_at < ?)`, [before])
      const { changes } = yield* statement(
        `delete from webhook_deliveries where (instance_id, id) in (select instance_id, id from webhook_deliveries where created_at < ? limit ?)`, [before, limit])
      return changes
    },
  }
}

export type WebhookRepository = ReturnType<typeof webhookRepository>
