import { type Kysely, type Migration, sql } from 'kysely'

/**
 * Migration 025, price categories (docs/units.md). A booking keeps the seats it takes beside
 * the people it counts (`party`), and its unit lines as JSON like its add-on lines; a booking
 * made before units existed was `party` of the implicit "person" unit at its subtotal, which is
 * what it is given. A tour keeps its units as the catalog file writes them (null: none listed).
 */
export const priceCategoryMigrations = (): Record<string, Migration> => ({
  '025_price_categories': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('bookings').addColumn('seats', 'integer', (c) => c.notNull().defaultTo(0)).execute()
      await db.schema.alterTable('bookings').addColumn('units', 'text', (c) => c.notNull().defaultTo('[]')).execute()
      await sql`update bookings set seats = party,
        units = '[{"id":"person","type":"adult","name":"Person","quantity":' || party || ',"amount":' || subtotal || '}]'`.execute(db)
      await db.schema.alterTable('catalog_tours').addColumn('units', 'text').execute()
    },
  },
})
