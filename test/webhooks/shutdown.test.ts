import assert from 'node:assert/strict'
import { once } from 'node:events'
import { connect, createServer, type Socket } from 'node:net'
import { test } from 'node:test'
import { systemClock } from '../../src/domain/clock.ts'
import { toStoredInstant } from '../../src/domain/instant-format.ts'
import { newWebhookSecret } from '../../src/notify/webhook-signing.ts'
import { openStore } from '../../src/store/store.ts'
import { emit, statement } from '../../src/store/write-plan.ts'
import { freshDatabase, testDialect } from '../helpers/database.ts'
import { startServer, type ServerProcess } from '../helpers/server-process.ts'

/** The bound README.md ("Running it as a service") promises between SIGTERM and the exit. */
const PROMISED_MS = 15_000

/** Whether a new TCP connection to the port is accepted now. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => { socket.destroy(); resolve(true) })
    socket.once('error', () => resolve(false))
  })
}

// The timeout guards against a hang only; the bounds this holds the process to are measured
// from the signal. Starting the server alone took over 60 s on a machine loaded by other work.
test(`SIGTERM with a delivery hanging on a receiver that never answers: new connections are refused at once, the process exits within the promised bound, the attempt is left to its lease (${testDialect})`, { timeout: 300_000 }, async (t) => {
  const database = await freshDatabase()
  let node: ServerProcess | undefined
  t.after(async () => {
    await node?.stop('SIGKILL')
    await database.drop()
  })
  // Accepts, reads, never answers.
  const held: Socket[] = []
  const receiver = createServer((socket) => {
    held.push(socket)
    socket.resume()
  })
  receiver.listen(0, '127.0.0.1')
  await once(receiver, 'listening')
  t.after(() => { for (const socket of held) socket.destroy(); receiver.close() })
  const { port: receiverPort } = receiver.address() as { port: number }

  node = await startServer({ DATABASE_URL: database.url, TOURDESK_WEBHOOKS_ALLOW_PRIVATE: 'on' })
  const serverPort = Number(new URL(node.origin).port)
  const store = await openStore(database.target)
  try {
    const now = toStoredInstant(systemClock.now())
    const { rows: [lisbon] } = await store.read(() => statement<{ instance_id: string }>(`select instance_id from catalog_instances where prefix = 'lisbon'`, []))
    await store.write(() => store.webhooks.insertEndpoint({
      instance_id: lisbon.instance_id, id: `wh_${'b'.repeat(32)}`, url: `http://127.0.0.1:${receiverPort}/hook`, description: null, secret: newWebhookSecret(),
      previous_secret: null, previous_secret_until: null, disabled_at: null, disabled_reason: null, failing_since: null, created_at: now, updated_at: now, version: 1,
    }, ['contact.received']))
    await store.write(() => emit({ instanceId: lisbon.instance_id, type: 'contact.received', subject: { type: 'contact', id: 'c1' }, occurredAt: now, data: { message: 'hello' } }))
    while (held.length === 0) await once(receiver, 'connection')
    assert.equal((await fetch(`${node.origin}/healthz`)).status, 200)

    const signalled = performance.now()
    const exited = once(node.child, 'exit')
    node.child.kill('SIGTERM')
    let refusedAfter: number | null = null
    while (refusedAfter === null && performance.now() - signalled < 2_000) {
      if (!(await accepts(serverPort))) refusedAfter = performance.now() - signalled
    }
    assert.ok(refusedAfter !== null, 'new connections are refused within 2 s of the signal')
    assert.equal(node.child.exitCode, null, 'refused while the process still finishes its work')
    const [code] = await exited
    const tookMs = performance.now() - signalled
    t.diagnostic(`connections refused after ${Math.round(refusedAfter)} ms; exit ${code} after ${Math.round(tookMs)} ms`)
    assert.ok(tookMs < PROMISED_MS, `exited after ${Math.round(tookMs)} ms`)
    assert.equal(code, 0)

    const { rows } = await store.read(() => statement<{ status: string, attempts: number, lease_until: string | null }>('select status, attempts, lease_until from webhook_deliveries', []))
    assert.deepEqual(rows.map((r) => [r.status, Number(r.attempts), r.lease_until !== null]), [['pending', 0, true]], 'not counted as a failed attempt: its lease gives it to another node')
  } finally {
    await store.close()
  }
})
