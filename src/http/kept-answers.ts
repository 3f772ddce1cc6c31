/**
 * Serialized answers kept for reuse within a budget of bytes, least recently used dropped
 * first. Keys name everything an answer depends on (an instance's catalog version among
 * them), so an answer of a version no longer served is never asked for again and ages out.
 */
export class KeptAnswers {
  readonly #bodies = new Map<string, Buffer>()
  readonly #budgetBytes: number
  #bytes = 0

  constructor(budgetBytes: number) {
    this.#budgetBytes = budgetBytes
  }

  get(key: string): Buffer | undefined {
    const body = this.#bodies.get(key)
    if (body !== undefined) {
      this.#bodies.delete(key)
      this.#bodies.set(key, body)
    }
    return body
  }

  /** Keeps `body` unless it alone is over the budget. */
  set(key: string, body: Buffer): void {
    if (body.length > this.#budgetBytes) return
    this.#drop(key)
    this.#bodies.set(key, body)
    this.#bytes += body.length
    for (const oldest of this.#bodies.keys()) {
      if (this.#bytes <= this.#budgetBytes) break
      this.#drop(oldest)
    }
  }

  #drop(key: string): void {
    const body = this.#bodies.get(key)
    if (body === undefined) return
    this.#bodies.delete(key)
    this.#bytes -= body.length
  }
}
