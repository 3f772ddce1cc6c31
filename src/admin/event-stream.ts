import type { Clock } from '../domain/clock.ts'
import { ApiError } from '../errors/api-error.ts'
import type { EventRow } from '../store/events.ts'
import type { EventFeed } from '../services/event-feed.ts'

/** One open stream: where it stands in its instance's feed, and how to hand it what comes next. */
export interface StreamSubscriber {
  instanceId: string
  /** The seq of the last event it was sent. */
  afterSeq: number
  /** The credential it was opened with (a staff session or an API key): streams of one credential share each recheck. */
  credential: string
  /** Whose credential it is (a staff member or an API key): the cap counts their streams together, whichever session opened them. */
  holder: string
  /** Reads the credential again from the database: false once it may no longer read the feed. */
  mayStillRead(): Promise<boolean>
  /** Writes one message; false once the socket holds more than it takes at once (then `drained` says when it has room). */
  write(message: Buffer): boolean
  end(): void
  /** Closes the connection at once, dropping what the socket still holds. */
  drop(): void
}

export const STREAM_POLL_MS = 500
/**
 * Each stream's credential is read again at least this often, and before any event is sent
 * to it, so a sign-out, a disabled account, a demotion, a revoked key or an expired session
 * ends the stream within seconds, whichever node made the change.
 */
export const STREAM_RECHECK_MS = 2_000
/**
 * Open streams a node serves, and one staff member or API key may hold: every stream costs
 * a socket and a share of each poll, and `npm run bench -- --only streams` holds a node
 * with all its streams stalled under its memory target.
 */
export const STREAM_LIMITS = { perNode: 200, perCredential: 10 }
/** A stream whose socket stays full this long (by the injected clock) is closed; its reader reconnects with Last-Event-ID. */
export const STREAM_BEHIND_LIMIT_MS = 30_000
/**
 * Events read at once for one feed position. Small, because stalled streams soon sit at
 * different positions and each drained socket costs one read: 200 rows of 15 kB contact
 * messages made every drain hold about 3 MB (`npm run bench -- --only streams`). A reader
 * that takes a whole batch is polled again at once, so catching up stays as fast.
 */
const BATCH = 20

interface StreamState {
  /** When (performance.now) its credential was last found good. */
  checkedAt: number
  /** Since when (epoch ms of the injected clock) its socket has been full; null while it takes what it is sent. */
  behindSince: number | null
}

/**
 * Follows the event feed for every stream open on this node with one poller: every 500 ms,
 * one query per instance and position (streams that are caught up share one), and each
 * stream gets the events after its own position. Events are written in the transaction of
 * their change and numbered in commit order, so following the numbers misses none, whichever
 * node made them. Each event is rendered once for all the streams it goes to, and a stream
 * is written only while its socket has room: one whose reader does not keep up is skipped
 * (the feed is not read for it) until its socket drains, and closed if it never does, so a
 * reader that stalls costs the node a socket's buffer, not the feed.
 */
export class EventStreamHub {
  readonly #subscribers = new Map<StreamSubscriber, StreamState>()
  #timer: NodeJS.Timeout | null = null
  #polling = false
  /** A socket drained while a poll ran: poll again as soon as it ends. */
  #pollAgain = false

  constructor(
    private readonly feed: Pick<EventFeed, 'list'>,
    private readonly clock: Clock,
    /** One event as a server-sent message. */
    private readonly render: (instanceId: string, row: EventRow) => string,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Starts following the feed for a stream, unless the node or the credential's holder already has all the streams it may (429 too_many_streams). */
  add(subscriber: StreamSubscriber): void {
    if (this.#subscribers.size >= STREAM_LIMITS.perNode) {
      throw new ApiError('too_many_streams', `This node already serves ${STREAM_LIMITS.perNode} event streams; try again later or read GET /events`)
    }
    const held = [...this.#subscribers.keys()].filter((s) => s.holder === subscriber.holder).length
    if (held >= STREAM_LIMITS.perCredential) {
      throw new ApiError('too_many_streams', `You already have ${STREAM_LIMITS.perCredential} event streams open; close one first`)
    }
    this.#subscribers.set(subscriber, { checkedAt: performance.now(), behindSince: null })
    this.#timer ??= setInterval(() => void this.#poll(), STREAM_POLL_MS)
  }

  remove(subscriber: StreamSubscriber): void {
    this.#subscribers.delete(subscriber)
    if (this.#subscribers.size === 0 && this.#timer) {
      clearInterval(this.#timer)
      this.#timer = null
    }
  }

  /** The stream's socket has room again: it is written at once, so a reader catching up goes at the speed it reads. */
  drained(subscriber: StreamSubscriber): void {
    const state = this.#subscribers.get(subscriber)
    if (!state) return
    state.behindSince = null
    if (this.#polling) this.#pollAgain = true
    else setImmediate(() => void this.#poll())
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
      this.#dropStalled()
      const checkDue = this.#credentialChecks()
      const due = performance.now() - STREAM_RECHECK_MS
      for (const [subscriber, state] of [...this.#subscribers]) if (state.checkedAt <= due) await checkDue(subscriber)

      const positions = new Map<string, StreamSubscriber[]>()
      for (const [subscriber, state] of this.#subscribers) {
        if (state.behindSince !== null) continue
        const key = `${subscriber.instanceId} ${subscriber.afterSeq}`
        positions.set(key, [...positions.get(key) ?? [], subscriber])
      }
      for (const group of positions.values()) {
        const { instanceId, afterSeq } = group[0]
        const rows = await this.feed.list(instanceId, { afterSeq, types: null, limit: BATCH })
        if (rows.length === 0) continue
        // Read after the rows, so a credential revoked before an event committed never sees it.
        const allowed = this.#credentialChecks()
        // Rendered once for the group, and only as far as some socket takes them.
        const messages: Buffer[] = []
        const message = (i: number) => messages[i] ??= Buffer.from(this.render(instanceId, rows[i]))
        for (const subscriber of group) {
          if (!this.#subscribers.has(subscriber) || !await allowed(subscriber)) continue
          const tookAll = this.#deliver(subscriber, rows, message)
          if (tookAll && rows.length === BATCH) this.#pollAgain = true
        }
      }
    } catch (err) {
      this.onError(err)
    } finally {
      this.#polling = false
      if (this.#pollAgain) {
        this.#pollAgain = false
        setImmediate(() => void this.#poll())
      }
    }
  }

  /**
   * Writes the messages in order while the socket takes them; the stream's position follows
   * what was written. True when the socket still has room after the last one.
   */
  #deliver(subscriber: StreamSubscriber, rows: EventRow[], message: (i: number) => Buffer): boolean {
    for (let i = 0; i < rows.length; i++) {
      const room = subscriber.write(message(i))
      subscriber.afterSeq = rows[i].seq
      if (!room) {
        this.#subscribers.get(subscriber)!.behindSince = this.clock.now().epochMilliseconds
        return false
      }
    }
    return true
  }

  #dropStalled(): void {
    const now = this.clock.now().epochMilliseconds
    for (const [subscriber, state] of [...this.#subscribers]) {
      if (state.behindSince === null || now - state.behindSince < STREAM_BEHIND_LIMIT_MS) continue
      this.remove(subscriber)
      subscriber.drop()
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
