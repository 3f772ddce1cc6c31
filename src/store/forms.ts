import type { Insertable } from 'kysely'
import type { Database } from './database.ts'
import type { Tables } from './tables.ts'
import { compiled } from './write-plan.ts'

export function formRepository({ db, write }: Database) {
  return {
    async insertContactMessage(row: Insertable<Tables['contact_messages']>): Promise<void> {
      await db.insertInto('contact_messages').values(row).execute()
    },

    /**
     * Keeps the sign-up as a consent record and, unless it is spam, subscribes the address;
     * an address already subscribed keeps its first consent.
     */
    async recordNewsletterSignup(row: Insertable<Tables['newsletter_signups']>): Promise<void> {
      await write(function* () {
        yield* compiled(db.insertInto('newsletter_signups').values(row))
        if (row.spam) return
        yield* compiled(db.insertInto('newsletter_subscribers')
          .values({ instance_id: row.instance_id, email: row.email, name: row.name ?? null, consented_at: row.consented_at, source: row.source })
          .onConflict((oc) => oc.columns(['instance_id', 'email']).doNothing()))
      })
    },
  }
}
export type FormRepository = ReturnType<typeof formRepository>
