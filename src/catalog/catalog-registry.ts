import { toInstance } from './catalog-file.ts'
import type { Store } from '../store/store.ts'
import { buildInstanceCatalog, mergeWrittenTours, type InstanceCatalog } from './instance-catalog.ts'

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
 * reloads only the instances whose version moved, then swaps them in. A reload reads the
 * instance's own fields, policy and promo codes and only the tours written since the version
 * the node holds (every tour when one was deleted since), and builds the next version from
 * the one before. Requests already running keep the version they started with.
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
      const loaded = await this.#load(ref, known)
      if (loaded) next.set(loaded.instance.prefix, loaded)
    }
    this.#byPrefix = next
  }

  /** The instance's version as the database holds it now, built from `known` (the version this node holds) when there is one. */
  async #load(ref: string, known: InstanceCatalog | undefined): Promise<InstanceCatalog | null> {
    const { catalog } = this.#store
    const hold = this.#options.holdSecondsOverride
    // One snapshot: no edit commits halfway through the read, so a version never mixes two
    // edits (a price from one, its add-ons from another), and no edit waits for the read.
    const read = await this.#store.snapshot(() => catalog.readPart(ref, known ? { changedAfter: known.version } : { all: true }))
    if (!read) return null
    if (read.whole) {
      const tourPositions = read.instance.tours.map((tour) => read.positions.get(tour.id)!)
      return buildInstanceCatalog(toInstance(read.instance, hold), read.version, known, tourPositions)
    }
    const { tours, tourPositions } = mergeWrittenTours(known!, read.instance.tours, read.positions)
    return buildInstanceCatalog(toInstance({ ...read.instance, tours }, hold), read.version, known, tourPositions)
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
