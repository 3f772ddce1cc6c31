import { eventView } from './admin/event-view.ts'
import { catalogFileAtStart } from './catalog/catalog-file.ts'
import { seedFromFile } from './catalog/catalog-seeding.ts'
import type { ConfigError } from './config/config-error.ts'
import type { DatabaseTarget, Settings } from './config/env.ts'
import type { Clock } from './domain/clock.ts'
import { MemoryBuckets, type RateLimiter } from './http/rate-limit.ts'
import { RedisBuckets } from './http/redis-buckets.ts'
import { bookingService, type BookingService } from './services/bookings.ts'
import { catalogEditor, type CatalogEditor } from './catalog/catalog-editor.ts'
import { CatalogRegistry } from './catalog/catalog-registry.ts'
import { auditLog, type AuditLog } from './services/audit-log.ts'
import { departureMinimum } from './services/departure-minimum.ts'
import { eventFeed, type EventFeed } from './services/event-feed.ts'
import { departureService, type DepartureService } from './services/departures.ts'
import { operatorBookingService, type OperatorBookingService } from './services/operator-bookings.ts'
import { resellerBookingService, type ResellerBookingService } from './services/reseller-bookings.ts'
import { resellerKeys, type ResellerKeys } from './services/reseller-keys.ts'
import { departureDeadlines } from './jobs/departure-deadlines.ts'
import { runHousekeeping } from './jobs/housekeeping.ts'
import { Scheduler } from './jobs/scheduler.ts'
import { guestForms, type GuestForms } from './services/guest-forms.ts'
import { privacyRequests, type PrivacyRequests } from './services/privacy-requests.ts'
import { staffSetupLinks, type StaffSetupLinks } from './services/setup-links.ts'
import { staffAuth, type StaffAuth } from './services/staff-auth.ts'
import { emailActionLinks, type EmailActionLinks } from './notify/email-action-links.ts'
import { confirmationResend, type ConfirmationResend } from './notify/confirmation-resend.ts'
import { emailOutbox, type EmailOutbox, type EmailSettings } from './notify/email-outbox.ts'
import { emailSending, type EmailSending } from './notify/email-sending.ts'
import { passwordResets, type PasswordResets } from './notify/password-reset.ts'
import { webhookEndpoints, type WebhookEndpoints } from './notify/webhook-endpoints.ts'
import { DEFAULT_WEBHOOK_SETTINGS, webhookDelivery, type WebhookDelivery, type WebhookSettings } from './notify/webhook-delivery.ts'
import type { CatalogInstance } from './schemas/catalog.ts'
import { loadServerSecret } from './store/secrets.ts'
import { openStore, type Store } from './store/store.ts'

/**
 * Everything the service is built from, made in one place (the composition root): the
 * server, the CLI, the tests, the bench and the drills all build it with openContext.
 */
export interface AppContext {
  store: Store
  clock: Clock
  /** The catalog each instance serves now, by prefix; follows edits made on any node. */
  catalogs: CatalogRegistry
  /** Catalog edits (operator API, CLI import); the registry is refreshed after each. */
  catalogEditor: CatalogEditor
  secret: string
  /** Guests' bookings, addressed by session. */
  bookings: BookingService
  /** Operators' bookings, addressed by code or id. */
  operatorBookings: OperatorBookingService
  departures: DepartureService
  staff: StaffAuth
  /** Resellers' bookings through the OCTo API (src/octo/), and the keys they call it with. */
  resellerBookings: ResellerBookingService
  resellerKeys: ResellerKeys
  /** New setup links a manager gives a staff member (operator API, CLI, back office). */
  setupLinks: StaffSetupLinks
  /** "Forgot your password?": a link emailed to a staff member's address. */
  passwordResets: PasswordResets
  /** Export and erasure of what is stored about an email address (operator API, CLI). */
  privacy: PrivacyRequests
  /** The audit log, read (operator API). */
  audit: AuditLog
  /** The event feed, read (operator API: GET /events and GET /stream). */
  eventFeed: EventFeed
  /** null when TOURDESK_RATE_LIMITS=off. */
  rateLimiter: RateLimiter | null
  webhooks: WebhookDelivery
  /** The operator API's webhook endpoints: made, changed, rotated, tested, replayed. */
  webhookEndpoints: WebhookEndpoints
  /** Background work (housekeeping, webhook deliveries, emails); the server starts it, tests call runNow. */
  scheduler: Scheduler
  /** The guest's contact and newsletter forms. */
  forms: GuestForms
  /** Emails made from events, reminders and warnings. */
  emails: EmailOutbox
  /** The confirm and decline links of the operator's new-request email (src/web/email-action-page.ts). */
  emailActionLinks: EmailActionLinks
  /** A confirmed booking's confirmation sent again (operator API). */
  confirmationResend: ConfirmationResend
  /** null without SMTP_URL: messages are kept as not_sent. */
  emailSending: EmailSending | null
  /** The settings emails are made with; a test that listens on a port it learns late sets publicUrl once it knows it. */
  emailSettings: EmailSettings
}

export interface ContextOptions {
  database: DatabaseTarget
  /**
   * The catalog file's instances: they seed an empty database (src/catalog/catalog-seeding.ts).
   * Why the file cannot be used instead stops only a node whose database holds no catalog.
   */
  catalog: CatalogInstance[] | ConfigError
  /** Where `catalog` came from, named in the log line when it differs from the database. */
  catalogSource?: string
  /** When that file was last written (epoch ms), to tell whether it or the database is newer. */
  catalogWrittenAtMs?: number | null
  /**
   * Log that line (default true). The server says it at start; the CLI does not repeat it on
   * every command, where it would urge applying the file right after an import of another.
   */
  reportCatalogDrift?: boolean
  holdSecondsOverride?: number | null
  clock: Clock
  log?: ContextLog
  rateLimiter?: RateLimiter | null
  /** Apply pending migrations first (default true). */
  migrate?: boolean
  /** TOURDESK_SECRET; when null, the one kept in the database. */
  secret?: string | null
  /** Private addresses refused, the default retry schedule, unless said otherwise. */
  webhooks?: Partial<WebhookSettings>
  /** How often housekeeping runs (TOURDESK_SWEEP_SECONDS; default 30). */
  sweepIntervalSeconds?: number
  /** SMTP_URL (none by default: messages kept as not_sent), its TLS settings and TOURDESK_PUBLIC_URL. */
  email?: Partial<EmailSettings>
}

export interface ContextLog {
  warn(details: object, message: string): void
  info?(details: object, message: string): void
  error?(details: object, message: string): void
}

/** Opens the database and wires every service to it. */
export async function openContext(options: ContextOptions): Promise<AppContext> {
  const store = await openStore(options.database, { migrate: options.migrate ?? true })
  try {
    const secret = options.secret ?? await loadServerSecret(store.db, 'csrf')
    const editor = catalogEditor(store)
    await seedFromFile(store, editor, { instances: options.catalog, source: options.catalogSource, writtenAtMs: options.catalogWrittenAtMs },
      options.clock.now(), options.log, options.reportCatalogDrift ?? true)
    // Closures made here name what they use, never `options`: one that did would keep the
    // catalog file's instances (tens of MB for a large catalog) for as long as the node runs.
    const log = options.log
    const catalogs = new CatalogRegistry(store, { holdSecondsOverride: options.holdSecondsOverride ?? null, onError: (err) => log?.warn({ err }, 'catalog: could not reload') })
    await catalogs.refresh()
    catalogs.watch()
    const scheduler = new Scheduler(options.clock, {
      info: (details, message) => log?.info?.(details, message),
      error: (details, message) => (log?.error ?? log?.warn)?.call(log, details, message),
    })
    // One minimum-to-run reporter, shared by guest and staff bookings (src/services/departure-minimum.ts).
    const minimum = departureMinimum(store)
    const webhooks = webhookDelivery(store, catalogs, options.clock, { ...DEFAULT_WEBHOOK_SETTINGS, ...options.webhooks }, eventView)
    const emailSettings: EmailSettings = { smtpUrl: options.email?.smtpUrl ?? null, publicUrl: options.email?.publicUrl ?? 'http://127.0.0.1:3000', smtpTls: options.email?.smtpTls }
    const emails = emailOutbox(store, catalogs, secret, emailSettings)
    const sending = emailSettings.smtpUrl === null ? null : emailSending(store, catalogs, emailSettings.smtpUrl, emailSettings, log)
    const staff = staffAuth(store, secret, (ref) => new Set(catalogs.byRef(ref)?.tourById.keys() ?? []))
    const context: AppContext = {
      store,
      clock: options.clock,
      catalogs,
      catalogEditor: {
        ...editor,
        async apply(ref, edit, editOptions) {
          const result = await editor.apply(ref, edit, editOptions)
          if (!result.dry_run && result.changes.length > 0) await catalogs.refresh()
          return result
        },
      },
      secret,
      bookings: bookingService(store, minimum),
      operatorBookings: operatorBookingService(store, minimum),
      resellerBookings: resellerBookingService(store, minimum),
      resellerKeys: resellerKeys(store),
      departures: departureService(store),
      staff,
      setupLinks: staffSetupLinks(store),
      passwordResets: passwordResets(store, emails, emailSettings),
      privacy: privacyRequests(store, secret),
      audit: auditLog(store),
      eventFeed: eventFeed(store),
      rateLimiter: options.rateLimiter ?? null,
      webhooks,
      webhookEndpoints: webhookEndpoints(store, webhooks),
      scheduler,
      emails,
      forms: guestForms(store, emails),
      emailActionLinks: emailActionLinks(store, staff),
      confirmationResend: confirmationResend(store, emails),
      emailSending: sending,
      emailSettings,
    }
    const sweepMs = (options.sweepIntervalSeconds ?? 30) * 1000
    const housekeeping = { store, bookings: context.bookings, operatorBookings: context.operatorBookings, catalogs }
    scheduler.add({ name: 'housekeeping', everyMs: sweepMs, run: (now) => runHousekeeping(housekeeping, now).then((report) => ({ ...report })) })
    scheduler.add(webhooks.task())
    scheduler.add(departureDeadlines(store).task(catalogs))
    scheduler.add(emails.projectionTask())
    scheduler.add(emails.remindersTask(sweepMs))
    if (sending) scheduler.add(sending.task())
    return context
  } catch (err) {
    await store.close()
    throw err
  }
}

export async function closeContext(context: AppContext): Promise<void> {
  await context.scheduler.stop()
  context.emailSending?.close()
  context.catalogs.close()
  await context.rateLimiter?.close()
  await context.store.close()
}

function rateLimiterFor(settings: Settings, log: ContextLog): RateLimiter | null {
  if (!settings.rateLimits) return null
  if (settings.redisUrl === null) return new MemoryBuckets()
  return new RedisBuckets(settings.redisUrl, { onError: (err) => log.warn({ err }, 'rate limits: Redis unreachable, letting requests through') })
}

/** The context the settings describe (environment variables and the catalog file). */
export async function createContext(settings: Settings, clock: Clock, log: ContextLog, options: Pick<ContextOptions, 'reportCatalogDrift'> = {}): Promise<AppContext> {
  return openContext({
    ...options,
    database: settings.database,
    ...catalogFileAtStart(settings.catalogPath),
    catalogSource: settings.catalogPath,
    holdSecondsOverride: settings.holdSecondsOverride,
    clock,
    log,
    rateLimiter: rateLimiterFor(settings, log),
    migrate: settings.migrateOnStart,
    secret: settings.secret,
    webhooks: { allowPrivate: settings.webhooks.allowPrivate, ...settings.webhooks.retryScheduleMs ? { retryScheduleMs: settings.webhooks.retryScheduleMs } : {} },
    sweepIntervalSeconds: settings.sweepIntervalSeconds,
    email: { smtpUrl: settings.smtpUrl, publicUrl: settings.publicUrl, smtpTls: settings.smtpTls },
  })
}
