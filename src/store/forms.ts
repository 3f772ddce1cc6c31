import type { Insertable } from 'kysely'
import type { Database } from './database.ts'
import type { Tables } from './tables.ts'

export function formRepository({ db, transaction }: Database) {
  return {
    async insertContactMessage(row: Insertable<Tables['contact_messages']>): Promise<void> {
      await db.insertInto('contact_messages').values(row).execute()
    },

    /**
     * Keeps the sign-up as a consent record and, unless it is spam, subscribes the address;
     * an address already subscribed keeps its first consent.
     */
    async recordNewsletterSignup(row: Insertable<Tables['newsletter_signups']>): Promise<void> {
      await transaction(async (trx) => {
        await trx.insertInto('newsletter_signups').values(row).execute()
        if (row.spam) return
        await trx.insertInto('newsletter_subscribers')
          .values({ instance_id: row.instance_id, email: row.email, name: row.name ?? null, consented_at: row.consented_at, source: row.source })
          .onConflict((oc) => oc.columns(['instance_id', 'email']).doNothing())
          .execute()
      })
    },
  }
}
export type FormRepository = ReturnType<typeof formRepository>
