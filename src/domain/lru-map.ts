/** A Map that keeps at most `limit` entries, dropping the least recently used one first. */
export class LruMap<K, V> {
  readonly #entries = new Map<K, V>()
  readonly #limit: number

  constructor(limit: number) {
    this.#limit = limit
  }

  get(key: K): V | undefined {
    const value = this.#entries.get(key)
    if (value !== undefined) {
      this.#entries.delete(key)
      this.#entries.set(key, value)
    }
    return value
  }

  set(key: K, value: V): void {
    this.#entries.delete(key)
    if (this.#entries.size >= this.#limit) this.#entries.delete(this.#entries.keys().next().value!)
    this.#entries.set(key, value)
  }
}
