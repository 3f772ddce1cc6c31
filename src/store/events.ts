import type { EventType } from '../schemas/event-type.ts'
import type { Database } from './database.ts'
import { newRowId } from './row-id.ts'
import { webhookRepository } from './webhooks.ts'
import { statement, UNUSED, type Plan } from './write-plan.ts'

/** An event as a plan reports it. */
export interface NewEvent {
  instanceId: string
  type: EventType
  /** What it is about: a booking's data is the booking row as the change left it; other subjects' data is their record, as given. */
  subject: { type: 'booking' | 'departure' | 'contact' | 'newsletter', id: string }
  occurredAt: string
  data: Record<string, unknown>
  /** What the emails made from the event need to know and its data does not say (src/notify/email-projection.ts). */
  notice?: EventNotice
}

/** For a booking's event: its status before, whether the guest is to hear of it, why it happened, and which fields a change touched. */
export interface EventNotice {
  from?: string | null
  notifyGuest?: boolean
  cause?: 'departure_cancelled' | 'no_answer_in_time'
  changed?: string[]
  /** For departure.at_risk: the people the minimum counts (its data's seats are seats: an infant on a lap takes none). */
  people?: number
}

export interface EventRow {
  instance_id: string
  /** Commit order within the instance: 1, 2, 3, … with no gaps. */
  seq: number
  id: string
  type: EventType
  occurred_at: string
  subject_type: NewEvent['subject']['type']
  subject_id: string
  data: string
  notice: string | null
}

export interface EventFilter {
  afterSeq: number
  types: readonly EventType[] | null
  limit: number
}

/** How long the feed keeps events (30 days, docs/events-and-webhooks.md, "Events"). */
export const EVENT_RETENTION_DAYS = 30

/**
 * The outbox: events written by the plan that made the change they report (withEvents, at
 * the plan's end). Each instance's events are numbered by one counter row, updated in the
 * same transaction; its row lock is held until commit, so on PostgreSQL the transactions
 * that write events to one instance commit in the order of their numbers, and a reader that
 * has seen number n has seen everything before it (the feed's "commit order").
 */
export function eventRepository(database: Database) {
  const { dialect } = database
  const webhooks = webhookRepository(database)
  return {
    *append(events: readonly NewEvent[]): Plan<void> {
      const byInstance = new Map<string, NewEvent[]>()
      for (const event of events) byInstance.set(event.instanceId, [...byInstance.get(event.instanceId) ?? [], event])
      for (const [instanceId, group] of byInstance) {
        const values = group.map((event) => [`evt_${newRowId().replaceAll('-', '')}`, event.type, event.occurredAt, event.subject.type, event.subject.id,
          JSON.stringify(event.data), event.notice ? JSON.stringify(event.notice) : null])
        if (dialect === 'postgres') {
          // One statement: the counter's row lock, which orders the instance's event-writing
          // transactions, is then held for one round trip and the commit, not three.
          yield* statement(
            `with counter as (
               insert into event_sequences (instance_id, last_seq) values (?, ${group.length})
               on conflict (instance_id) do update set last_seq = event_sequences.last_seq + excluded.last_seq returning last_seq),
             written as (
               insert into events (instance_id, seq, id, type, occurred_at, subject_type, subject_id, data, notice)
               select ?, counter.last_seq - ${group.length} + v.ord, v.id, v.type, v.occurred_at, v.subject_type, v.subject_id, v.data, v.notice
               from counter, (values ${group.map(() => '(?::integer, ?, ?, ?, ?, ?, ?, ?)').join(', ')}) as v(ord, id, type, occurred_at, subject_type, subject_id, data, notice)
               returning instance_id, seq, id, type, occurred_at)
             ${webhooks.fanOutFrom('written')}`,
            [instanceId, instanceId, ...values.flatMap((row, i) => [i + 1, ...row])], UNUSED)
          continue
        }
        const { rows: [{ last_seq }] } = yield* statement<{ last_seq: number }>(
          `insert into event_sequences (instance_id, last_seq) values (?, ?)
           on conflict (instance_id) do update set last_seq = event_sequences.last_seq + excluded.last_seq returning last_seq`,
          [instanceId, group.length])
        const first = Number(last_seq) - group.length + 1
        yield* statement(
          `insert into events (instance_id, seq, id, type, occurred_at, subject_type, subject_id, data, notice) values ${group.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
          values.flatMap((row, i) => [instanceId, first + i, ...row]))
        yield* webhooks.fanOut(instanceId, first, first + group.length - 1)
      }
    },

    /** The number of the event `id`, or null when the feed no longer (or never) had it. */
    *seqOf(instanceId: string, id: string): Plan<number | null> {
      const { rows: [row] } = yield* statement<{ seq: number }>('select seq from events where instance_id = ? and id = ?', [instanceId, id])
      return row ? Number(row.seq) : null
    },

    /** The number of the instance's newest event, 0 before its first. */
    *lastSeq(instanceId: string): Plan<number> {
      const { rows: [row] } = yield* statement<{ last_seq: number }>('select last_seq from event_sequences where instance_id = ?', [instanceId])
      return row ? Number(row.last_seq) : 0
    },

    /** The events of these numbers the feed still holds. */
    *bySeq(instanceId: string, seqs: readonly number[]): Plan<EventRow[]> {
      const { rows } = yield* statement<EventRow>(`select * from events where instance_id = ? and seq in (${seqs.map(() => '?').join(', ')})`, [instanceId, ...seqs])
      return rows
    },

    /** Events after `afterSeq`, in commit order. */
    *list(instanceId: string, filter: EventFilter): Plan<EventRow[]> {
      const types = filter.types === null ? '' : ` and type in (${filter.types.map(() => '?').join(', ')})`
      const { rows } = yield* statement<EventRow>(
        `select * from events where instance_id = ? and seq > ?${types} order by seq limit ?`,
        [instanceId, filter.afterSeq, ...filter.types ?? [], filter.limit])
      return rows.map((row) => ({ ...row, seq: Number(row.seq) }))
    },

    /** Deletes events that occurred before `before` (the 30-day retention); answers how many. */
    *prune(before: string, limit: number): Plan<number> {
      const { changes } = dialect === 'postgres'
        ? yield* statement(`delete from events where ctid in (select ctid from events where occurred_at < ? limit ?)`, [before, limit])
        : yield* statement(`delete from events where rowid in (select rowid from events where occurred_at < ? limit ?)`, [before, limit])
      return changes
    },
  }
}

export type EventRepository = ReturnType<typeof eventRepository>
