import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { systemClock } from '../../src/domain/clock.ts'
import { toStoredInstant } from '../../src/domain/instant-format.ts'
import { openStore } from '../../src/store/store.ts'
import { emit, statement } from '../../src/store/write-plan.ts'
import { demoCatalog } from '../helpers/build.ts'
import { ApiClient } from '../helpers/client.ts'
import { freshDatabase, testDialect } from '../helpers/database.ts'
import { startServer, type ServerProcess } from '../helpers/server-process.ts'
import { mailSink } from '../helpers/smtp.ts'

const EVENTS = 200
const OPERATOR = 'ops@tours.example'
const GUEST = 'reminded@example.org'

/** Waits for `condition`, checking every 100 ms, for at most `ms`. */
async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * Three server processes on one database make and send the emails of 200 events: each
 * event's email arrives once. A booking whose reminder is due is reminded once, though every
 * node looks for due reminders every second.
 */
test(`three nodes send each event's email once and a reminder once (${testDialect})`, { timeout: 120_000 }, async (t) => {
  const database = await freshDatabase()
  const sink = await mailSink()
  const folder = mkdtempSync(join(tmpdir(), 'tourdesk-email-'))
  const nodes: ServerProcess[] = []
  t.after(async () => {
    for (const node of nodes) await node.stop('SIGKILL')
    await sink.close()
    await database.drop()
    rmSync(folder, { recursive: true, force: true })
  })
  const catalog = demoCatalog()
  Object.assign(catalog.instances.find((i: { prefix: string }) => i.prefix === 'lisbon'),
    { operator_emails: [OPERATOR], emails_per_recipient_per_hour: 1000, reminder_hours: 336 })
  const catalogPath = join(folder, 'catalog.json')
  writeFileSync(catalogPath, JSON.stringify(catalog))
  const env = { DATABASE_URL: database.url, TOURDESK_CONFIG: catalogPath, SMTP_URL: sink.url, TOURDESK_SWEEP_SECONDS: '1' }
  nodes.push(await startServer(env))

  // A booking made long ago, so its reminder is due now (reminder_hours 336 covers the next 14 days).
  const client = new ApiClient(nodes[0].origin, 'lisbon', null)
  const { body: availability } = await client.get('/availability?tour=alfama-walk&days=14&party=1')
  const slot = (availability.slots as Array<{ start: string, bookable: boolean }>).find((s) => s.bookable)!
  const session = await client.session()
  assert.equal((await client.post('/booking', { tour_id: 'alfama-walk', start: slot.start, party: 1 }, { headers: session.headers })).status, 200)
  const checkout = await client.post('/checkout', { name: 'Remi', email: GUEST }, { headers: session.headers })
  assert.equal(checkout.status, 200, checkout.text)

  const store = await openStore(database.target)
  try {
    const longAgo = toStoredInstant(systemClock.now().subtract({ hours: 24 * 30 }))
    await store.write(() => statement('update bookings set created_at = ? where id = ?', [longAgo, checkout.body.id]))
    const { rows: [lisbon] } = await store.read(() => statement<{ instance_id: string }>(`select instance_id from catalog_instances where prefix = 'lisbon'`, []))
    const now = toStoredInstant(systemClock.now())
    for (let batch = 0; batch < EVENTS / 50; batch++) {
      await store.write(function* () {
        for (let i = 0; i < 50; i++) {
          yield* emit({ instanceId: lisbon.instance_id, type: 'contact.received', subject: { type: 'contact', id: `c${batch}-${i}` }, occurredAt: now,
            data: { name: `Guest ${batch * 50 + i}`, email: null, message: `message ${batch * 50 + i}` } })
        }
      })
    }
    nodes.push(await startServer(env), await startServer(env))

    const contactMessages = () => sink.messages.filter((m) => m.subject?.startsWith('Contact message from Guest '))
    const reminders = () => sink.messages.filter((m) => m.subject?.startsWith('See you soon'))
    await until(() => contactMessages().length >= EVENTS && reminders().length >= 1, 60_000, `${EVENTS} contact emails and a reminder`)
    const queued = async () => Number((await store.read(() => statement<{ n: number }>(`select count(*) as n from emails where state <> 'sent'`, []))).rows[0].n)
    while (await queued() > 0) await new Promise((resolve) => setTimeout(resolve, 100))
    for (const node of nodes) await node.stop('SIGTERM')

    const bySubject = new Map<string, number>()
    for (const mail of contactMessages()) bySubject.set(mail.subject!, (bySubject.get(mail.subject!) ?? 0) + 1)
    assert.equal(bySubject.size, EVENTS, 'every event made its email')
    assert.deepEqual([...bySubject.values()].filter((n) => n !== 1), [], 'each arrived once')
    assert.equal(reminders().length, 1, 'one reminder')
    const { rows } = await store.read(() => statement<{ kind: string, state: string, n: number }>(
      'select kind, state, count(*) as n from emails group by kind, state order by kind, state', []))
    t.diagnostic(JSON.stringify(rows))
    assert.ok(rows.every((r) => r.state === 'sent'), JSON.stringify(rows))
  } finally {
    await store.close()
  }
})
