import { type Kysely, type Migration, sql } from 'kysely'
import { CHANGE_CHANNEL, PLAN_TRANSACTION_SETTING } from '../change-token.ts'
import { UNFORESEEN_OUTCOME } from '../write-plan.ts'

/** Migrations 001 to 007 and 024 (their ids, as applied, never change). The guest side: bookings, departures, sessions and forms, their indexes, the change notifications PostgreSQL sends at commit (004, 007) and the check of a pipelined write (024): the dialect-specific steps. */
export const guestSideMigrations = (dialect: 'sqlite' | 'postgres'): Record<string, Migration> => ({
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
  '024_write_expectations': {
    // A write plan on PostgreSQL sends the statements whose outcome it foresees without waiting
    // for them (src/store/write-plan.ts, runPlanPipelined); each such statement checks its
    // outcome with this function, which fails the transaction when it did not come. Volatile
    // (the default), so it runs for every row and is never folded away when planned.
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return
      await sql`create or replace function tourdesk_expect(held boolean) returns boolean language plpgsql as $$
        begin
          if held is not true then
            raise exception 'a pipelined write met an outcome its plan did not foresee' using errcode = ${sql.lit(UNFORESEEN_OUTCOME)};
          end if;
          return true;
        end $$`.execute(db)
    },
  },
})
