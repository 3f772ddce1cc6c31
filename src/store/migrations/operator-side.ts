import { type Kysely, type Migration, sql } from 'kysely'

/** Migrations 008 to 013, 021 and 022 (their ids, as applied, never change). The operator side: keys that lead with the tenant, staff, API keys, the audit log, sign-in counts and the catalog in the database. */
export const operatorSideMigrations = (dialect: 'sqlite' | 'postgres'): Record<string, Migration> => ({
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
