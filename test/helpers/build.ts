import { readFileSync } from 'node:fs'
import type { TestContext } from 'node:test'
import { buildApp, type App, type AppOptions } from '../../src/app.ts'
import { parseCatalogFile } from '../../src/catalog/catalog-file.ts'
import { DEMO_CATALOG_PATH } from '../../src/config/env.ts'
import { MemoryBuckets } from '../../src/http/rate-limit.ts'
import { closeContext, openContext, type AppContext, type ContextOptions } from '../../src/context.ts'
import { ApiClient } from './client.ts'
import { contractFor, type ContractChecker } from './contract.ts'
import { migratedDatabase } from './database.ts'
import { ManualClock } from './manual-clock.ts'

export interface BuildOptions {
  /** Catalog file contents; the bundled demo by default. */
  catalog?: unknown
  clock?: ManualClock
  holdSeconds?: number
  /** Rate limits are off unless a test turns them on. */
  rateLimits?: boolean
  /** As TOURDESK_TRUST_PROXY: whose X-Forwarded-For names the client. Off by default. */
  trustProxy?: AppOptions['trustProxy']
  /** As TOURDESK_ADMIN: serve the operator API (default true). */
  admin?: boolean
  /** As TOURDESK_WEBHOOKS_ALLOW_PRIVATE and TOURDESK_WEBHOOK_RETRY_SCHEDULE. */
  webhooks?: ContextOptions['webhooks']
  /** As SMTP_URL and TOURDESK_PUBLIC_URL; the public URL is the service's own origin unless given. */
  email?: ContextOptions['email']
  /** As TOURDESK_REQUEST_LOG, into this logger (the app logs nothing without one). */
  log?: Pick<AppOptions, 'loggerInstance' | 'requestLog'>
  /** What the services log (catalog drift, background work, failed sends); nothing by default. */
  contextLog?: ContextOptions['log']
}

export interface TestService {
  app: App
  context: AppContext
  clock: ManualClock
  origin: string
  contract: ContractChecker
  /** A client for /api/<prefix>, checking every answer against openapi.json. */
  client(prefix?: string): ApiClient
  /** Its database's DATABASE_URL, for a CLI run on the same data. */
  databaseUrl: string
}

export const DEFAULT_NOW = '2026-06-01T08:00:00Z'

export function demoCatalog(): any {
  return JSON.parse(readFileSync(DEMO_CATALOG_PATH, 'utf8'))
}

export interface StartOptions extends BuildOptions {
  /** A PostgreSQL database to make the fresh schema in; TEST_DATABASE_URL (or SQLite when unset) by default. */
  postgresUrl?: string | null
}

/** A started service and the way to stop it and remove its database. */
export interface StartedService extends TestService {
  close(): Promise<void>
}

/**
 * Starts the real app on a fresh database (SQLite, or PostgreSQL under TEST_DATABASE_URL),
 * listening on a free loopback port. The caller closes it: tests use `build`, which does
 * that when the test ends; the fault drills call this directly.
 */
export async function startService(options: StartOptions = {}): Promise<StartedService> {
  const database = await migratedDatabase(options.postgresUrl)
  const clock = options.clock ?? new ManualClock(DEFAULT_NOW)
  const instances = parseCatalogFile(JSON.stringify(options.catalog ?? demoCatalog()), 'test catalog')
  const context = await openContext({
    database: database.target, catalog: instances, holdSecondsOverride: options.holdSeconds ?? null, clock, rateLimiter: options.rateLimits ? new MemoryBuckets() : null, webhooks: options.webhooks,
    email: options.email, log: options.contextLog,
  })
  const app = await buildApp(context, { trustProxy: options.trustProxy, database: database.target, admin: options.admin, ...options.log })
  const close = async () => {
    await app.close()
    await closeContext(context)
    await database.drop()
  }
  try {
    await app.listen({ port: 0, host: '127.0.0.1' })
    const address = app.server.address() as { port: number }
    const origin = `http://127.0.0.1:${address.port}`
    if (options.email?.publicUrl === undefined) context.emailSettings.publicUrl = origin
    const document = await (await fetch(`${origin}/api/${instances[0].prefix}/openapi.json`)).json() as Record<string, any>
    const contract = contractFor(document)
    return {
      app,
      context,
      clock,
      origin,
      contract,
      client: (prefix = instances[0].prefix) => new ApiClient(origin, prefix, contract),
      databaseUrl: database.url,
      close,
    }
  } catch (err) {
    await close()
    throw err
  }
}

/**
 * Builds the real app on a fresh database (SQLite, or PostgreSQL under TEST_DATABASE_URL),
 * listening on a free loopback port; closed when the test ends.
 */
export async function build(t: TestContext, options: BuildOptions = {}): Promise<TestService> {
  const service = await startService(options)
  t.after(service.close)
  return service
}
