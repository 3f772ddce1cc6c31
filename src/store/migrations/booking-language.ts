import type { Kysely, Migration } from 'kysely'

/**
 * Migration 028, the language a booking is guided in (docs/languages.md): one of its tour's
 * `languages`, written by every new booking. A booking made before it has none (null), and
 * reads as its tour's first language (src/domain/booking-language.ts).
 */
export const bookingLanguageMigrations = (): Record<string, Migration> => ({
  '028_booking_language': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('bookings').addColumn('language', 'text').execute()
    },
  },
})
