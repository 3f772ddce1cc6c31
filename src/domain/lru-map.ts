/**
 * A Map that keeps at most `limit` worth of entries, dropping the least recently used first.
 * Each entry counts as 1 unless `sizeOf` says otherwise (bytes, for src/http/kept-answers.ts);
 * an entry bigger than the whole limit is not kept, and drops nothing.
 */
export class LruMap<K, V> {
  readonly #entries = new Map<K, V>()
  readonly #limit: number
  readonly #sizeOf: (value: V) => number
  #size = 0

  constructor(limit: number, sizeOf: (value: V) => number = () => 1) {
    this.#limit = limit
    this.#sizeOf = sizeOf
  }

  /** The most recently used key: asked for again (a poll at many connections), it is already last, and stays put. */
  #newest: K | undefined

  get(key: K): V | undefined {
    const value = this.#entries.get(key)
    if (value !== undefined && key !== this.#newest) {
      this.#entries.delete(key)
      this.#entries.set(key, value)
      this.#newest = key
    }
    return value
  }

  set(key: K, value: V): void {
    const size = this.#sizeOf(value)
    if (size > this.#limit) return
    this.#drop(key)
    this.#entries.set(key, value)
    this.#newest = key
    this.#size += size
    for (const oldest of this.#entries.keys()) {
      if (this.#size <= this.#limit) break
      this.#drop(oldest)
    }
  }

  #drop(key: K): void {
    const value = this.#entries.get(key)
    if (value === undefined) return
    this.#entries.delete(key)
    this.#size -= this.#sizeOf(value)
  }
}
