import type { Temporal } from 'temporal-polyfill'
import { LruMap } from '../domain/lru-map.ts'
import type { Availability } from '../schemas/availability.ts'
import type { Store } from '../store/store.ts'
import { readAvailability, type AvailabilityWindow } from './availability.ts'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'

/** Bytes of answers kept by default: about a thousand guest windows of a few KB each. */
const KEPT_BYTES = 8 * 1024 * 1024
/**
 * However quiet the database, an answer is read again after this long: the most stale an
 * answer can be if a change notification were ever lost on a connection that stays up.
 */
const MAX_KEEP_MS = 30_000

interface KeptAnswer {
  body: Buffer
  changeToken: string
  readAtMs: number
  validUntilMs: number
}

/**
 * Serialized availability answers, reused while nothing that changes them has happened:
 * the catalog version is the same, no commit touched seats, holds or departures (the
 * store's change token is the same) and no cutoff, start or hold lapse in the window has come. A busy tour page is read far
 * more often than it is booked, and reading and formatting a window costs much more than
 * sending it.
 */
export class AvailabilityAnswers {
  readonly #kept: LruMap<string, KeptAnswer>
  /**
   * Reads in progress, by change token and key: after a commit (a hold, a catalog edit) every
   * reader of a busy window misses at once, and they wait for the first one's read instead of
   * each reading the same window (on PostgreSQL, fifty readers would queue on the pool).
   */
  readonly #reading = new Map<string, Promise<KeptAnswer>>()
  readonly #store: Store
  readonly #reuse: boolean

  constructor(store: Store, reuse: boolean, budgetBytes = KEPT_BYTES) {
    this.#store = store
    this.#reuse = reuse
    this.#kept = new LruMap(budgetBytes, (answer) => answer.body.length)
  }

  /**
   * The window's answer as `serialize` writes it. `shape` names everything besides the window
   * that the serialized body depends on (the OCTo surface writes one window in several shapes:
   * a calendar or departures, with or without a reseller's pricing), so two shapes of one
   * window are never confused; the guest availability has one shape and leaves it empty.
   */
  async body(catalog: InstanceCatalog, now: Temporal.Instant, window: AvailabilityWindow,
    serialize: (answer: Availability) => string, shape = ''): Promise<Buffer> {
    const nowMs = now.epochMilliseconds
    // The catalog version is part of the key (with the instance's ref, which unlike its prefix
    // never changes): on another node a catalog edit's commit can move the change token before
    // this node has loaded the new version, and an answer read from the old version under the
    // new token must not outlive that version.
    const key = `${catalog.instance.ref} ${catalog.version} ${window.key} ${shape}`
    // Taken before the read: a commit that lands during the read changes the token, so an
    // answer that may have missed it is not reused.
    const changeToken = this.#reuse ? this.#store.changeToken() : null
    const kept = changeToken === null ? undefined : this.#kept.get(key)
    if (kept && kept.changeToken === changeToken && nowMs >= kept.readAtMs && nowMs < kept.validUntilMs) return kept.body
    if (changeToken === null) return (await this.#read(catalog, now, window, serialize, null)).body

    const flight = `${changeToken} ${key}`
    const joined = this.#reading.get(flight)
    // A read that began before this request, under the same token, holds for it unless a
    // cutoff, start or lapse came in between.
    if (joined) {
      const answer = await joined
      if (nowMs >= answer.readAtMs && nowMs < answer.validUntilMs) return answer.body
    }
    const reading = this.#read(catalog, now, window, serialize, changeToken)
    this.#reading.set(flight, reading)
    try {
      const answer = await reading
      this.#kept.set(key, answer)
      return answer.body
    } finally {
      if (this.#reading.get(flight) === reading) this.#reading.delete(flight)
    }
  }

  async #read(catalog: InstanceCatalog, now: Temporal.Instant, window: AvailabilityWindow,
    serialize: (answer: Availability) => string, changeToken: string | null): Promise<KeptAnswer> {
    const nowMs = now.epochMilliseconds
    const { answer, validUntilMs } = await readAvailability(catalog, this.#store.departures, now, window)
    return { body: Buffer.from(serialize(answer)), changeToken: changeToken ?? '', readAtMs: nowMs, validUntilMs: Math.min(validUntilMs, nowMs + MAX_KEEP_MS) }
  }
}
