import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { RELAY_CERT } from '../helpers/self-signed-relay.ts'
import { ConfigError } from '../../src/config/config-error.ts'
import { DEFAULT_POOL, DEMO_CATALOG_PATH, readSettings } from '../../src/config/env.ts'

/** Asserts readSettings(env) throws a ConfigError whose message starts with the variable's name. */
function assertRejects(env: Record<string, string>, variable: string, detail?: RegExp): void {
  assert.throws(() => readSettings(env), (err: unknown) => {
    assert.ok(err instanceof ConfigError, `expected a ConfigError, got ${String(err)}`)
    assert.ok(err.message.startsWith(`${variable} `), `"${err.message}" does not name ${variable}`)
    if (detail) assert.match(err.message, detail)
    return true
  })
}

describe('readSettings defaults', () => {
  test('an empty environment gives the documented defaults', () => {
    const settings = readSettings({})
    assert.equal(settings.port, 3000)
    assert.equal(settings.host, '127.0.0.1')
    assert.deepEqual(settings.database, { dialect: 'sqlite', path: 'data/tourdesk.db' })
    assert.equal(settings.catalogPath, DEMO_CATALOG_PATH)
    assert.equal(settings.holdSecondsOverride, null)
    assert.equal(settings.rateLimits, true)
    assert.equal(settings.logLevel, 'info')
    assert.equal(settings.secret, null)
    assert.equal(settings.sweepIntervalSeconds, 30)
  })

  test('the default catalog is the bundled config/demo.json', () => {
    assert.match(DEMO_CATALOG_PATH, /[\\/]config[\\/]demo\.json$/)
  })

  test('empty strings count as unset for PORT, HOST, DATABASE_URL, LOG_LEVEL and TOURDESK_HOLD_SECONDS', () => {
    const settings = readSettings({ PORT: '', HOST: '', DATABASE_URL: '', LOG_LEVEL: '', TOURDESK_HOLD_SECONDS: '' })
    assert.equal(settings.port, 3000)
    assert.equal(settings.host, '127.0.0.1')
    assert.deepEqual(settings.database, { dialect: 'sqlite', path: 'data/tourdesk.db' })
    assert.equal(settings.logLevel, 'info')
    assert.equal(settings.holdSecondsOverride, null)
  })
})

describe('readSettings reads valid values', () => {
  test('a postgres:// or postgresql:// DATABASE_URL selects postgres and keeps the URL', () => {
    const url = 'postgres://tourdesk:secret@db.example:5432/tourdesk'
    assert.deepEqual(readSettings({ DATABASE_URL: url }).database, { dialect: 'postgres', url, pool: DEFAULT_POOL })
    assert.deepEqual(readSettings({ DATABASE_URL: 'postgresql://db.example/td' }).database, { dialect: 'postgres', url: 'postgresql://db.example/td', pool: DEFAULT_POOL })
  })

  test('pool size and timeouts for PostgreSQL come from TOURDESK_DB_*', () => {
    const settings = readSettings({
      DATABASE_URL: 'postgres://db.example/td',
      TOURDESK_DB_POOL_SIZE: '25',
      TOURDESK_DB_CONNECT_TIMEOUT_MS: '500',
      TOURDESK_DB_STATEMENT_TIMEOUT_MS: '8000',
    })
    assert.deepEqual(settings.database, { dialect: 'postgres', url: 'postgres://db.example/td', pool: { size: 25, connectTimeoutMs: 500, statementTimeoutMs: 8000 } })
  })

  test('TOURDESK_REQUEST_LOG is off unless set to on', () => {
    assert.equal(readSettings({}).requestLog, false)
    assert.equal(readSettings({ TOURDESK_REQUEST_LOG: 'on' }).requestLog, true)
    assert.throws(() => readSettings({ TOURDESK_REQUEST_LOG: 'verbose' }), /TOURDESK_REQUEST_LOG/)
  })

  test('TOURDESK_MIGRATE=off leaves migrations to npm run migrate; REDIS_URL shares rate limits', () => {
    assert.equal(readSettings({}).migrateOnStart, true)
    assert.equal(readSettings({ TOURDESK_MIGRATE: 'off' }).migrateOnStart, false)
    assert.equal(readSettings({}).redisUrl, null)
    assert.equal(readSettings({ REDIS_URL: 'redis://127.0.0.1:6379' }).redisUrl, 'redis://127.0.0.1:6379')
  })

  test('a sqlite: DATABASE_URL gives the path after the scheme', () => {
    assert.deepEqual(readSettings({ DATABASE_URL: 'sqlite:/var/lib/tourdesk/td.db' }).database, { dialect: 'sqlite', path: '/var/lib/tourdesk/td.db' })
  })

  test('PORT accepts 0 to 65535', () => {
    assert.equal(readSettings({ PORT: '0' }).port, 0)
    assert.equal(readSettings({ PORT: '8080' }).port, 8080)
    assert.equal(readSettings({ PORT: '65535' }).port, 65535)
  })

  test('TOURDESK_RATE_LIMITS=off turns rate limits off', () => {
    assert.equal(readSettings({ TOURDESK_RATE_LIMITS: 'off' }).rateLimits, false)
    assert.equal(readSettings({ TOURDESK_RATE_LIMITS: 'on' }).rateLimits, true)
  })

  test('TOURDESK_HOLD_SECONDS sets the hold override, from 1 to 86400', () => {
    assert.equal(readSettings({ TOURDESK_HOLD_SECONDS: '1' }).holdSecondsOverride, 1)
    assert.equal(readSettings({ TOURDESK_HOLD_SECONDS: '90' }).holdSecondsOverride, 90)
    assert.equal(readSettings({ TOURDESK_HOLD_SECONDS: '86400' }).holdSecondsOverride, 86400)
  })

  test('every pino log level is accepted', () => {
    for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) {
      assert.equal(readSettings({ LOG_LEVEL: level }).logLevel, level)
    }
  })

  test('HOST, TOURDESK_CONFIG and a 32-character TOURDESK_SECRET are taken as given', () => {
    const secret = 'x'.repeat(32)
    const settings = readSettings({ HOST: '0.0.0.0', TOURDESK_CONFIG: '/etc/tourdesk/catalog.json', TOURDESK_SECRET: secret })
    assert.equal(settings.host, '0.0.0.0')
    assert.equal(settings.catalogPath, '/etc/tourdesk/catalog.json')
    assert.equal(settings.secret, secret)
  })
})

describe('the mail server\'s TLS settings', () => {
  test('by default the certificate is checked against the system\'s CAs', () => {
    assert.deepEqual(readSettings({}).smtpTls, { rejectUnauthorized: true, ca: null })
  })

  test('SMTP_TLS_REJECT_UNAUTHORIZED=off takes any certificate; SMTP_TLS_CA_FILE is read at start', () => {
    assert.equal(readSettings({ SMTP_TLS_REJECT_UNAUTHORIZED: 'off' }).smtpTls.rejectUnauthorized, false)
    const dir = mkdtempSync(join(tmpdir(), 'tourdesk-ca-'))
    const file = join(dir, 'relay.pem')
    writeFileSync(file, RELAY_CERT)
    try {
      assert.deepEqual(readSettings({ SMTP_TLS_CA_FILE: file }).smtpTls, { rejectUnauthorized: true, ca: RELAY_CERT })
      writeFileSync(file, 'not a certificate')
      assertRejects({ SMTP_TLS_CA_FILE: file }, 'SMTP_TLS_CA_FILE', /PEM certificates/)
    } finally {
      rmSync(dir, { recursive: true })
    }
  })

  test('a SMTP_TLS_CA_FILE that is not there, or SMTP_TLS_REJECT_UNAUTHORIZED other than on/off, stops start-up', () => {
    assertRejects({ SMTP_TLS_CA_FILE: '/nonexistent/relay.pem' }, 'SMTP_TLS_CA_FILE', /cannot be read: ENOENT/)
    assertRejects({ SMTP_TLS_REJECT_UNAUTHORIZED: 'false' }, 'SMTP_TLS_REJECT_UNAUTHORIZED', /"false"/)
  })
})

describe('readSettings rejects bad values with a ConfigError naming the variable', () => {
  test('PORT that is not a number', () => assertRejects({ PORT: 'abc' }, 'PORT', /"abc"/))
  test('PORT above 65535', () => assertRejects({ PORT: '70000' }, 'PORT', /"70000"/))
  test('PORT that is negative', () => assertRejects({ PORT: '-1' }, 'PORT'))
  test('PORT with surrounding spaces', () => assertRejects({ PORT: ' 80' }, 'PORT'))

  test('DATABASE_URL of another database', () => assertRejects({ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL', /"mysql:\/\/x"/))
  test('DATABASE_URL sqlite: without a path', () => assertRejects({ DATABASE_URL: 'sqlite:' }, 'DATABASE_URL'))
  test('DATABASE_URL postgres:// that is not a URL', () => assertRejects({ DATABASE_URL: 'postgres://[bad' }, 'DATABASE_URL'))
  test('TOURDESK_DB_POOL_SIZE of 0', () => assertRejects({ DATABASE_URL: 'postgres://db/td', TOURDESK_DB_POOL_SIZE: '0' }, 'TOURDESK_DB_POOL_SIZE'))
  test('TOURDESK_MIGRATE other than on/off', () => assertRejects({ TOURDESK_MIGRATE: 'yes' }, 'TOURDESK_MIGRATE'))
  test('REDIS_URL that is not redis://', () => assertRejects({ REDIS_URL: 'http://cache' }, 'REDIS_URL'))

  test('TOURDESK_RATE_LIMITS other than on/off', () => {
    assertRejects({ TOURDESK_RATE_LIMITS: 'maybe' }, 'TOURDESK_RATE_LIMITS', /"maybe"/)
    assertRejects({ TOURDESK_RATE_LIMITS: 'ON' }, 'TOURDESK_RATE_LIMITS')
  })

  test('LOG_LEVEL that pino does not know', () => assertRejects({ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL', /"verbose"/))

  test('TOURDESK_HOLD_SECONDS of zero', () => assertRejects({ TOURDESK_HOLD_SECONDS: '0' }, 'TOURDESK_HOLD_SECONDS', /"0"/))
  test('TOURDESK_HOLD_SECONDS with a fraction', () => assertRejects({ TOURDESK_HOLD_SECONDS: '1.5' }, 'TOURDESK_HOLD_SECONDS', /"1\.5"/))
  test('TOURDESK_HOLD_SECONDS above a day', () => assertRejects({ TOURDESK_HOLD_SECONDS: '86401' }, 'TOURDESK_HOLD_SECONDS'))

  test('TOURDESK_SECRET shorter than 32 characters', () => assertRejects({ TOURDESK_SECRET: 'x'.repeat(31) }, 'TOURDESK_SECRET'))
  test('TOURDESK_SWEEP_SECONDS of zero', () => assertRejects({ TOURDESK_SWEEP_SECONDS: '0' }, 'TOURDESK_SWEEP_SECONDS'))
})
