import { Temporal } from 'temporal-polyfill'
import { toStoredInstant } from '../src/domain/instant-format.ts'
import { CHECKED_OUT } from '../src/schemas/booking-status.ts'
import { staffAuth } from '../src/services/staff-auth.ts'
import { openStore } from '../src/store/store.ts'
import { BENCH_REF, BENCH_TIME_ZONE, HOLD_TOUR } from './catalog.ts'
import type { RunContext } from './database-run.ts'
import type { BenchDatabase } from './databases.ts'
import { measureLoad } from './load.ts'
import type { StartedProcess } from './node-process.ts'
import { measureExport } from './operator-export.ts'
import type { OperatorReadResult, OperatorResults } from './results-model.ts'

/** One operator read: what the report calls it, the path under the operator API, and how many connections ask at once. */
interface OperatorRead {
  name: string
  request: string
  path: string
  connections: number
}

/** Guests book the manifest's departure this many at a time. */
const BOOKING_CONCURRENCY = 10

async function json(url: string, init?: RequestInit): Promise<any> {
  const answer = await fetch(url, init)
  const body = await answer.json()
  if (!answer.ok) throw new Error(`${init?.method ?? 'GET'} ${url} answered ${answer.status}: ${JSON.stringify(body)}`)
  return body
}

/** An API key of the manager role, made through the store as `tourdesk keys create` does, before any request needs it. */
export async function createApiKey(database: BenchDatabase, now: Temporal.Instant): Promise<string> {
  const store = await openStore(database.target, { migrate: false })
  try {
    const { secret } = await staffAuth(store, 'bench').createKey(BENCH_REF, { name: 'bench', role: 'manager' }, { type: 'system', id: null, name: 'bench' }, now)
    return secret
  } finally {
    await store.close()
  }
}

/**
 * A departure of `guests` one-person bookings, made by guests through the booking API (every
 * fourth with an add-on), at an hour the seed leaves empty: its manifest lists exactly them.
 */
async function bookDeparture(base: string, start: string, guests: number): Promise<void> {
  let next = 0
  async function guest(): Promise<void> {
    for (let i = next++; i < guests; i = next++) {
      const session = await json(`${base}/session`, { method: 'POST' })
      const headers = { 'content-type': 'application/json', 'x-session': session.session, 'x-csrf-token': session.csrf_token }
      await json(`${base}/booking`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ tour_id: HOLD_TOUR, start, party: 1, ...i % 4 === 0 ? { addons: { 'photo-package': 1 } } : {} }),
      })
      await json(`${base}/checkout`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: `Guest ${String(i).padStart(3, '0')}`, email: `guest${i}@example.com`, phone: '+351912345678' }),
      })
    }
  }
  await Promise.all(Array.from({ length: BOOKING_CONCURRENCY }, guest))
}

/**
 * The first and last local dates of a stretch, from the oldest departure on, whose bookings in
 * the export's default statuses number at least `bookings` (or every one there is).
 */
async function exportWindow(database: BenchDatabase, bookings: number): Promise<{ from: string, to: string, expected: number }> {
  const store = await openStore(database.target, { migrate: false })
  try {
    // The bench catalog's starts (08:00 to 20:00 in Lisbon) fall on the same date in UTC.
    const days = await store.db.selectFrom('bookings')
      .select((eb) => [eb.fn('substr', ['start_at', eb.val(1), eb.val(10)]).as('day'), eb.fn.countAll().as('n')])
      .where('instance_id', '=', BENCH_REF)
      .where('status', 'in', CHECKED_OUT)
      .groupBy('day')
      .orderBy('day')
      .execute() as Array<{ day: string, n: number | string }>
    let expected = 0
    for (const { day, n } of days) {
      expected += Number(n)
      if (expected >= bookings) return { from: days[0].day, to: day, expected }
    }
    return { from: days[0].day, to: days[days.length - 1].day, expected }
  } finally {
    await store.close()
  }
}

/** Null when the route is in this build; its name when the API answers it with the router's 404 (another part of issue 13 not built yet). */
async function missingRoute(adminBase: string, read: OperatorRead, key: string): Promise<string | null> {
  const answer = await fetch(`${adminBase}${read.path}`, { headers: { authorization: `Bearer ${key}` } })
  const body = await answer.text()
  if (answer.status === 404 && body.includes('"code":"not_found"')) return read.request
  if (!answer.ok) throw new Error(`GET ${read.path} answered ${answer.status}: ${body.slice(0, 300)}`)
  return null
}

/**
 * Issue 13's operator figures on a service over a seeded database: the bookings of one day
 * and the departures of 14 days at `connections`, a 200-guest manifest one request at a
 * time (a guide opening it), and the CSV export of 100,000 bookings with the service's RSS.
 */
export async function measureOperator(service: StartedProcess, database: BenchDatabase, ctx: RunContext, seedSeconds: number): Promise<OperatorResults> {
  const { operator } = ctx.settings
  const adminBase = service.baseUrl.replace('/api/', '/admin/api/')
  const key = await createApiKey(database, ctx.now)
  // Two days out, at 09:00 (the seed books 10:00 and 16:00 only).
  const manifestStart = ctx.tomorrow.add({ days: 1 }).toPlainDateTime('09:00').toZonedDateTime(BENCH_TIME_ZONE).toInstant()
  ctx.progress(`operator: ${operator.manifestGuests} guests book one departure`)
  await bookDeparture(service.baseUrl, manifestStart.toString(), operator.manifestGuests)
  const manifestPath = `/departures/${HOLD_TOUR}/${encodeURIComponent(toStoredInstant(manifestStart))}`
  const manifest = await json(`${adminBase}${manifestPath}`, { headers: { authorization: `Bearer ${key}` } })
  if (manifest.manifest.length !== operator.manifestGuests) throw new Error(`the manifest lists ${manifest.manifest.length} bookings, not ${operator.manifestGuests}`)

  const day = ctx.tomorrow.toString()
  const lastDay = ctx.tomorrow.add({ days: 13 }).toString()
  const reads: OperatorRead[] = [
    { name: 'bookings-day', request: `GET /bookings?from=${day}&to=${day}`, path: `/bookings?from=${day}&to=${day}`, connections: operator.connections },
    { name: 'departures-14', request: `GET /departures?from=${day}&to=${lastDay}`, path: `/departures?from=${day}&to=${lastDay}`, connections: operator.connections },
    { name: 'departures-14-200', request: `GET /departures?from=${day}&to=${lastDay}&limit=200`, path: `/departures?from=${day}&to=${lastDay}&limit=200`, connections: operator.connections },
    {
      name: 'manifest',
      request: `GET /departures/${HOLD_TOUR}/{start} (${operator.manifestGuests} guests)`,
      path: manifestPath,
      connections: 1,
    },
  ]
  const missing: string[] = []
  const measured: OperatorReadResult[] = []
  for (const read of reads) {
    const absent = await missingRoute(adminBase, read, key)
    if (absent !== null) {
      missing.push(absent)
      continue
    }
    ctx.progress(`operator: ${read.name}`)
    const figures = await measureLoad({
      url: adminBase,
      connections: read.connections,
      durationSeconds: operator.durationSeconds,
      warmupSeconds: operator.warmupSeconds,
      requests: [{ method: 'GET', path: `${new URL(adminBase).pathname}${read.path}`, headers: { authorization: `Bearer ${key}` } }],
    })
    measured.push({ name: read.name, request: read.request, connections: read.connections, ...figures })
  }

  const window = await exportWindow(database, operator.exportBookings)
  const exportPath = `/exports/bookings.csv?from=${window.from}&to=${window.to}`
  const exportRead = { name: 'export', request: `GET ${exportPath}`, path: exportPath, connections: 1 }
  const exportMissing = await missingRoute(adminBase, exportRead, key)
  let exported: OperatorResults['export'] = null
  if (exportMissing === null) {
    ctx.progress(`operator: CSV export of ${window.expected.toLocaleString('en')} bookings`)
    exported = { request: exportRead.request, expectedRows: window.expected, ...await measureExport(`${adminBase}${exportPath}`, key, service.pid) }
  } else {
    missing.push(exportMissing)
  }
  return {
    size: { ...operator.size, seedSeconds, coldStartMs: service.coldStartMs, peakRssBytes: service.peakRssBytes() },
    manifestGuests: operator.manifestGuests,
    reads: measured,
    export: exported,
    missing,
  }
}
