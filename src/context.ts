import { loadCatalog, type Instance } from './config/catalog.ts'
import type { DatabaseTarget, Settings } from './config/env.ts'
import type { Clock } from './domain/clock.ts'
import { MemoryBuckets, type RateLimiter } from './http/rate-limit.ts'
import { RedisBuckets } from './http/redis-buckets.ts'
import { bookingService, type BookingService } from './services/bookings.ts'
import { buildInstanceCatalog, type InstanceCatalog } from './services/instance-catalog.ts'
import { departureService, type DepartureService } from './services/departures.ts'
import { operatorBookingService, type OperatorBookingService } from './services/operator-bookings.ts'
import { staffAuth, type StaffAuth } from './services/staff-auth.ts'
import { loadServerSecret } from './store/secrets.ts'
import { openStore, type Store } from './store/store.ts'

/**
 * Everything the service is built from, made in one place (the composition root): the
 * server, the CLI, the tests, the bench and the drills all build it with openContext.
 */
export interface AppContext {
  store: Store
  clock: Clock
  /** By instance prefix. */
  catalogs: Map<string, InstanceCatalog>
  secret: string
  /** Guests' bookings, addressed by session. */
  bookings: BookingService
  /** Operators' bookings, addressed by code or id. */
  operatorBookings: OperatorBookingService
  departures: DepartureService
  staff: StaffAuth
  /** null when TOURDESK_RATE_LIMITS=off. */
  rateLimiter: RateLimiter | null
}

export interface ContextOptions {
  database: DatabaseTarget
  instances: Instance[]
  clock: Clock
  rateLimiter?: RateLimiter | null
  /** Apply pending migrations first (default true). */
  migrate?: boolean
  /** TOURDESK_SECRET; when null, the one kept in the database. */
  secret?: string | null
}

export interface ContextLog {
  warn(details: object, message: string): void
}

/** Opens the database and wires every service to it. */
export async function openContext(options: ContextOptions): Promise<AppContext> {
  const store = await openStore(options.database, { migrate: options.migrate ?? true })
  try {
    const secret = options.secret ?? await loadServerSecret(store.db, 'csrf')
    return {
      store,
      clock: options.clock,
      catalogs: new Map(options.instances.map((i) => [i.prefix, buildInstanceCatalog(i)])),
      secret,
      bookings: bookingService(store),
      operatorBookings: operatorBookingService(store),
      departures: departureService(store),
      staff: staffAuth(store, secret),
      rateLimiter: options.rateLimiter ?? null,
    }
  } catch (err) {
    await store.close()
    throw err
  }
}

export async function closeContext(context: AppContext): Promise<void> {
  await context.rateLimiter?.close()
  await context.store.close()
}

function rateLimiterFor(settings: Settings, log: ContextLog): RateLimiter | null {
  if (!settings.rateLimits) return null
  if (settings.redisUrl === null) return new MemoryBuckets()
  return new RedisBuckets(settings.redisUrl, { onError: (err) => log.warn({ err }, 'rate limits: Redis unreachable, letting requests through') })
}

/** The context the settings describe (environment variables and the catalog file). */
export async function createContext(settings: Settings, clock: Clock, log: ContextLog): Promise<AppContext> {
  return openContext({
    database: settings.database,
    instances: loadCatalog(settings.catalogPath, settings.holdSecondsOverride),
    clock,
    rateLimiter: rateLimiterFor(settings, log),
    migrate: settings.migrateOnStart,
    secret: settings.secret,
  })
}
