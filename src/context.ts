import { loadCatalog } from './config/catalog.ts'
import type { Settings } from './config/env.ts'
import type { Clock } from './domain/clock.ts'
import { MemoryBuckets, type RateLimiter } from './http/rate-limit.ts'
import { RedisBuckets } from './http/redis-buckets.ts'
import type { AppContext } from './http/request-context.ts'
import { bookingService } from './services/bookings.ts'
import { buildInstanceCatalog } from './services/instance-catalog.ts'
import { loadServerSecret } from './store/secrets.ts'
import { openStore } from './store/store.ts'

export interface ContextLog {
  warn(details: object, message: string): void
}

function rateLimiterFor(settings: Settings, log: ContextLog): RateLimiter | null {
  if (!settings.rateLimits) return null
  if (settings.redisUrl === null) return new MemoryBuckets()
  return new RedisBuckets(settings.redisUrl, { onError: (err) => log.warn({ err }, 'rate limits: Redis unreachable, letting requests through') })
}

/** Opens the database and loads the catalog: everything the app is built from. */
export async function createContext(settings: Settings, clock: Clock, log: ContextLog): Promise<AppContext> {
  const instances = loadCatalog(settings.catalogPath, settings.holdSecondsOverride)
  const store = await openStore(settings.database, { migrate: settings.migrateOnStart })
  try {
    return {
      store,
      clock,
      catalogs: new Map(instances.map((i) => [i.prefix, buildInstanceCatalog(i)])),
      secret: settings.secret ?? await loadServerSecret(store.db, 'csrf'),
      bookings: bookingService(store),
      rateLimiter: rateLimiterFor(settings, log),
    }
  } catch (err) {
    await store.close()
    throw err
  }
}
