import pg from 'pg'
import { CATALOG_CHANNEL } from './catalog.ts'

/** The PostgreSQL notification channel migration 004's triggers send on. */
export const CHANGE_CHANNEL = 'tourdesk_changes'
/** Set (transaction-local) by write plans, whose changes are announced after commit instead of by the triggers (migration 007). */
export const PLAN_TRANSACTION_SETTING = 'tourdesk.plan_transaction'
const RECONNECT_DELAY_MS = 1_000

export interface PostgresChangeListener {
  /**
   * Differs after every commit that touched departures or bookings, made by any node; null
   * while this node is not listening (not yet, or the connection was lost), when no answer
   * read earlier may be reused.
   */
  token(): string | null
  /** Differs after every committed catalog change (any node's); null while not listening, when the catalog must be read to be sure. */
  catalogToken(): string | null
  /**
   * This node's own commits count at once, before their notification comes back. A commit
   * of a write plan is also announced to the other nodes: one notification for all the
   * commits of a moment, sent once the one before it is done.
   */
  noteCommit(announce: boolean): void
  close(): Promise<void>
}

/**
 * Listens on its own connection (LISTEN cannot share a pooled one), opened on first use so
 * that processes which never ask, such as `npm run migrate`, do not hold one. A lost
 * connection is opened again every second; missed notifications cannot be replayed, so the
 * token changes on every reconnection.
 */
export function listenForChanges(url: string, connectTimeoutMs: number, notify: () => Promise<unknown>): PostgresChangeListener {
  let announcing: Promise<void> | null = null
  let announceAgain = false

  function announce(): void {
    if (announcing) {
      announceAgain = true
      return
    }
    // A failed notification is not retried: the other nodes then reuse answers no longer
    // than their 30-second limit, and seats are never decided from a reused answer.
    announcing = notify().then(() => {}, () => {}).finally(() => {
      announcing = null
      if (announceAgain) {
        announceAgain = false
        announce()
      }
    })
  }

  let version = 0
  let catalogVersion = 0
  let listening = false
  let closed = false
  let client: pg.Client | null = null
  let retry: NodeJS.Timeout | null = null

  function lose(lost: pg.Client): void {
    if (client !== lost) return
    client = null
    listening = false
    version++
    lost.end().catch(() => {})
    if (!closed) retry = setTimeout(listen, RECONNECT_DELAY_MS).unref()
  }

  async function listen(): Promise<void> {
    retry = null
    const connection = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs, keepAlive: true })
    client = connection
    connection.on('notification', (message) => {
      if (message.channel === CATALOG_CHANNEL) catalogVersion++
      else version++
    })
    connection.on('error', () => lose(connection))
    connection.on('end', () => lose(connection))
    try {
      await connection.connect()
      await connection.query(`listen ${CHANGE_CHANNEL}; listen ${CATALOG_CHANNEL}`)
      if (client === connection) {
        version++
        catalogVersion++
        listening = true
      }
    } catch {
      lose(connection)
    }
  }

  return {
    token() {
      if (!listening && client === null && retry === null && !closed) void listen()
      return listening ? String(version) : null
    },
    catalogToken() {
      if (!listening && client === null && retry === null && !closed) void listen()
      return listening ? String(catalogVersion) : null
    },
    noteCommit(announceToOthers) {
      version++
      if (announceToOthers) announce()
    },
    async close() {
      closed = true
      if (retry) clearTimeout(retry)
      const open = client
      client = null
      listening = false
      await open?.end().catch(() => {})
    },
  }
}
