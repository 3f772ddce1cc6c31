import type { FastifyBaseLogger } from 'fastify'
import { pino } from 'pino'
import { buildApp } from './app.ts'
import { ConfigError } from './config/config-error.ts'
import { listenOrigin, readSettings } from './config/env.ts'
import { closeContext, createContext, type AppContext } from './context.ts'
import { systemClock } from './domain/clock.ts'
import { backOfficePath, bookingPagePath } from './domain/links.ts'
import { senderAddress } from './notify/sender-address.ts'

/** A stop signal ends the process within this, whatever is still in flight (STOP_GRACE_MS of it for background work). */
const STOP_BOUND_MS = 10_000

async function main(): Promise<void> {
  const settings = readSettings()
  const log = pino({ level: settings.logLevel })
  const context = await createContext(settings, systemClock, log)
  const app = await buildApp(context, {
    loggerInstance: log, requestLog: settings.requestLog, reuseAnswers: settings.reuseAnswers, admin: settings.adminApi, trustProxy: settings.trustProxy, database: settings.database,
  })

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    app.log.info({ signal }, 'refusing new connections, finishing requests and background work in flight, closing the database')
    // Bounded (README, "Running it as a service"): the listening socket closes at once while
    // background work takes no new work and has STOP_GRACE_MS for what is in flight; what it
    // leaves (an attempt at a receiver that never answers) its leases give to another node.
    setTimeout(() => {
      app.log.warn({ signal, after_ms: STOP_BOUND_MS }, 'stopped with work still in flight')
      process.exit(1)
    }, STOP_BOUND_MS).unref()
    await Promise.all([app.close(), context.scheduler.stop()])
    await closeContext(context)
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))

  await app.listen({ port: settings.port, host: settings.host })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : settings.port
  // PORT=0 picks the port only now: links (manage, setup, email) name the one it picked
  // unless TOURDESK_PUBLIC_URL says where the service is reached.
  if (settings.port === 0 && settings.publicUrl === listenOrigin(settings.host, 0)) context.emailSettings.publicUrl = listenOrigin(settings.host, port)
  context.scheduler.start()
  for (const catalog of context.catalogs.values()) {
    const base = `http://${settings.host}:${port}/api/${catalog.instance.prefix}`
    app.log.info({ instance: catalog.instance.prefix, base_url: base }, `${catalog.instance.name}: ${base}`)
    const page = `http://${settings.host}:${port}${bookingPagePath(catalog.instance.prefix)}`
    app.log.info({ instance: catalog.instance.prefix, booking_page: page }, `${catalog.instance.name} booking page: ${page}`)
    if (settings.adminApi) {
      const backOffice = `http://${settings.host}:${port}${backOfficePath(catalog.instance.prefix)}`
      app.log.info({ instance: catalog.instance.prefix, back_office: backOffice }, `${catalog.instance.name} back office: ${backOffice}`)
    }
  }
  if (settings.smtpUrl !== null && settings.publicUrl === listenOrigin(settings.host, settings.port)) logEmailWithoutPublicUrl(context, app.log)
  await logInstancesWithoutManager(context, app.log)
}

/**
 * Emails on and TOURDESK_PUBLIC_URL unset: their links name the listen address, which guests
 * cannot reach, and an instance without email_from sends from an address of no domain of its own
 * (src/notify/sender-address.ts). Said once per start, per instance, with what to set.
 */
function logEmailWithoutPublicUrl(context: AppContext, log: FastifyBaseLogger): void {
  const { publicUrl } = context.emailSettings
  for (const { instance } of context.catalogs.values()) {
    const sender = instance.email_from ? null : senderAddress(instance, publicUrl).address
    log.warn({ instance: instance.prefix, public_url: publicUrl, email_from: instance.email_from ?? sender },
      `${instance.prefix}: emails are on, but TOURDESK_PUBLIC_URL is unset, so their links point at ${publicUrl}`
      + (sender ? ` and they come from ${sender} (email_from is unset)` : '')
      + `: set TOURDESK_PUBLIC_URL to where guests reach the service${sender ? ' and email_from in the catalog settings' : ''}`)
  }
}

/** Says, once per start, how to make the first manager of every instance that has no active one. */
async function logInstancesWithoutManager(context: AppContext, log: FastifyBaseLogger): Promise<void> {
  const managed = await context.store.staff.instancesWithManager()
  for (const { instance } of context.catalogs.values()) {
    if (managed.has(instance.ref)) continue
    log.warn({ instance: instance.prefix },
      `${instance.prefix} has no manager yet: npm run tourdesk -- staff add --instance ${instance.prefix} --email you@example.com --name "Your Name" --role manager`)
  }
}

main().catch((err) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`tourdesk: invalid configuration: ${err.message}\n`)
  } else {
    process.stderr.write(`tourdesk: could not start: ${err instanceof Error ? err.message : String(err)}\n`)
  }
  process.exit(1)
})
