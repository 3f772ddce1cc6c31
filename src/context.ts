import { loadCatalog } from './config/catalog.ts'
import type { Settings } from './config/env.ts'
import type { Clock } from './domain/clock.ts'
import type { AppContext } from './http/request-context.ts'
import { MemoryBuckets } from './http/rate-limit.ts'
import { bookingService } from './services/bookings.ts'
import { buildInstanceCatalog } from './services/instance-catalog.ts'
import { loadServerSecret } from './store/secrets.ts'
import { openStore } from './store/store.ts'

/** Opens the database and loads the catalog: everything the app is built from. */
export async function createContext(settings: Settings, clock: Clock): Promise<AppContext> {
  const instances = loadCatalog(settings.catalogPath, settings.holdSecondsOverride)
  const store = await openStore(settings.database)
  return {
    store,
    clock,
    catalogs: new Map(instances.map((i) => [i.prefix, buildInstanceCatalog(i)])),
    secret: settings.secret ?? await loadServerSecret(store.db, 'csrf'),
    bookings: bookingService(store),
    rateLimiter: settings.rateLimits ? new MemoryBuckets() : null,
  }
}
