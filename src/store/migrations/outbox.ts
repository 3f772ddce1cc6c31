import { type Kysely, type Migration, sql } from 'kysely'

/** Migrations 014 to 020 (their ids, as applied, never change). What leaves the system: session lookups, the event outbox, job leases, webhooks, the minimum to run, emails, and catalog increments. */
export const outboxMigrations = (): Record<string, Migration> => ({
  '014_session_lookups': {
    // POST /booking/lookup makes a booking found by its code and email, or by its manage link,
    // the session's booking (on another device, too) until the session holds seats again.
    async up(db: Kysely<any>) {
      await db.schema.alterTable('sessions').addColumn('looked_up_booking_id', 'text').execute()
    },
  },
  '015_events': {
    // The outbox (docs/events-and-webhooks.md, "Events"): events commit with the change
    // they report, numbered per instance by event_sequences in commit order.
    async up(db: Kysely<any>) {
      await db.schema.createTable('event_sequences')
        .addColumn('instance_id', 'text', (c) => c.primaryKey())
        .addColumn('last_seq', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema.createTable('events')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('occurred_at', 'text', (c) => c.notNull())
        .addColumn('subject_type', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('events_pk', ['instance_id', 'seq'])
        .execute()
      await db.schema.createIndex('events_by_id').on('events').columns(['instance_id', 'id']).unique().execute()
      await db.schema.createIndex('events_by_time').on('events').columns(['occurred_at']).execute()
    },
  },
  '016_job_leases': {
    // Background work one node at a time must do (src/store/leases.ts).
    async up(db: Kysely<any>) {
      await db.schema.createTable('job_leases')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('job_leases_pk', ['instance_id', 'name'])
        .execute()
    },
  },
  '017_webhooks': {
    // Webhook endpoints, the event types each receives, and one delivery per (endpoint, event) (src/store/webhooks.ts).
    async up(db: Kysely<any>) {
      await db.schema.createTable('webhook_endpoints')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('previous_secret', 'text')
        .addColumn('previous_secret_until', 'text')
        .addColumn('disabled_at', 'text')
        .addColumn('disabled_reason', 'text')
        .addColumn('failing_since', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('webhook_endpoints_pk', ['instance_id', 'id'])
        .execute()
      await db.schema.createTable('webhook_subscriptions')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('endpoint_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('webhook_subscriptions_pk', ['instance_id', 'event_type', 'endpoint_id'])
        .execute()
      await db.schema.createTable('webhook_deliveries')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('endpoint_id', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('event_seq', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('lease_until', 'text')
        .addColumn('last_status', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('delivered_at', 'text')
        .addPrimaryKeyConstraint('webhook_deliveries_pk', ['instance_id', 'id'])
        .execute()
      // Due work across every instance, oldest first; and each endpoint's log, newest first.
      await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute()
      await db.schema.createIndex('webhook_deliveries_by_endpoint').on('webhook_deliveries').columns(['instance_id', 'endpoint_id', 'created_at', 'id']).execute()
      await db.schema.createIndex('webhook_deliveries_by_age').on('webhook_deliveries').columns(['created_at']).execute()
    },
  },
  '018_minimum_to_run': {
    // A tour's minimum to run, and when each departure's deadline was checked (src/services/departure-minimum.ts).
    async up(db: Kysely<any>) {
      await db.schema.alterTable('catalog_tours').addColumn('min_participants', 'integer').execute()
      await db.schema.alterTable('catalog_tours').addColumn('min_participants_deadline_hours', 'integer').execute()
      // Set once, by the node that checked the departure at its deadline; at_risk_at too when it was below the minimum then.
      await db.schema.alterTable('departures').addColumn('deadline_checked_at', 'text').execute()
      await db.schema.alterTable('departures').addColumn('at_risk_at', 'text').execute()
    },
  },
  '019_emails': {
    // Every message kept with its state, the projection's place in each instance's events, and the operator's one-click links (src/store/emails.ts).
    async up(db: Kysely<any>) {
      await db.schema.createTable('emails')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('booking_id', 'text')
        // Makes a message once however many nodes try (a reminder, a warning about an endpoint).
        .addColumn('dedupe_key', 'text')
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('text_body', 'text', (c) => c.notNull())
        .addColumn('html_body', 'text', (c) => c.notNull())
        .addColumn('calendar', 'text')
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('state_reason', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('lease_until', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'text')
        .addPrimaryKeyConstraint('emails_pk', ['instance_id', 'id'])
        .execute()
      await db.schema.createIndex('emails_dedupe').on('emails').columns(['instance_id', 'dedupe_key']).unique().execute()
      await db.schema.createIndex('emails_due').on('emails').columns(['state', 'next_attempt_at']).execute()
      await db.schema.createIndex('emails_by_recipient').on('emails').columns(['instance_id', 'recipient', 'created_at']).execute()
      await db.schema.createIndex('emails_by_booking').on('emails').columns(['instance_id', 'booking_id']).execute()
      await db.schema.createIndex('emails_by_age').on('emails').columns(['instance_id', 'created_at', 'id']).execute()
      await db.schema.createTable('email_cursors')
        .addColumn('instance_id', 'text', (c) => c.primaryKey())
        .addColumn('last_seq', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema.createTable('email_action_links')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull())
        .addColumn('booking_id', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addPrimaryKeyConstraint('email_action_links_pk', ['instance_id', 'token_hash'])
        .execute()
      await db.schema.alterTable('events').addColumn('notice', 'text').execute()
      // Events before this migration were never meant to make emails: the projection starts after them.
      await sql`insert into email_cursors (instance_id, last_seq) select instance_id, last_seq from event_sequences`.execute(db)
    },
  },
  '020_catalog_increments': {
    // A node holding catalog version v reads only the tours written since (updated_version > v),
    // unless a tour was deleted since (tours_removed_version > v): then it reads the instance
    // whole. Rows written before carry 0, which every node's first, whole read covers.
    async up(db: Kysely<any>) {
      await db.schema.alterTable('catalog_tours').addColumn('updated_version', 'integer', (c) => c.notNull().defaultTo(0)).execute()
      await db.schema.alterTable('catalog_instances').addColumn('tours_removed_version', 'integer', (c) => c.notNull().defaultTo(0)).execute()
      await db.schema.createIndex('catalog_tours_by_update').on('catalog_tours').columns(['instance_id', 'updated_version']).execute()
      // Reads take the tours in list order a page at a time (src/store/catalog.ts).
      await db.schema.createIndex('catalog_tours_in_order').on('catalog_tours').columns(['instance_id', 'position', 'id']).execute()
    },
  },
  '023_webhook_attempts': {
    // Every attempt of a delivery, not only its last status, for the delivery log's 30 days (src/store/webhooks.ts).
    async up(db: Kysely<any>) {
      await db.schema.createTable('webhook_attempts')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('delivery_id', 'text', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('endpoint_id', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('status', 'integer')
        .addColumn('error', 'text')
        .addColumn('answer', 'text')
        .addPrimaryKeyConstraint('webhook_attempts_pk', ['instance_id', 'delivery_id', 'attempt'])
        .execute()
      await db.schema.createIndex('webhook_attempts_by_endpoint').on('webhook_attempts').columns(['instance_id', 'endpoint_id']).execute()
    },
  },
})
