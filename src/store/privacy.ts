import { sql } from 'kysely'
import type { Temporal } from 'temporal-polyfill'
import { ERASED, ERASED_NOTES } from '../domain/erasure.ts'
import { toStoredInstant } from '../domain/instant-format.ts'
import type { Database, Db } from './database.ts'
import { containsAddress, deleteEmailsAbout, scrubAuditEntries, scrubEvents } from './personal-copies.ts'
import { compiled, type Plan } from './write-plan.ts'

/** Contact messages are kept this long; quarantined (spam) submissions a shorter time. */
export const RETENTION = { contactMessageDays: 365, spamDays: 30 }

const sameEmail = (email: string) => sql<boolean>`lower(email) = ${email.trim().toLowerCase()}`

/** Everything stored about one person (by email) in one instance, for a privacy request. */
export async function exportPersonalData(db: Db, instanceId: string, email: string) {
  const [contactMessages, newsletterSignups, newsletterSubscriptions, bookings, storedAnswers, emails] = await Promise.all([
    db.selectFrom('contact_messages').selectAll().where('instance_id', '=', instanceId).where(sameEmail(email)).orderBy('received_at').execute(),
    db.selectFrom('newsletter_signups').selectAll().where('instance_id', '=', instanceId).where(sameEmail(email)).orderBy('consented_at').execute(),
    db.selectFrom('newsletter_subscribers').selectAll().where('instance_id', '=', instanceId).where(sameEmail(email)).execute(),
    db.selectFrom('bookings').selectAll().where('instance_id', '=', instanceId)
      .where(sql<boolean>`lower(contact_email) = ${email.trim().toLowerCase()}`).orderBy('created_at').execute(),
    db.selectFrom('idempotency_keys').selectAll().where('instance_id', '=', instanceId).where(keptAnswersAbout(db, instanceId, email))
      .orderBy('created_at').execute(),
    // Recipients are kept lower-cased (src/store/emails.ts).
    db.selectFrom('emails').selectAll().where('instance_id', '=', instanceId).where('recipient', '=', email.trim().toLowerCase()).orderBy('created_at').orderBy('id').execute(),
  ])
  return { email, contactMessages, newsletterSignups, newsletterSubscriptions, bookings, storedAnswers, emails }
}

/**
 * Stored Idempotency-Key answers about the person: those of the sessions whose bookings carry
 * the address, and any other that repeats it (a booking staff made for them, a change of it).
 */
function keptAnswersAbout(db: Db, instanceId: string, email: string) {
  const sessions = db.selectFrom('bookings').select('session_id').where('instance_id', '=', instanceId)
    .where(sql<boolean>`lower(contact_email) = ${email.trim().toLowerCase()}`)
  return sql<boolean>`(caller in (${sessions}) or lower(body) like ${containsAddress(email.trim().toLowerCase())} escape '\\')`
}

/** What an erasure removed, by kind. */
export interface ErasureCounts {
  contactMessages: number
  newsletterSignups: number
  newsletterSubscriptions: number
  bookingsAnonymised: number
  storedAnswers: number
  emails: number
  operatorEmails: number
  eventsScrubbed: number
  auditEntriesScrubbed: number
}

/**
 * Erases one person's form submissions and subscription, and strips their contact details and
 * the notes about them (internal_note, reseller_notes) from bookings (the bookings themselves
 * stay: seats and the operator's records depend on them)
 * and from every copy kept of them: events, audit entries, emails and kept answers
 * (src/store/personal-copies.ts); a kept answer stays as an empty mark until it expires. A plan, so the caller can write its audit entry in the same
 * transaction.
 */
export function* erasePersonalDataPlan(db: Db, instanceId: string, email: string, at: Temporal.Instant): Plan<ErasureCounts> {
  const address = email.trim().toLowerCase()
  const { rows: booked } = yield* compiled<{ id: string }>(db.selectFrom('bookings').select('id').where('instance_id', '=', instanceId)
    .where(sql<boolean>`lower(contact_email) = ${address}`))
  const messages = yield* compiled(db.deleteFrom('contact_messages').where('instance_id', '=', instanceId).where(sameEmail(email)))
  const signups = yield* compiled(db.deleteFrom('newsletter_signups').where('instance_id', '=', instanceId).where(sameEmail(email)))
  const subscriptions = yield* compiled(db.deleteFrom('newsletter_subscribers').where('instance_id', '=', instanceId).where(sameEmail(email)))
  const events = yield* scrubEvents(instanceId, address)
  // Bookings that carry the address now, and those whose events carried it before a change of contact.
  const bookingIds = [...new Set([...booked.map((b) => b.id), ...events.bookingIds])]
  const auditEntries = yield* scrubAuditEntries(instanceId, address, bookingIds)
  // The emails to the address repeat the contact details in their bodies.
  const emails = yield* compiled(db.deleteFrom('emails').where('instance_id', '=', instanceId).where('recipient', '=', address))
  const operatorEmails = yield* deleteEmailsAbout(instanceId, address, events.eventIds, bookingIds)
  // A kept answer loses what it said (and the fingerprint of the request that held the
  // contact) but not that it was given: a retry with its key is refused, not booked again (src/http/idempotency.ts).
  const answers = yield* compiled(db.updateTable('idempotency_keys').set({ fingerprint: ERASED, body: '' })
    .where('instance_id', '=', instanceId).where(keptAnswersAbout(db, instanceId, email)))
  // The contact is a field of the booking like any other: its version grows, so an operator's stale If-Match fails.
  // The notes go with it: the operator's and the reseller's free text is about the guest.
  const bookings = yield* compiled(db.updateTable('bookings')
    .set({ contact_name: ERASED, contact_email: ERASED, contact_phone: null, ...ERASED_NOTES, updated_at: toStoredInstant(at), version: sql<number>`version + 1` })
    .where('instance_id', '=', instanceId)
    .where(sql<boolean>`lower(contact_email) = ${address}`))
  return {
    contactMessages: messages.changes,
    newsletterSignups: signups.changes,
    newsletterSubscriptions: subscriptions.changes,
    bookingsAnonymised: bookings.changes,
    storedAnswers: answers.changes,
    emails: emails.changes,
    operatorEmails,
    eventsScrubbed: events.count,
    auditEntriesScrubbed: auditEntries,
  }
}

/** erasePersonalDataPlan in a transaction of its own. */
export async function erasePersonalData(database: Database, instanceId: string, email: string, at: Temporal.Instant): Promise<ErasureCounts> {
  return database.write(() => erasePersonalDataPlan(database.db, instanceId, email, at))
}

/** Deletes form submissions past their retention (see RETENTION); returns how many went. */
export async function deleteExpiredSubmissions(db: Db, now: Temporal.Instant): Promise<number> {
  const messagesBefore = toStoredInstant(now.subtract({ hours: 24 * RETENTION.contactMessageDays }))
  const spamBefore = toStoredInstant(now.subtract({ hours: 24 * RETENTION.spamDays }))
  const messages = await db.deleteFrom('contact_messages')
    .where((eb) => eb.or([eb('received_at', '<', messagesBefore), eb.and([eb('spam', '=', 1), eb('received_at', '<', spamBefore)])]))
    .executeTakeFirst()
  const signups = await db.deleteFrom('newsletter_signups').where('spam', '=', 1).where('consented_at', '<', spamBefore).executeTakeFirst()
  return Number(messages.numDeletedRows) + Number(signups.numDeletedRows)
}
