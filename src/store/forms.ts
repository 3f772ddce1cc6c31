import type { Insertable } from 'kysely'
import type { Database } from './database.ts'
import type { Tables } from './tables.ts'
import { compiled, emit } from './write-plan.ts'

export function formRepository({ db, write }: Database) {
  return {
    /** Keeps the message; one that is not spam is reported (contact.received) in the same transaction. */
    async insertContactMessage(row: Insertable<Tables['contact_messages']>): Promise<void> {
      await write(function* () {
        yield* compiled(db.insertInto('contact_messages').values(row))
        if (row.spam) return
        const { spam: _spam, session_id: _session, ...message } = row
        yield* emit({ instanceId: row.instance_id, type: 'contact.received', subject: { type: 'contact', id: row.id }, occurredAt: row.received_at, data: message })
      })
    },

    /**
     * Keeps the sign-up as a consent record and, unless it is spam, subscribes the address
     * (newsletter.subscribed, for an address not subscribed before); an address already
     * subscribed keeps its first consent.
     */
    async recordNewsletterSignup(row: Insertable<Tables['newsletter_signups']>): Promise<void> {
      await write(function* () {
        yield* compiled(db.insertInto('newsletter_signups').values(row))
        if (row.spam) return
        const subscriber = { instance_id: row.instance_id, email: row.email, name: row.name ?? null, consented_at: row.consented_at, source: row.source }
        const { changes } = yield* compiled(db.insertInto('newsletter_subscribers').values(subscriber)
          .onConflict((oc) => oc.columns(['instance_id', 'email']).doNothing()))
        if (changes === 0) return
        const { instance_id: _instance, ...data } = subscriber
        yield* emit({ instanceId: row.instance_id, type: 'newsletter.subscribed', subject: { type: 'newsletter', id: row.email }, occurredAt: row.consented_at, data })
      })
    },
  }
}
export type FormRepository = ReturnType<typeof formRepository>
