import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { test, type TestContext } from 'node:test'
import { Redis } from 'ioredis'
import { drillCatalogFile } from '../helpers/catalog-file.ts'
import { ApiClient } from '../helpers/client.ts'
import { freshDatabase } from '../helpers/database.ts'
import { startServer, type ServerProcess } from '../helpers/server-process.ts'

const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379'
const FORMS_BURST = 4

async function redisReachable(): Promise<boolean> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null })
  redis.on('error', () => {})
  try {
    await redis.connect()
    return (await redis.ping()) === 'PONG'
  } catch {
    return false
  } finally {
    redis.disconnect()
  }
}

const redisMissing = await redisReachable() ? false
  : process.env.CI === 'true' ? false
    : `Redis is not reachable at ${REDIS_URL}`

/** Two nodes on one database with rate limits on; each run gets its own instance ref, so its buckets are its own. */
async function twoNodes(t: TestContext, env: Record<string, string>) {
  const ref = randomBytes(8).toString('hex').replace(/[^a-z0-9]/g, 'a').slice(0, 8)
  const { dir, catalogPath } = drillCatalogFile(10, (catalog) => {
    catalog.instances[0].ref = ref
    catalog.instances[0].rate_limits = { forms: { burst: FORMS_BURST, per_minute: 1 } }
  })
  const database = await freshDatabase()
  const shared = { DATABASE_URL: database.url, TOURDESK_CONFIG: catalogPath, TOURDESK_RATE_LIMITS: 'on', ...env }
  const servers: ServerProcess[] = [await startServer(shared)]
  servers.push(await startServer(shared))
  t.after(async () => {
    await Promise.all(servers.map((s) => s.stop('SIGTERM')))
    await database.drop()
    rmSync(dir, { recursive: true, force: true })
  })
  return servers.map((s) => new ApiClient(s.origin, 'lisbon', null))
}

async function contactFlood(clients: ApiClient[], posts: number) {
  const statuses: number[] = []
  for (let i = 0; i < posts; i++) {
    const res = await clients[i % clients.length].post('/contact', { message: `question ${i}` })
    statuses.push(res.status)
    if (res.status === 429) {
      assert.equal(res.body.code, 'rate_limited')
      assert.ok(Number(res.headers.get('retry-after')) > 0)
      assert.match(res.headers.get('ratelimit') ?? '', /^"forms";r=0;t=\d+$/)
    }
  }
  return statuses
}

test('with REDIS_URL two nodes enforce one forms budget between them', { skip: redisMissing }, async (t) => {
  const clients = await twoNodes(t, { REDIS_URL })
  const statuses = await contactFlood(clients, 10)
  assert.equal(statuses.filter((s) => s === 200).length, FORMS_BURST, `statuses: ${statuses.join(' ')}`)
  assert.equal(statuses.filter((s) => s === 429).length, 10 - FORMS_BURST)
  const tours = await clients[1].get('/tours')
  assert.equal(tours.status, 200, 'reads have their own budget')
})

test('without REDIS_URL each node limits on its own, so two nodes allow twice the budget', async (t) => {
  const clients = await twoNodes(t, { REDIS_URL: '' })
  const statuses = await contactFlood(clients, 10)
  assert.equal(statuses.filter((s) => s === 200).length, 2 * FORMS_BURST, `statuses: ${statuses.join(' ')}`)
})

test('when Redis cannot be reached the limiter lets requests through instead of failing them', async (t) => {
  const clients = await twoNodes(t, { REDIS_URL: 'redis://127.0.0.1:1' })
  const statuses = await contactFlood(clients, 6)
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200])
})
