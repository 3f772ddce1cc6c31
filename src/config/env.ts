import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PROJECT_ROOT } from '../project-root.ts'
import { ConfigError } from './config-error.ts'

/** Connection limits for PostgreSQL; SQLite has one connection per process. */
export interface PoolSettings {
  size: number
  connectTimeoutMs: number
  statementTimeoutMs: number
}

export type DatabaseTarget =
  | { dialect: 'sqlite', path: string }
  | { dialect: 'postgres', url: string, pool: PoolSettings }

export const DEFAULT_POOL: PoolSettings = { size: 10, connectTimeoutMs: 2000, statementTimeoutMs: 5000 }

export interface Settings {
  port: number
  host: string
  database: DatabaseTarget
  /** Run pending migrations at start (TOURDESK_MIGRATE=off leaves them to `npm run migrate`). */
  migrateOnStart: boolean
  /** Shared rate-limit buckets across nodes; null keeps them in each process. */
  redisUrl: string | null
  catalogPath: string
  holdSecondsOverride: number | null
  rateLimits: boolean
  logLevel: string
  /** Log every request and its answer (costs 15–30 % of throughput on light endpoints). */
  requestLog: boolean
  /** TOURDESK_ADMIN: off answers 404 to everything under /admin, for nodes that face the public internet. */
  adminApi: boolean
  /** Keep serialized tour lists and availability answers for reuse (see README, "Fresh answers, reused"). */
  reuseAnswers: boolean
  secret: string | null
  sweepIntervalSeconds: number
  /** false, true (trust every proxy) or a comma-separated list of proxy addresses/CIDRs. */
  trustProxy: boolean | string
  /** TOURDESK_WEBHOOKS_ALLOW_PRIVATE and TOURDESK_WEBHOOK_RETRY_SCHEDULE (src/notify/webhook-delivery.ts). */
  webhooks: { allowPrivate: boolean, retryScheduleMs: number[] | null }
  /** SMTP_URL (smtp:// or smtps://, credentials in the URL); null keeps every message as not_sent. */
  smtpUrl: string | null
  /** SMTP_TLS_REJECT_UNAUTHORIZED (on) and SMTP_TLS_CA_FILE (unset, read here): for a relay with a self-signed certificate. */
  smtpTls: { rejectUnauthorized: boolean, ca: string | null }
  /** TOURDESK_PUBLIC_URL: the origin guests and staff reach, for the links in emails and the CLI's setup links. */
  publicUrl: string
}

export const DEMO_CATALOG_PATH = join(PROJECT_ROOT, 'config/demo.json')

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

function integerSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`)
  }
  return Number(raw)
}

function onOffSetting(env: NodeJS.ProcessEnv, name: string, fallback: 'on' | 'off'): boolean {
  const raw = env[name] || fallback
  if (raw !== 'on' && raw !== 'off') throw new ConfigError(`${name} must be "on" or "off", got "${raw}"`)
  return raw === 'on'
}

function parseDatabaseUrl(raw: string, env: NodeJS.ProcessEnv): DatabaseTarget {
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length)
    if (path === '') throw new ConfigError('DATABASE_URL "sqlite:" needs a file path, e.g. sqlite:data/tourdesk.db')
    return { dialect: 'sqlite', path }
  }
  if (/^postgres(ql)?:\/\//.test(raw)) {
    try {
      new URL(raw)
    } catch {
      throw new ConfigError('DATABASE_URL is not a valid postgres:// URL')
    }
    return {
      dialect: 'postgres',
      url: raw,
      pool: {
        size: integerSetting(env, 'TOURDESK_DB_POOL_SIZE', DEFAULT_POOL.size, 1, 1000),
        connectTimeoutMs: integerSetting(env, 'TOURDESK_DB_CONNECT_TIMEOUT_MS', DEFAULT_POOL.connectTimeoutMs, 100, 600_000),
        statementTimeoutMs: integerSetting(env, 'TOURDESK_DB_STATEMENT_TIMEOUT_MS', DEFAULT_POOL.statementTimeoutMs, 100, 600_000),
      },
    }
  }
  throw new ConfigError(`DATABASE_URL must start with sqlite: or postgres://, got "${raw}"`)
}

function parseRedisUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null
  if (!/^rediss?:\/\/./.test(raw)) throw new ConfigError(`REDIS_URL must start with redis:// or rediss://, got "${raw}"`)
  return raw
}

function parseTrustProxy(raw: string | undefined): boolean | string {
  if (raw === undefined || raw === '' || raw === 'off') return false
  if (raw === 'on') return true
  if (!/^[0-9a-fA-F:.\/]+(,[0-9a-fA-F:.\/]+)*$/.test(raw)) {
    throw new ConfigError(`TOURDESK_TRUST_PROXY must be "off", "on" or a comma-separated list of proxy addresses, got "${raw}"`)
  }
  return raw
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const logLevel = env.LOG_LEVEL || 'info'
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`)
  }
  const secret = env.TOURDESK_SECRET || null
  if (secret !== null && secret.length < 32) {
    throw new ConfigError('TOURDESK_SECRET must be at least 32 characters')
  }
  const holdRaw = env.TOURDESK_HOLD_SECONDS
  const port = integerSetting(env, 'PORT', 3000, 0, 65535)
  const host = env.HOST || '127.0.0.1'
  return {
    port,
    host,
    database: parseDatabaseUrl(env.DATABASE_URL || 'sqlite:data/tourdesk.db', env),
    migrateOnStart: onOffSetting(env, 'TOURDESK_MIGRATE', 'on'),
    redisUrl: parseRedisUrl(env.REDIS_URL),
    catalogPath: env.TOURDESK_CONFIG || DEMO_CATALOG_PATH,
    holdSecondsOverride: holdRaw === undefined || holdRaw === '' ? null : integerSetting(env, 'TOURDESK_HOLD_SECONDS', 0, 1, 86400),
    rateLimits: onOffSetting(env, 'TOURDESK_RATE_LIMITS', 'on'),
    requestLog: onOffSetting(env, 'TOURDESK_REQUEST_LOG', 'off'),
    adminApi: onOffSetting(env, 'TOURDESK_ADMIN', 'on'),
    reuseAnswers: onOffSetting(env, 'TOURDESK_REUSE_ANSWERS', 'on'),
    logLevel,
    secret,
    sweepIntervalSeconds: integerSetting(env, 'TOURDESK_SWEEP_SECONDS', 30, 1, 3600),
    trustProxy: parseTrustProxy(env.TOURDESK_TRUST_PROXY),
    webhooks: { allowPrivate: onOffSetting(env, 'TOURDESK_WEBHOOKS_ALLOW_PRIVATE', 'off'), retryScheduleMs: parseDurations(env.TOURDESK_WEBHOOK_RETRY_SCHEDULE) },
    smtpUrl: parseSmtpUrl(env.SMTP_URL),
    smtpTls: { rejectUnauthorized: onOffSetting(env, 'SMTP_TLS_REJECT_UNAUTHORIZED', 'on'), ca: readCaFile(env.SMTP_TLS_CA_FILE) },
    publicUrl: parsePublicUrl(env.TOURDESK_PUBLIC_URL, port, host),
  }
}

function parseSmtpUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError('SMTP_URL must be a URL such as smtp://user:password@mail.example.com:587 or smtps://…:465')
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new ConfigError(`SMTP_URL must start with smtp:// or smtps://, got "${url.protocol}//"`)
  return raw
}

/** SMTP_TLS_CA_FILE's PEM certificates, read at start so a wrong path stops it rather than every send. */
function readCaFile(path: string | undefined): string | null {
  if (path === undefined || path === '') return null
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    throw new ConfigError(`SMTP_TLS_CA_FILE cannot be read: ${(err as NodeJS.ErrnoException).code ?? String(err)} (${path})`)
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new ConfigError(`SMTP_TLS_CA_FILE must hold PEM certificates (-----BEGIN CERTIFICATE-----), got ${path}`)
  return text
}

/** Where guests and staff reach the service when TOURDESK_PUBLIC_URL is unset: the listen address. */
export function listenOrigin(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`
}

/** The origin (scheme, host, port) of TOURDESK_PUBLIC_URL; by default the address the service listens on. */
function parsePublicUrl(raw: string | undefined, port: number, host: string): string {
  if (raw === undefined || raw === '') return listenOrigin(host, port)
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError(`TOURDESK_PUBLIC_URL must be an origin such as https://book.example.com, got "${raw}"`)
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.hash || url.username) {
    throw new ConfigError(`TOURDESK_PUBLIC_URL must be an origin such as https://book.example.com (no path), got "${raw}"`)
  }
  return url.origin
}

const DURATION_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** A comma-separated list of durations such as `1s,2s,5m` in milliseconds; null when unset (the default schedule). */
function parseDurations(raw: string | undefined): number[] | null {
  if (raw === undefined || raw === '') return null
  return raw.split(',').map((part) => {
    const match = /^\s*(\d+)(ms|s|m|h|d)\s*$/.exec(part)
    if (!match) throw new ConfigError(`TOURDESK_WEBHOOK_RETRY_SCHEDULE must be comma-separated durations such as 1s,2s,5m, got "${raw}"`)
    return Number(match[1]) * DURATION_MS[match[2]]
  })
}
