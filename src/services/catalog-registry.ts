import { toInstance } from '../config/catalog.ts'
import type { Store } from '../store/store.ts'
import { buildInstanceCatalog, type InstanceCatalog } from './instance-catalog.ts'

/** How often a node asks whether the catalog changed; an edit reaches every node well within 2 s. */
const CHECK_INTERVAL_MS = 250
/** While changes cannot be told (PostgreSQL's listening connection is down), how often the versions are read anyway. */
const BLIND_CHECK_INTERVAL_MS = 1_000

export interface CatalogRegistryOptions {
  /** TOURDESK_HOLD_SECONDS, which overrides every instance's hold_minutes. */
  holdSecondsOverride: number | null
  onError?(error: unknown): void
}

/**
 * The catalogs this node serves, one immutable version per instance, by prefix. A version
 * moves when the instance's catalog_version in the database does: a node notices through the
 * database's catalog token (PostgreSQL: the LISTEN connection; SQLite: data_version) and
 * reloads only the instances whose version moved, then swaps them in. Requests already
 * running keep the version they started with.
 */
export class CatalogRegistry {
  #byPrefix = new Map<string, InstanceCatalog>()
  #store: Store
  #options: CatalogRegistryOptions
  #seenToken: string | null = null
  #lastReadMs = 0
  #refreshing: Promise<void> | null = null
  #timer: NodeJS.Timeout | null = null

  constructor(store: Store, options: CatalogRegistryOptions) {
    this.#store = store
    this.#options = options
  }

  get(prefix: string): InstanceCatalog | undefined {
    return this.#byPrefix.get(prefix)
  }

  byRef(ref: string): InstanceCatalog | undefined {
    for (const catalog of this.#byPrefix.values()) if (catalog.instance.ref === ref) return catalog
    return undefined
  }

  values(): IterableIterator<InstanceCatalog> {
    return this.#byPrefix.values()
  }

  keys(): IterableIterator<string> {
    return this.#byPrefix.keys()
  }

  get size(): number {
    return this.#byPrefix.size
  }

  /** Reads the catalog versions and reloads the instances whose version moved (one refresh at a time). */
  refresh(): Promise<void> {
    if (this.#refreshing) return this.#refreshing.then(() => this.refresh())
    this.#refreshing = this.#reload().finally(() => { this.#refreshing = null })
    return this.#refreshing
  }

  async #reload(): Promise<void> {
    this.#seenToken = this.#store.catalogToken()
    this.#lastReadMs = Date.now()
    const { catalog } = this.#store
    const versions = await this.#store.read(() => catalog.versions())
    const current = new Map([...this.#byPrefix.values()].map((c) => [c.instance.ref, c]))
    const next = new Map<string, InstanceCatalog>()
    for (const { instance_id: ref, catalog_version: version } of versions) {
      const known = current.get(ref)
      if (known && known.version === version) {
        next.set(known.instance.prefix, known)
        continue
      }
      // One transaction, the instance's row shared-locked: no edit commits halfway through the
      // read, so a version never mixes two edits (a price from one, its add-ons from another).
      const read = await this.#store.write(() => catalog.readLocked(ref))
      if (read) next.set(read.instance.prefix, buildInstanceCatalog(toInstance(read.instance, this.#options.holdSecondsOverride), read.version, known))
    }
    this.#byPrefix = next
  }

  /** Checks for changes every CHECK_INTERVAL_MS until close(). */
  watch(): void {
    if (this.#timer) return
    this.#timer = setInterval(() => {
      if (this.#refreshing) return
      const token = this.#store.catalogToken()
      const blind = token === null && Date.now() - this.#lastReadMs >= BLIND_CHECK_INTERVAL_MS
      if (blind || (token !== null && token !== this.#seenToken)) this.refresh().catch((err) => this.#options.onError?.(err))
    }, CHECK_INTERVAL_MS).unref()
  }

  close(): void {
    if (this.#timer) clearInterval(this.#timer)
    this.#timer = null
  }
}
