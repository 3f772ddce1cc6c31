import type { Insertable, Selectable } from 'kysely'
import type { Database } from './database.ts'
import type { Tables } from './tables.ts'
import { compiled, emit, type Plan } from './write-plan.ts'

export function formRepository({ db, write }: Database) {
  function* subscribe(subscriber: Tables['newsletter_subscribers']): Plan<void> {
    const { changes } = yield* compiled(db.insertInto('newsletter_subscribers').values(subscriber)
      .onConflict((oc) => oc.columns(['instance_id', 'email']).doNothing()))
    if (changes === 0) return
    const { instance_id: instanceId, ...data } = subscriber
    yield* emit({ instanceId, type: 'newsletter.subscribed', subject: { type: 'newsletter', id: subscriber.email }, occurredAt: subscriber.consented_at, data })
  }

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
     * subscribed keeps its first consent. With `confirmation` (double opt-in), the address is
     * not subscribed yet: the confirmation email is kept in the same transaction instead,
     * unless the address is subscribed already.
     */
    async recordNewsletterSignup(row: Insertable<Tables['newsletter_signups']>, confirmation: (() => Plan<void>) | null): Promise<void> {
      await write(function* () {
        yield* compiled(db.insertInto('newsletter_signups').values(row))
        if (row.spam) return
        if (confirmation) {
          const { rows } = yield* compiled(db.selectFrom('newsletter_subscribers').select('email').where('instance_id', '=', row.instance_id).where('email', '=', row.email))
          if (rows.length === 0) yield* confirmation()
          return
        }
        yield* subscribe({ instance_id: row.instance_id, email: row.email, name: row.name ?? null, consented_at: row.consented_at, source: row.source })
      })
    },

    /** Subscribes the address of a sign-up whose confirmation link was opened at `at`; false when the sign-up is gone (erased, or never made). */
    async confirmNewsletterSignup(instanceId: string, signupId: string, at: string): Promise<boolean> {
      return write(function* () {
        const { rows: [signup] } = yield* compiled<Selectable<Tables['newsletter_signups']>>(
          db.selectFrom('newsletter_signups').selectAll().where('instance_id', '=', instanceId).where('id', '=', signupId).where('spam', '=', 0))
        if (!signup) return false
        yield* subscribe({ instance_id: instanceId, email: signup.email, name: signup.name, consented_at: at, source: signup.source })
        return true
      })
    },
  }
}
export type FormRepository = ReturnType<typeof formRepository>
