import assert from 'node:assert/strict'
import { rmSync } from 'node:fs'
import { test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { openStore } from '../../src/store/store.ts'
import { drillCatalogFile } from '../helpers/catalog-file.ts'
import { ApiClient } from '../helpers/client.ts'
import { freshDatabase, testDialect } from '../helpers/database.ts'
import { startServer } from '../helpers/server-process.ts'
import { TcpProxy } from '../helpers/tcp-proxy.ts'

const CONNECT_TIMEOUT_MS = 1000
/** How long a request may take while the database is gone: the connect timeout plus generous slack, never a hang. */
const FAIL_FAST_BOUND_MS = CONNECT_TIMEOUT_MS + 4000

test('PostgreSQL cut and restored during traffic: 503 unavailable fast while cut, service resumes, nothing acknowledged is lost', {
  skip: testDialect !== 'postgres' && 'needs PostgreSQL (runs in the PostgreSQL pass of the test command)',
}, async (t) => {
  const database = await freshDatabase()
  const target = new URL(database.url)
  const proxy = new TcpProxy(target.hostname, Number(target.port || 5432))
  await proxy.start()
  const viaProxy = new URL(database.url)
  viaProxy.host = proxy.url
  const { dir, catalogPath } = drillCatalogFile(100)
  const server = await startServer({
    DATABASE_URL: viaProxy.toString(),
    TOURDESK_CONFIG: catalogPath,
    TOURDESK_DB_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
    TOURDESK_DB_STATEMENT_TIMEOUT_MS: '2000',
  })
  const store = await openStore(database.target, { migrate: false })
  t.after(async () => {
    await server.stop('SIGTERM')
    await proxy.stop()
    await store.close()
    await database.drop()
    rmSync(dir, { recursive: true, force: true })
  })
  const client = new ApiClient(server.origin, 'lisbon', null)
  const availability = await client.get('/availability?tour=drill-departure&days=3&party=1')
  const start = availability.body.slots.find((s: { bookable: boolean }) => s.bookable).start
  const sessions = await Promise.all(Array.from({ length: 30 }, () => client.session()))
  const attempt = (i: number) => client.post('/booking', { tour_id: 'drill-departure', start, party: 1 },
    { headers: { ...sessions[i].headers, 'idempotency-key': `outage-${i}` } })

  const acknowledged = new Map<number, string>()
  for (let i = 0; i < 10; i++) {
    const res = await attempt(i)
    assert.equal(res.status, 200, res.text)
    acknowledged.set(i, res.body.id)
  }

  await proxy.cut()
  for (let i = 10; i < 20; i++) {
    const began = performance.now()
    const res = await attempt(i)
    const took = performance.now() - began
    assert.equal(res.status, 503, res.text)
    assert.equal(res.body.code, 'unavailable')
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/)
    assert.ok(res.headers.get('retry-after'))
    assert.ok(took < FAIL_FAST_BOUND_MS, `a request during the cut took ${Math.round(took)} ms`)
  }
  const health = await fetch(`${server.origin}/healthz`)
  assert.equal(health.status, 200)
  const readiness = await fetch(`${server.origin}/readyz`)
  assert.equal(readiness.status, 503)
  assert.equal(((await readiness.json()) as { code: string }).code, 'unavailable')

  await proxy.restore()
  let ready = false
  for (let waited = 0; waited < 15_000 && !ready; waited += 200) {
    ready = (await fetch(`${server.origin}/readyz`)).status === 200
    if (!ready) await sleep(200)
  }
  assert.ok(ready, '/readyz reports ready again without a restart')
  for (let i = 10; i < 30; i++) {
    const res = await attempt(i)
    assert.equal(res.status, 200, `after the restore, hold ${i}: ${res.text}`)
    acknowledged.set(i, res.body.id)
  }

  const rows = await store.db.selectFrom('bookings').select(['id', 'status']).execute()
  assert.equal(rows.length, 30, 'one booking per acknowledged hold, none for the refused ones')
  for (const id of acknowledged.values()) assert.equal(rows.find((r) => r.id === id)?.status, 'held')
  const departure = await store.db.selectFrom('departures').select('seats_taken').where('tour_id', '=', 'drill-departure').executeTakeFirstOrThrow()
  assert.equal(departure.seats_taken, 30)
})
