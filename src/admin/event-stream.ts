import type { Store } from '../store/store.ts'
import type { EventRow } from '../store/events.ts'

/** One open stream: where it stands in its instance's feed, and how to hand it what comes next. */
export interface StreamSubscriber {
  instanceId: string
  /** The seq of the last event it was sent. */
  afterSeq: number
  send(rows: EventRow[]): void
  end(): void
}

export const STREAM_POLL_MS = 500
/** More than this waiting for one stream is read over several ticks. */
const BATCH = 200

/**
 * Follows the event feed for every stream open on this node with one poller: every 500 ms,
 * one query per instance and position (streams that are caught up share one), and each
 * stream gets the events after its own position. Events are written in the transaction of
 * their change and numbered in commit order, so following the numbers misses none, whichever
 * node made them.
 */
export class EventStreamHub {
  readonly #subscribers = new Set<StreamSubscriber>()
  #timer: NodeJS.Timeout | null = null
  #polling = false

  constructor(private readonly store: Store, private readonly onError: (err: unknown) => void) {}

  add(subscriber: StreamSubscriber): void {
    this.#subscribers.add(subscriber)
    this.#timer ??= setInterval(() => void this.#poll(), STREAM_POLL_MS)
  }

  remove(subscriber: StreamSubscriber): void {
    this.#subscribers.delete(subscriber)
    if (this.#subscribers.size === 0 && this.#timer) {
      clearInterval(this.#timer)
      this.#timer = null
    }
  }

  /** Ends every stream (the server is shutting down; browsers reconnect elsewhere with Last-Event-ID). */
  endAll(): void {
    for (const subscriber of [...this.#subscribers]) {
      this.remove(subscriber)
      subscriber.end()
    }
  }

  async #poll(): Promise<void> {
    if (this.#polling) return
    this.#polling = true
    try {
      const positions = new Map<string, StreamSubscriber[]>()
      for (const subscriber of this.#subscribers) {
        const key = `${subscriber.instanceId} ${subscriber.afterSeq}`
        positions.set(key, [...positions.get(key) ?? [], subscriber])
      }
      for (const group of positions.values()) {
        const { instanceId, afterSeq } = group[0]
        const rows = await this.store.read(() => this.store.events.list(instanceId, { afterSeq, types: null, limit: BATCH }))
        if (rows.length === 0) continue
        for (const subscriber of group) {
          if (!this.#subscribers.has(subscriber)) continue
          subscriber.afterSeq = rows[rows.length - 1].seq
          subscriber.send(rows)
        }
      }
    } catch (err) {
      this.onError(err)
    } finally {
      this.#polling = false
    }
  }
}
