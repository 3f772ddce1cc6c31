import type { Selectable } from 'kysely'
import { ERASED } from '../domain/erasure.ts'
import { EMAIL_CAP_GROUP, type EmailKind } from '../schemas/admin/email.ts'
import type { Database } from './database.ts'
import { newRowId } from './row-id.ts'
import type { Tables } from './tables.ts'
import { statement, type Plan } from './write-plan.ts'
import type { BookingRecord } from '../domain/booking.ts'

export type EmailRow = Selectable<Tables['emails']>
export type EmailState = 'queued' | 'sent' | 'failed' | 'not_sent'

/** A message to keep (and send, when it may go). */
export interface NewEmail {
  instanceId: string
  kind: EmailKind
  recipient: string
  bookingId: string | null
  /** Set for a message that must be made once only: a second one with the same key is dropped. */
  dedupeKey: string | null
  subject: string
  text: string
  html: string
  calendar: string | null
}

export interface EnqueueRules {
  now: string
  /** Created before this, a message no longer counts towards its recipient's hourly cap. */
  hourAgo: string
  /** emails_per_recipient_per_hour, for each group of EMAIL_CAP_GROUP (src/schemas/admin/email.ts). */
  cap: number
  /** false without SMTP_URL: every message is kept as not_sent. */
  canSend: boolean
}

export interface EmailFilter {
  recipient: string | null
  bookingId: string | null
  /** The (created_at, id) of the last message of the page before. */
  before: [string, string] | null
  limit: number
}

/** A message this node claimed for sending, with the lease the outcome is written under. */
export type ClaimedEmail = EmailRow & { lease_until: string }

export type SendOutcome =
  | { kind: 'sent', at: string }
  | { kind: 'retry', next_attempt_at: string, error: string }
  | { kind: 'failed', error: string }

/** States that count towards the per-recipient cap: the messages that went, or were meant to go. */
const COUNTED_STATES = `('queued', 'sent', 'failed')`

/** The kinds counted together with `kind` towards its recipient's cap, as SQL values; null for a kind never capped. */
const KINDS_COUNTED_WITH = new Map(Object.entries(EMAIL_CAP_GROUP).map(([kind, group]) => [kind, group === null ? null
  : `(${Object.entries(EMAIL_CAP_GROUP).filter(([, other]) => other === group).map(([k]) => `'${k}'`).join(', ')})`]))

/**
 * Every email the service makes (docs/events-and-webhooks.md, "Email"), kept with its state; the place of the
 * email projection in each instance's events; and the operator's one-click links.
 */
export function emailRepository({ supportsSkipLocked, dialect }: Database) {
  return {
    /**
     * Confirmed bookings starting in (afterAt, untilAt] that have an address and no reminder yet
     * (quarantined and erased ones never get one), soonest first, 500 at a time.
     */
    *remindersDue(instanceId: string, afterAt: string, untilAt: string): Plan<BookingRecord[]> {
      const { rows } = yield* statement<BookingRecord>(
        `select * from bookings b where b.instance_id = ? and b.status = 'confirmed' and b.quarantined = 0 and b.contact_email is not null and b.contact_email <> ?
           and b.start_at > ? and b.start_at <= ?
           and not exists (select 1 from emails e where e.instance_id = b.instance_id and e.dedupe_key = 'reminder:' || b.id || ':' || b.start_at)
         order by b.start_at limit 500`,
        [instanceId, ERASED, afterAt, untilAt])
      return rows
    },

    /**
     * Keeps the messages, each queued, or not_sent when it may not go (no SMTP_URL; its
     * recipient had `cap` messages in the last hour); answers the ones kept (a message whose
     * dedupe key is taken is dropped).
     */
    *enqueue(messages: readonly NewEmail[], rules: EnqueueRules): Plan<EmailRow[]> {
      const kept: EmailRow[] = []
      /** Messages counted towards each recipient's cap of each group in the last hour, read once per recipient and group. */
      const counted = new Map<string, number>()
      const capped = messages.filter((m) => EMAIL_CAP_GROUP[m.kind] !== null)
      if (rules.canSend && dialect === 'postgres' && capped.length > 0) {
        // Under READ COMMITTED two transactions would each count the other's messages out and
        // both go past the cap: each recipient's count-and-insert is made one at a time. The
        // locks are taken in one order, so two batches naming the same recipients cannot deadlock;
        // one statement takes them all, not a round trip each.
        const keys = [...new Set(capped.map((m) => `email-cap ${m.instanceId} ${m.recipient.trim().toLowerCase()}`))].sort()
        yield* statement(
          `select count(*) as locked from (select pg_advisory_xact_lock(hashtextextended(key, 0))
             from unnest(?::text[]) with ordinality as k(key, n) order by n) as held`,
          [keys])
      }
      for (const message of messages) {
        const recipient = message.recipient.trim().toLowerCase()
        const countedKinds = KINDS_COUNTED_WITH.get(message.kind)!
        const key = `${message.instanceId} ${recipient} ${EMAIL_CAP_GROUP[message.kind]}`
        let state: EmailState = 'queued'
        let reason: string | null = null
        if (!rules.canSend) {
          state = 'not_sent'
          reason = 'no_smtp'
        } else if (countedKinds !== null) {
          if (!counted.has(key)) {
            const { rows: [{ n }] } = yield* statement<{ n: number }>(
              `select count(*) as n from emails where instance_id = ? and recipient = ? and created_at > ? and state in ${COUNTED_STATES} and kind in ${countedKinds}`,
              [message.instanceId, recipient, rules.hourAgo])
            counted.set(key, Number(n))
          }
          if (counted.get(key)! >= rules.cap) {
            state = 'not_sent'
            reason = 'recipient_cap'
          }
        }
        const row: EmailRow = {
          instance_id: message.instanceId, id: `eml_${newRowId().replaceAll('-', '')}`, kind: message.kind, recipient, booking_id: message.bookingId,
          dedupe_key: message.dedupeKey, subject: message.subject, text_body: message.text, html_body: message.html, calendar: message.calendar,
          state, state_reason: reason, attempts: 0, next_attempt_at: rules.now, lease_until: null, created_at: rules.now, sent_at: null,
        }
        const columns = Object.keys(row) as (keyof EmailRow)[]
        const { changes } = yield* statement(
          `insert into emails (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')}) on conflict (instance_id, dedupe_key) do nothing`,
          columns.map((c) => row[c]))
        if (changes === 1) {
          kept.push(row)
          if (state === 'queued' && counted.has(key)) counted.set(key, counted.get(key)! + 1)
        }
      }
      return kept
    },

    /** The last event of the instance made into messages; null before the projection's first run there. */
    *cursor(instanceId: string): Plan<number | null> {
      const { rows: [row] } = yield* statement<{ last_seq: number }>('select last_seq from email_cursors where instance_id = ?', [instanceId])
      return row ? Number(row.last_seq) : null
    },

    /** Whether the instance has events the projection has not read: one read, so an idle node writes nothing. */
    *behind(instanceId: string): Plan<boolean> {
      const { rows } = yield* statement(
        `select 1 as behind from event_sequences s left join email_cursors c on c.instance_id = s.instance_id
         where s.instance_id = ? and (c.last_seq is null or c.last_seq < s.last_seq)`, [instanceId])
      return rows.length > 0
    },

    /** Whether any message is due for sending: one read, so an idle node writes nothing. */
    *anyDue(now: string): Plan<boolean> {
      const { rows } = yield* statement(`select 1 as due from emails where state = 'queued' and next_attempt_at <= ? and (lease_until is null or lease_until <= ?) limit 1`, [now, now])
      return rows.length > 0
    },

    /** Moves the cursor from `from` to `to`; false when another node moved it first. */
    *advance(instanceId: string, from: number | null, to: number): Plan<boolean> {
      const { changes } = from === null
        ? yield* statement('insert into email_cursors (instance_id, last_seq) values (?, ?) on conflict (instance_id) do nothing', [instanceId, to])
        : yield* statement('update email_cursors set last_seq = ? where instance_id = ? and last_seq = ?', [to, instanceId, from])
      return changes === 1
    },

    /** Takes up to `limit` queued messages that are due, across instances, by setting their lease. */
    *claim(now: string, leaseUntil: string, limit: number): Plan<ClaimedEmail[]> {
      const { rows } = yield* statement<ClaimedEmail>(
        `update emails set lease_until = ?
         where (instance_id, id) in (
           select instance_id, id from emails
           where state = 'queued' and next_attempt_at <= ? and (lease_until is null or lease_until <= ?)
           order by next_attempt_at, id limit ?${supportsSkipLocked ? ' for update skip locked' : ''})
         returning *`,
        [leaseUntil, now, now, limit])
      // An update's RETURNING has no order: the messages are put back in the order they were made.
      const byAge = (a: ClaimedEmail, b: ClaimedEmail) => (a.next_attempt_at < b.next_attempt_at ? -1 : a.next_attempt_at > b.next_attempt_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
      return rows.map((row) => ({ ...row, attempts: Number(row.attempts) })).sort(byAge)
    },

    /** Writes a sending's outcome while this node still holds the lease it claimed the message with. */
    *record(email: ClaimedEmail, outcome: SendOutcome): Plan<boolean> {
      const [state, next, sentAt, reason] = outcome.kind === 'sent' ? ['sent', email.next_attempt_at, outcome.at, null]
        : outcome.kind === 'retry' ? ['queued', outcome.next_attempt_at, null, outcome.error] : ['failed', email.next_attempt_at, null, outcome.error]
      const { changes } = yield* statement(
        `update emails set state = ?, attempts = attempts + 1, next_attempt_at = ?, sent_at = ?, state_reason = ?, lease_until = null
         where instance_id = ? and id = ? and state = 'queued' and lease_until = ?`,
        [state, next, sentAt, reason, email.instance_id, email.id, email.lease_until])
      return changes === 1
    },

    /** The newest message of the instance that was tried (sent, failed, or waiting after a failure); undefined when none was. */
    *lastAttempted(instanceId: string): Plan<EmailRow | undefined> {
      const { rows } = yield* statement<EmailRow>(
        'select * from emails where instance_id = ? and attempts > 0 order by created_at desc, id desc limit 1', [instanceId])
      return rows[0] && { ...rows[0], attempts: Number(rows[0].attempts) }
    },

    /** The instance's messages, newest first. */
    *list(instanceId: string, filter: EmailFilter): Plan<EmailRow[]> {
      const where = ['instance_id = ?']
      const params: unknown[] = [instanceId]
      if (filter.recipient !== null) {
        where.push('recipient = ?')
        params.push(filter.recipient.trim().toLowerCase())
      }
      if (filter.bookingId !== null) {
        where.push('booking_id = ?')
        params.push(filter.bookingId)
      }
      if (filter.before !== null) {
        where.push('(created_at < ? or (created_at = ? and id < ?))')
        params.push(filter.before[0], filter.before[0], filter.before[1])
      }
      const { rows } = yield* statement<EmailRow>(
        `select * from emails where ${where.join(' and ')} order by created_at desc, id desc limit ?`, [...params, filter.limit])
      return rows.map((row) => ({ ...row, attempts: Number(row.attempts) }))
    },

    /** Deletes messages made before `before` (the log keeps 180 days) and links that ran out before it; answers how many messages. */
    *prune(before: string, limit: number): Plan<number> {
      const { changes } = yield* statement(
        'delete from emails where (instance_id, id) in (select instance_id, id from emails where created_at < ? limit ?)', [before, limit])
      yield* statement('delete from email_action_links where expires_at < ?', [before])
      return changes
    },

    /** Keeps a one-click link of an operator's email; only the token's hash is stored. */
    *addActionLink(link: Tables['email_action_links']): Plan<void> {
      yield* statement(
        'insert into email_action_links (instance_id, token_hash, booking_id, action, recipient, expires_at, used_at) values (?, ?, ?, ?, ?, ?, ?)',
        [link.instance_id, link.token_hash, link.booking_id, link.action, link.recipient, link.expires_at, link.used_at])
    },

    *actionLink(instanceId: string, tokenHash: string): Plan<Tables['email_action_links'] | null> {
      const { rows: [row] } = yield* statement<Tables['email_action_links']>(
        'select * from email_action_links where instance_id = ? and token_hash = ?', [instanceId, tokenHash])
      return row ?? null
    },

    /** Spends the link: true for the one caller that used it while it was unused and unexpired. */
    *useActionLink(instanceId: string, tokenHash: string, now: string): Plan<boolean> {
      const { changes } = yield* statement(
        'update email_action_links set used_at = ? where instance_id = ? and token_hash = ? and used_at is null and expires_at > ?',
        [now, instanceId, tokenHash, now])
      return changes === 1
    },
  }
}

export type EmailRepository = ReturnType<typeof emailRepository>
