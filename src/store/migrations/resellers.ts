import { type Kysely, type Migration } from 'kysely'

/**
 * Migration 026, resellers (docs/resellers.md). A reseller key keeps the tours it may sell
 * (JSON array of tour ids; null: every tour, later ones included) and its commission in basis
 * points (20 % = 2000). A booking a reseller made through the OCTo API keeps the key, the
 * reseller's uuid for it (unique per key: reserving the same uuid again answers the same
 * booking), the reseller's own reference, and the commission it was sold under.
 * Migration 029: the reseller's notes for the operator (OCTo `notes`).
 */
export const resellerMigrations = (): Record<string, Migration> => ({
  '026_resellers': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('api_keys').addColumn('products', 'text').execute()
      await db.schema.alterTable('api_keys').addColumn('commission_basis_points', 'integer').execute()
      await db.schema.alterTable('bookings').addColumn('reseller_key_id', 'text').execute()
      await db.schema.alterTable('bookings').addColumn('reseller_uuid', 'text').execute()
      await db.schema.alterTable('bookings').addColumn('reseller_reference', 'text').execute()
      await db.schema.alterTable('bookings').addColumn('reseller_commission_basis_points', 'integer').execute()
      await db.schema.createIndex('bookings_by_reseller_uuid').on('bookings').columns(['instance_id', 'reseller_key_id', 'reseller_uuid']).unique().execute()
      await db.schema.createIndex('bookings_by_reseller_reference').on('bookings').columns(['instance_id', 'reseller_key_id', 'reseller_reference']).execute()
    },
  },
  '029_reseller_notes': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('bookings').addColumn('reseller_notes', 'text').execute()
    },
  },
})
