import type { EventFilter, EventRow } from '../store/events.ts'
import type { Store } from '../store/store.ts'

/** The event feed as the operator reads it: GET /events, GET /stream and the hub that follows it (src/admin/event-stream.ts). */
export function eventFeed(store: Store) {
  return {
    /** The number of the event `id`, or null when the feed no longer (or never) had it. */
    seqOf: (instanceRef: string, id: string): Promise<number | null> => store.read(() => store.events.seqOf(instanceRef, id)),
    /** The number of the instance's newest event, 0 before its first. */
    lastSeq: (instanceRef: string): Promise<number> => store.read(() => store.events.lastSeq(instanceRef)),
    /** Events after `filter.afterSeq`, in commit order. */
    list: (instanceRef: string, filter: EventFilter): Promise<EventRow[]> => store.read(() => store.events.list(instanceRef, filter)),
  }
}
export type EventFeed = ReturnType<typeof eventFeed>
