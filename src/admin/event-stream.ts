import type { Store } from '../store/store.ts'
import type { EventRow } from '../store/events.ts'

/** One open stream: where it stands in its instance's feed, and how to hand it what comes next. */
export interface StreamSubscriber {
  instanceId: string
  /** The seq of the last event it was sent. */
  afterSeq: number
  /** The credential it was opened with (a staff session or an API key): streams of one credential share each recheck. */
  credential: string
  /** Reads the credential again from the database: false once it may no longer read the feed. */
  mayStillRead(): Promise<boolean>
  send(rows: EventRow[]): void
  end(): void
}

export const STREAM_POLL_MS = 500
/**
 * Each stream's credential is read again at least this often, and before any event is sent
 * to it, so a sign-out, a disabled account, a demotion, a revoked key or an expired session
 * ends the stream within seconds, whichever node made the change.
 */
export const STREAM_RECHECK_MS = 2_000
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
  /** Each stream, with when (performance.now) its credential was last found good. */
  readonly #subscribers = new Map<StreamSubscriber, { checkedAt: number }>()
  #timer: NodeJS.Timeout | null = null
  #polling = false

  constructor(private readonly store: Store, private readonly onError: (err: unknown) => void) {}

  add(subscriber: StreamSubscriber): void {
    this.#subscribers.set(subscriber, { checkedAt: performance.now() })
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
    for (const subscriber of [...this.#subscribers.keys()]) this.#end(subscriber)
  }

  #end(subscriber: StreamSubscriber): void {
    this.remove(subscriber)
    subscriber.end()
  }

  async #poll(): Promise<void> {
    if (this.#polling) return
    this.#polling = true
    try {
      const checkDue = this.#credentialChecks()
      const due = performance.now() - STREAM_RECHECK_MS
      for (const [subscriber, state] of [...this.#subscribers]) if (state.checkedAt <= due) await checkDue(subscriber)

      const positions = new Map<string, StreamSubscriber[]>()
      for (const subscriber of this.#subscribers.keys()) {
        const key = `${subscriber.instanceId} ${subscriber.afterSeq}`
        positions.set(key, [...positions.get(key) ?? [], subscriber])
      }
      for (const group of positions.values()) {
        const { instanceId, afterSeq } = group[0]
        const rows = await this.store.read(() => this.store.events.list(instanceId, { afterSeq, types: null, limit: BATCH }))
        if (rows.length === 0) continue
        // Read after the rows, so a credential revoked before an event committed never sees it.
        const allowed = this.#credentialChecks()
        for (const subscriber of group) {
          if (!this.#subscribers.has(subscriber) || !await allowed(subscriber)) continue
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

  /**
   * This tick's credential check: one read per credential however many streams it has open;
   * a stream whose credential no longer reads the feed is ended.
   */
  #credentialChecks(): (subscriber: StreamSubscriber) => Promise<boolean> {
    const reads = new Map<string, Promise<boolean>>()
    return async (subscriber) => {
      let read = reads.get(subscriber.credential)
      if (!read) reads.set(subscriber.credential, read = subscriber.mayStillRead())
      const ok = await read
      const state = this.#subscribers.get(subscriber)
      if (!state) return false
      if (!ok) this.#end(subscriber)
      else state.checkedAt = performance.now()
      return ok
    }
  }
}
