import assert from 'node:assert/strict'
import { createServer, type ServerResponse } from 'node:http'
import { test } from 'node:test'
import { Webhook } from 'standardwebhooks'
import { toStoredInstant } from '../../src/domain/instant-format.ts'
import { newWebhookSecret } from '../../src/notify/webhook-signing.ts'
import { openStore } from '../../src/store/store.ts'
import { emit, statement } from '../../src/store/write-plan.ts'
import { systemClock } from '../../src/domain/clock.ts'
import { freshDatabase, testDialect } from '../helpers/database.ts'
import { startServer, type ServerProcess } from '../helpers/server-process.ts'

const EVENTS = 200

/**
 * Three server processes share one database and deliver 200 events to one receiver. The
 * first node is SIGKILLed while an attempt is in flight, holding the lease on the deliveries
 * it claimed: the other nodes deliver them once that lease lapses. The lease is 30 s of real
 * time (src/notify/webhook-delivery.ts) and a server process has no clock a test can move, so
 * the test moves the dead node's leases into the past, as those 30 s would. Every event is
 * delivered, verified by the reference library, and no attempt is answered twice.
 */
test(`three nodes deliver every event once, a node killed mid-delivery included (${testDialect})`, { timeout: 120_000 }, async (t) => {
  const database = await freshDatabase()
  const nodes: ServerProcess[] = []
  t.after(async () => {
    for (const node of nodes) await node.stop('SIGKILL')
    await database.drop()
  })
  const secret = newWebhookSecret()
  const verifier = new Webhook(secret)
  /** Answered 200 on a live connection, by webhook-id. */
  const delivered = new Map<string, number>()
  let received = 0
  let holding = true
  const held: Array<{ id: string, response: ServerResponse }> = []
  let firstHeld: () => void
  const oneHeld = new Promise<void>((resolve) => { firstHeld = resolve })
  let allDelivered: () => void
  const everyEvent = new Promise<void>((resolve) => { allDelivered = resolve })
  const answer = (id: string, response: ServerResponse) => {
    if (response.socket === null || response.socket.destroyed) return
    response.writeHead(200).end()
    delivered.set(id, (delivered.get(id) ?? 0) + 1)
    if (delivered.size === EVENTS) allDelivered()
  }
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk) => chunks.push(chunk))
    request.on('end', () => {
      received++
      const body = Buffer.concat(chunks).toString('utf8')
      verifier.verify(body, request.headers as Record<string, string>)
      const id = String(request.headers['webhook-id'])
      if (holding) {
        held.push({ id, response })
        firstHeld()
        return
      }
      answer(id, response)
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  t.after(() => new Promise<void>((resolve) => { receiver.closeAllConnections(); receiver.close(() => resolve()) }))
  const { port } = receiver.address() as { port: number }

  const env = { DATABASE_URL: database.url, TOURDESK_WEBHOOKS_ALLOW_PRIVATE: 'on', TOURDESK_WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s,1s,1s' }
  nodes.push(await startServer(env))

  // The endpoint and the events, written by this process through the outbox (fan-out included).
  const store = await openStore(database.target)
  try {
    const now = toStoredInstant(systemClock.now())
    const { rows: [lisbon] } = await store.read(() => statement<{ instance_id: string }>(`select instance_id from catalog_instances where prefix = 'lisbon'`, []))
    const instanceId = lisbon.instance_id
    await store.write(() => store.webhooks.insertEndpoint({
      instance_id: instanceId, id: `wh_${'a'.repeat(32)}`, url: `http://127.0.0.1:${port}/hook`, description: null, secret, previous_secret: null,
      previous_secret_until: null, disabled_at: null, disabled_reason: null, failing_since: null, created_at: now, updated_at: now, version: 1,
    }, ['contact.received']))
    for (let batch = 0; batch < EVENTS / 50; batch++) {
      await store.write(function* () {
        for (let i = 0; i < 50; i++) {
          yield* emit({ instanceId, type: 'contact.received', subject: { type: 'contact', id: `c${batch}-${i}` }, occurredAt: now, data: { message: `message ${batch * 50 + i}` } })
        }
      })
    }

    // The first node claims a batch and is killed with an attempt in flight.
    await oneHeld
    await nodes[0].stop('SIGKILL')
    const lapsed = toStoredInstant(systemClock.now().subtract({ seconds: 1 }))
    const { changes: leased } = await store.write(() => statement('update webhook_deliveries set lease_until = ? where lease_until is not null', [lapsed]))
    assert.ok(leased > 0, 'the killed node held leases')
    holding = false
    for (const { id, response } of held) answer(id, response)
    nodes.push(await startServer(env), await startServer(env))

    await everyEvent
    assert.equal(delivered.size, EVENTS)
    assert.deepEqual([...delivered.values()].filter((n) => n !== 1), [], 'no attempt is answered twice')
    // A clean stop finishes the runs in progress, their writes included.
    for (const node of nodes.slice(1)) await node.stop('SIGTERM')
    const { rows } = await store.read(() => statement<{ status: string, n: number }>('select status, count(*) as n from webhook_deliveries group by status', []))
    assert.deepEqual(rows.map((r) => [r.status, Number(r.n)]), [['delivered', EVENTS]])
    t.diagnostic(`receipts ${received} for ${EVENTS} events: ${received - EVENTS} duplicates (the attempt in flight on the killed node); deliveries ${JSON.stringify(rows)}`)
    assert.ok(received - EVENTS <= 1, `${received - EVENTS} duplicates`)
  } finally {
    await store.close()
  }
})
