import { type Kysely, type Migration, Migrator, sql } from 'kysely'
import { CHANGE_CHANNEL, PLAN_TRANSACTION_SETTING } from './change-token.ts'

/**
 * Written with Kysely's schema builder, so the same steps run on SQLite and PostgreSQL; the
 * only dialect-specific step is PostgreSQL's change notification (004).
 */
const migrationsFor = (dialect: 'sqlite' | 'postgres'): Record<string, Migration> => ({
  '001_bookings': {
    async up(db: Kysely<any>) {
      await db.schema.createTable('server_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createTable('sessions')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('sessions_pk', ['instance_id', 'id'])
        .execute()
      await db.schema.createIndex('sessions_expiry').on('sessions').columns(['expires_at']).execute()
      await db.schema.createTable('departures')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('tour_id', 'text', (c) => c.notNull())
        .addColumn('start_at', 'text', (c) => c.notNull())
        .addColumn('capacity', 'integer', (c) => c.notNull())
        .addColumn('seats_taken', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('closed', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('departures_pk', ['instance_id', 'tour_id', 'start_at'])
        .addCheckConstraint('departures_seats_within_capacity', sql`seats_taken >= 0 AND seats_taken <= capacity`)
        .execute()
      await db.schema.createTable('bookings')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('session_id', 'text', (c) => c.notNull())
        .addColumn('tour_id', 'text', (c) => c.notNull())
        .addColumn('start_at', 'text', (c) => c.notNull())
        .addColumn('end_at', 'text', (c) => c.notNull())
        .addColumn('party', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('quarantined', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('addons', 'text', (c) => c.notNull())
        .addColumn('promo_code', 'text')
        .addColumn('referral_code', 'text')
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('subtotal', 'integer', (c) => c.notNull())
        .addColumn('addons_total', 'integer', (c) => c.notNull())
        .addColumn('discount', 'integer', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('hold_expires_at', 'text')
        .addColumn('code', 'text')
        .addColumn('contact_name', 'text')
        .addColumn('contact_email', 'text')
        .addColumn('contact_phone', 'text')
        .addColumn('cancellable_until', 'text', (c) => c.notNull())
        .addColumn('cancellation_fee_percent', 'integer')
        .addColumn('cancellation_fee', 'integer')
        .addColumn('cancelled_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('bookings_by_session').on('bookings').columns(['instance_id', 'session_id', 'created_at']).execute()
      await db.schema.createIndex('bookings_by_departure').on('bookings').columns(['instance_id', 'tour_id', 'start_at', 'status']).execute()
      await db.schema.createIndex('bookings_held_by_expiry').on('bookings').columns(['status', 'hold_expires_at']).execute()
      await db.schema.createIndex('bookings_code').on('bookings').columns(['instance_id', 'code']).unique().execute()
      await db.schema.createTable('booking_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('booking_id', 'text', (c) => c.notNull())
        .addColumn('from_status', 'text')
        .addColumn('to_status', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('booking_events_by_booking').on('booking_events').columns(['instance_id', 'booking_id', 'at']).execute()
      await db.schema.createTable('promo_redemptions')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('uses', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('promo_redemptions_pk', ['instance_id', 'code'])
        .execute()
      await db.schema.createTable('idempotency_keys')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('session_id', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['instance_id', 'session_id', 'key'])
        .execute()
      await db.schema.createIndex('idempotency_keys_expiry').on('idempotency_keys').columns(['expires_at']).execute()
    },
  },
  '002_forms': {
    async up(db: Kysely<any>) {
      await db.schema.createTable('contact_messages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('session_id', 'text')
        .addColumn('name', 'text')
        .addColumn('email', 'text')
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('promo_code', 'text')
        .addColumn('referral_code', 'text')
        .addColumn('spam', 'integer', (c) => c.notNull())
        .addColumn('received_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('contact_messages_by_email').on('contact_messages').columns(['instance_id', 'email']).execute()
      await db.schema.createIndex('contact_messages_by_time').on('contact_messages').columns(['received_at']).execute()
      await db.schema.createTable('newsletter_signups')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('session_id', 'text')
        .addColumn('promo_code', 'text')
        .addColumn('referral_code', 'text')
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('spam', 'integer', (c) => c.notNull())
        .addColumn('consented_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('newsletter_signups_by_email').on('newsletter_signups').columns(['instance_id', 'email']).execute()
      await db.schema.createTable('newsletter_subscribers')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('consented_at', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('newsletter_subscribers_pk', ['instance_id', 'email'])
        .execute()
    },
  },
  '003_session_status_index': {
    // The session's latest booking in some statuses is read on every hold, release and
    // checkout; without status in the index a long-lived session sorts its whole history.
    async up(db: Kysely<any>) {
      await db.schema.createIndex('bookings_by_session_status').on('bookings')
        .columns(['instance_id', 'session_id', 'status', 'created_at', 'id']).execute()
    },
  },
  '004_change_notifications': {
    // Nodes keep availability answers until seats or holds change (src/store/change-token.ts).
    // SQLite's data_version tells a process about other processes' commits by itself;
    // PostgreSQL tells every listening node at commit time, whoever made the change.
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return
      await sql`create function tourdesk_notify_change() returns trigger language plpgsql as $$
        begin perform pg_notify(${sql.lit(CHANGE_CHANNEL)}, ''); return null; end $$`.execute(db)
      for (const table of ['departures', 'bookings']) {
        await sql`create trigger ${sql.id(`${table}_changed`)} after insert or update or delete on ${sql.table(table)}
          for each statement execute function tourdesk_notify_change()`.execute(db)
      }
    },
  },
  '005_session_history_order': {
    // The session's latest booking among several statuses (checkout, release, GET /booking)
    // walks this index newest first and stops at the first match; without id in it, SQLite
    // sorted the session's whole history on every call to break created_at ties.
    async up(db: Kysely<any>) {
      await db.schema.dropIndex('bookings_by_session').execute()
      await db.schema.createIndex('bookings_by_session').on('bookings').columns(['instance_id', 'session_id', 'created_at', 'id']).execute()
    },
  },
  '006_write_path_indexes': {
    // Every index is written on every insert, and on every update of a column it holds. The
    // write path (src/store/bookings.ts) finds held bookings by session and by departure,
    // and the sweep finds lapsed ones; partial indexes over `held` serve all three and hold
    // only the few live holds, so a booking leaves them when it leaves `held` and later
    // status changes write no index at all. The full indexes they replace held every
    // booking ever made and were rewritten on every status change.
    async up(db: Kysely<any>) {
      await db.schema.dropIndex('bookings_by_session_status').execute()
      await db.schema.dropIndex('bookings_by_departure').execute()
      await db.schema.dropIndex('bookings_held_by_expiry').execute()
      await db.schema.createIndex('bookings_held_by_session').on('bookings').columns(['instance_id', 'session_id'])
        .where(sql.ref('status'), '=', 'held').execute()
      await db.schema.createIndex('bookings_held_by_departure').on('bookings').columns(['instance_id', 'tour_id', 'start_at', 'hold_expires_at'])
        .where(sql.ref('status'), '=', 'held').execute()
    },
  },
  '007_notify_after_commit': {
    // A NOTIFY inside a transaction takes a database-wide lock at commit and holds it through
    // the commit's WAL flush, so every notifying transaction commits alone: no group commit,
    // about a thousand writes a second at most. tourdesk's write plans mark their
    // transaction and announce their changes once committed, batched, outside it (see
    // src/store/change-token.ts); the trigger still speaks for every other writer, such as
    // an operator's psql session.
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return
      await sql`create or replace function tourdesk_notify_change() returns trigger language plpgsql as $$
        begin
          if coalesce(current_setting(${sql.lit(PLAN_TRANSACTION_SETTING)}, true), '') <> 'on' then
            perform pg_notify(${sql.lit(CHANGE_CHANNEL)}, '');
          end if;
          return null;
        end $$`.execute(db)
    },
  },
  '008_operator_foundation': {
    // What the operator side needs on the rows it acts on, and keys that lead with the tenant.
    async up(db: Kysely<any>) {
      // Tables whose primary key was a bare id: from now on (instance_id, id), so the
      // instance is the leading column of every key and unique index (the shard key when
      // one PostgreSQL is no longer enough). test/store/tenant-keys.test.ts checks it.
      for (const table of ['bookings', 'booking_events', 'contact_messages', 'newsletter_signups']) {
        await rekeyByInstance(db, dialect, table)
      }
      await db.schema.alterTable('bookings').addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)).execute()
      await db.schema.alterTable('bookings').addColumn('channel', 'text', (c) => c.notNull().defaultTo('web')).execute()
      // The cancellation policy the booking was made under ({id, version, tiers,
      // no_show_fee_percent}); null only for bookings made before this migration.
      await db.schema.alterTable('bookings').addColumn('policy', 'text').execute()
      await db.schema.alterTable('bookings').addColumn('checked_in_at', 'text').execute()
      await db.schema.alterTable('bookings').addColumn('internal_note', 'text').execute()
      await db.schema.alterTable('bookings').addColumn('decline_reason', 'text').execute()
      await db.schema.alterTable('bookings').addColumn('cancelled_by', 'text').execute()
      await db.schema.alterTable('bookings').addColumn('cancellation_reason', 'text').execute()
      await db.schema.alterTable('bookings').addColumn('fee_waived', 'integer').execute()
      // A departure's version counts the operator's changes (capacity, closed, note,
      // cancelled), not the seats that guests take and give back.
      await db.schema.alterTable('departures').addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)).execute()
      await db.schema.alterTable('departures').addColumn('note', 'text').execute()
      await db.schema.alterTable('departures').addColumn('cancelled', 'integer', (c) => c.notNull().defaultTo(0)).execute()
      await db.schema.alterTable('departures').addColumn('extra', 'integer', (c) => c.notNull().defaultTo(0)).execute()
      // 'tour' while the capacity is the tour's default, 'operator' once an operator set it: then it stays.
      await db.schema.alterTable('departures').addColumn('capacity_source', 'text', (c) => c.notNull().defaultTo('tour')).execute()
    },
  },
  '009_staff_keys_audit': {
    // The operator side's credentials and its audit trail (docs/operator-api.md, "Credentials" and "Audit, privacy and access").
    async up(db: Kysely<any>) {
      await db.schema.createTable('staff')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        // Lower-cased: an email is unique per instance whatever its case.
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        // scrypt, null until the account's setup link is used.
        .addColumn('password_hash', 'text')
        .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('staff_pk', ['instance_id', 'id'])
        .execute()
      await db.schema.createIndex('staff_email').on('staff').columns(['instance_id', 'email']).unique().execute()
      await db.schema.createTable('staff_sessions')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        // sha256 of the cookie's token: a copy of the table signs no one in.
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('staff_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('staff_sessions_pk', ['instance_id', 'id'])
        .execute()
      await db.schema.createIndex('staff_sessions_by_staff').on('staff_sessions').columns(['instance_id', 'staff_id']).execute()
      await db.schema.createTable('staff_setup_tokens')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull())
        .addColumn('staff_id', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addPrimaryKeyConstraint('staff_setup_tokens_pk', ['instance_id', 'token_hash'])
        .execute()
      await db.schema.createTable('sign_in_failures')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('sign_in_failures_pk', ['instance_id', 'id'])
        .execute()
      await db.schema.createIndex('sign_in_failures_by_email').on('sign_in_failures').columns(['instance_id', 'email', 'at']).execute()
      await db.schema.createTable('api_keys')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        // The secret's first 8 characters, to tell keys apart in a list.
        .addColumn('prefix', 'text', (c) => c.notNull())
        // sha256 of the secret: the secret itself is shown once and never stored.
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .addColumn('revoked_at', 'text')
        .addPrimaryKeyConstraint('api_keys_pk', ['instance_id', 'id'])
        .execute()
      await db.schema.createIndex('api_keys_secret').on('api_keys').columns(['instance_id', 'secret_hash']).unique().execute()
      await db.schema.createTable('audit_log')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('actor_type', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('actor_name', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target_type', 'text', (c) => c.notNull())
        .addColumn('target_id', 'text', (c) => c.notNull())
        .addColumn('before', 'text')
        .addColumn('after', 'text')
        .addColumn('request_id', 'text')
        .addPrimaryKeyConstraint('audit_log_pk', ['instance_id', 'id'])
        .execute()
      await db.schema.createIndex('audit_log_by_time').on('audit_log').columns(['instance_id', 'at', 'id']).execute()
      // The operator's lists: bookings by departure date (and manifests), and by code/contact for search.
      await db.schema.createIndex('bookings_by_departure').on('bookings').columns(['instance_id', 'start_at', 'tour_id']).execute()
    },
  },
  '010_idempotency_by_caller': {
    // Idempotency keys belong to whoever sent them: a guest session (its id, as before), a
    // staff member (staff:<id>) or an API key (key:<id>).
    async up(db: Kysely<any>) {
      await db.schema.alterTable('idempotency_keys').renameColumn('session_id', 'caller').execute()
    },
  },
  '011_requests_awaiting_decision': {
    // The request deadline (housekeeping) reads the requests nobody has answered yet; a
    // partial index holds only those, so the sweep reads a handful of rows, not every booking.
    async up(db: Kysely<any>) {
      await db.schema.createIndex('bookings_requested').on('bookings').columns(['instance_id', 'start_at'])
        .where(sql.ref('status'), '=', 'requested').execute()
    },
  },
  '012_departures_by_start': {
    // The operator's departure list reads every tour's departures in a date window; the
    // primary key leads with the tour, so without this it would read the instance's whole
    // history of departures. Seat changes do not touch start_at, so holds never write it.
    async up(db: Kysely<any>) {
      await db.schema.createIndex('departures_by_start').on('departures').columns(['instance_id', 'start_at']).execute()
    },
  },
  '013_catalog': {
    // The catalog lives in the database (docs/operator-api.md, "Catalog, settings and policy"); the
    // catalog file seeds an empty database and is applied again with `tourdesk catalog import`.
    // Nested values the service never queries by (meeting point, languages, tags, blackouts,
    // tiers, a promo code's tours, the settings) are JSON text.
    async up(db: Kysely<any>) {
      await db.schema.createTable('catalog_instances')
        .addColumn('instance_id', 'text', (c) => c.primaryKey())
        .addColumn('prefix', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('timezone', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        // Every other field of the file's instance (horizon, holds, decoys, origins, limits, …).
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('policy_id', 'text', (c) => c.notNull())
        .addColumn('policy_version', 'integer', (c) => c.notNull())
        // Raised by every change to the instance's catalog: nodes reload an instance when it moves.
        .addColumn('catalog_version', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createTable('catalog_tours')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        // The tour's place in the list guests see when they give no search.
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('duration_minutes', 'integer', (c) => c.notNull())
        .addColumn('meeting_point', 'text', (c) => c.notNull())
        .addColumn('languages', 'text', (c) => c.notNull())
        .addColumn('tags', 'text', (c) => c.notNull())
        .addColumn('price', 'integer', (c) => c.notNull())
        .addColumn('party_min', 'integer', (c) => c.notNull())
        .addColumn('party_max', 'integer', (c) => c.notNull())
        .addColumn('capacity', 'integer', (c) => c.notNull())
        .addColumn('cutoff_minutes', 'integer', (c) => c.notNull())
        .addColumn('confirmation', 'text', (c) => c.notNull())
        .addColumn('blackouts', 'text', (c) => c.notNull())
        .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('catalog_tours_pk', ['instance_id', 'id'])
        .execute()
      await db.schema.createTable('catalog_schedule_rules')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('tour_id', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('valid_from', 'text', (c) => c.notNull())
        .addColumn('valid_until', 'text', (c) => c.notNull())
        .addColumn('weekdays', 'text', (c) => c.notNull())
        .addColumn('times', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('catalog_schedule_rules_pk', ['instance_id', 'tour_id', 'position'])
        .execute()
      await db.schema.createTable('catalog_addons')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('tour_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('price', 'integer', (c) => c.notNull())
        .addColumn('per', 'text', (c) => c.notNull())
        .addColumn('max_quantity', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('catalog_addons_pk', ['instance_id', 'tour_id', 'id'])
        .execute()
      await db.schema.createTable('catalog_promo_codes')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('value', 'integer', (c) => c.notNull())
        .addColumn('valid_from', 'text', (c) => c.notNull())
        .addColumn('valid_until', 'text', (c) => c.notNull())
        .addColumn('tour_ids', 'text')
        .addColumn('max_uses', 'integer')
        .addPrimaryKeyConstraint('catalog_promo_codes_pk', ['instance_id', 'code'])
        .execute()
      // Every version a policy ever had: a booking names the version it was made under.
      await db.schema.createTable('catalog_policies')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('tiers', 'text', (c) => c.notNull())
        .addColumn('no_show_fee_percent', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('catalog_policies_pk', ['instance_id', 'id', 'version'])
        .execute()
    },
  },
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
  '021_sign_in_counter': {
    // One row per email replaces a row per failure: every attempt is counted by one
    // conditional upsert before its password is checked (src/store/staff.ts, countSignInAttempt),
    // so concurrent attempts cannot all pass a check made before any of them was recorded.
    async up(db: Kysely<any>) {
      await db.schema.dropTable('sign_in_failures').execute()
      await db.schema.createTable('sign_in_counts')
        .addColumn('instance_id', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('window_started_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('sign_in_counts_pk', ['instance_id', 'email'])
        .execute()
    },
  },
  '022_audit_target_ref': {
    // The audit log names its target as people know it (src/store/audit.ts); older entries keep null.
    // GET /audit?booking= reads one target's entries.
    async up(db: Kysely<any>) {
      await db.schema.alterTable('audit_log').addColumn('target_ref', 'text').execute()
      await db.schema.createIndex('audit_log_by_target').on('audit_log').columns(['instance_id', 'target_type', 'target_id', 'at']).execute()
    },
  },
})

/**
 * Gives `table` the primary key (instance_id, id). SQLite cannot change a primary key in
 * place, so the table is made again from its own definition with the new key (SQLite's
 * documented twelve-step procedure, inside the migration's transaction).
 */
async function rekeyByInstance(db: Kysely<any>, dialect: 'sqlite' | 'postgres', table: string): Promise<void> {
  if (dialect === 'postgres') {
    await sql`alter table ${sql.table(table)} drop constraint ${sql.id(`${table}_pkey`)}`.execute(db)
    await sql`alter table ${sql.table(table)} add constraint ${sql.id(`${table}_pkey`)} primary key (instance_id, id)`.execute(db)
    return
  }
  const { rows: [definition] } = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = ${table}`.execute(db)
  const { rows: indexes } = await sql<{ sql: string }>`select sql from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null`.execute(db)
  const rekeyed = definition.sql
    .replace(`"id" text primary key`, `"id" text not null`)
    .replace(/\)\s*$/, `, constraint "${table}_pk" primary key ("instance_id", "id"))`)
    .replace(/^create table "[a-z_]+"/i, `create table "${table}_rekeyed"`)
  if (rekeyed === definition.sql || !rekeyed.includes(`"${table}_rekeyed"`)) throw new Error(`cannot rekey ${table}: unexpected definition ${definition.sql}`)
  await sql.raw(rekeyed).execute(db)
  await sql`insert into ${sql.table(`${table}_rekeyed`)} select * from ${sql.table(table)}`.execute(db)
  await sql`drop table ${sql.table(table)}`.execute(db)
  await sql`alter table ${sql.table(`${table}_rekeyed`)} rename to ${sql.table(table)}`.execute(db)
  for (const index of indexes) await sql.raw(index.sql).execute(db)
}

/**
 * Applies pending migrations. On PostgreSQL the bookkeeping tables go into the connection's
 * current schema: left unnamed, Kysely would take a table of that name in any schema of the
 * database for its own. Kysely holds an advisory lock meanwhile, so nodes starting together
 * migrate one after another.
 */
export async function migrateToLatest(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const migrationTableSchema = dialect === 'postgres'
    ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0].schema
    : undefined
  const migrator = new Migrator({ db, migrationTableSchema, provider: { getMigrations: async () => migrationsFor(dialect) } })
  const { error, results } = await migrator.migrateToLatest()
  const failed = results?.find((r) => r.status === 'Error')
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${(error as Error)?.message ?? 'unknown error'}`)
  }
}
