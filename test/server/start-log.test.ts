import assert from 'node:assert/strict'
import { test, type TestContext } from 'node:test'
import { freshDatabase } from '../helpers/database.ts'
import { startServer } from '../helpers/server-process.ts'

// What `npm start` prints (src/server.ts): where each instance's API, booking page and back
// office are, and a warning when emails are on while their links and sender name no public host.

interface LogLine { level: number, msg: string, instance?: string, back_office?: string }

async function startLog(t: TestContext, env: Record<string, string>): Promise<{ origin: string, lines: LogLine[] }> {
  const db = await freshDatabase()
  const server = await startServer({ DATABASE_URL: db.url, ...env })
  t.after(async () => {
    await server.stop()
    await db.drop()
  })
  // The manager warnings come last; once nyc's is there, the start has said everything.
  while (!server.output().includes('nyc has no manager yet')) await new Promise((resolve) => server.child.stdout!.once('data', resolve))
  const lines = server.output().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as LogLine)
  return { origin: server.origin, lines }
}

test('the start prints each instance’s back office beside its API and booking page, and it answers there', async (t) => {
  const { origin, lines } = await startLog(t, {})
  for (const prefix of ['lisbon', 'nyc']) {
    const line = lines.find((l) => l.instance === prefix && l.back_office)
    assert.ok(line, `a back office line for ${prefix}`)
    assert.equal(line.back_office, `${origin}/admin/${prefix}/`)
    assert.match(line.msg, new RegExp(`back office: ${origin}/admin/${prefix}/$`))
    const page = await fetch(line.back_office)
    assert.equal(page.status, 200)
    assert.match(page.headers.get('content-type')!, /text\/html/)
  }
  assert.ok(!lines.some((l) => /TOURDESK_PUBLIC_URL/.test(l.msg)), 'no email warning while emails are off')
})

test('emails on without TOURDESK_PUBLIC_URL: a warning per instance names the links’ origin and the sender, and what to set', async (t) => {
  const { origin, lines } = await startLog(t, { SMTP_URL: 'smtp://127.0.0.1:9' })
  const warnings = lines.filter((l) => l.level === 40 && /TOURDESK_PUBLIC_URL/.test(l.msg))
  assert.deepEqual(warnings.map((l) => l.instance), ['lisbon', 'nyc'])
  const lisbon = warnings[0].msg
  assert.ok(lisbon.includes(`their links point at ${origin}`), lisbon)
  assert.ok(lisbon.includes('come from no-reply@localhost (email_from is unset)'), lisbon)
  assert.ok(lisbon.includes('set TOURDESK_PUBLIC_URL to where guests reach the service and email_from'), lisbon)
})

test('emails on with TOURDESK_PUBLIC_URL and no back office (TOURDESK_ADMIN=off): neither the warning nor a back office line', async (t) => {
  const { lines } = await startLog(t, { SMTP_URL: 'smtp://127.0.0.1:9', TOURDESK_PUBLIC_URL: 'https://book.example.com', TOURDESK_ADMIN: 'off' })
  assert.ok(!lines.some((l) => /TOURDESK_PUBLIC_URL/.test(l.msg)), 'no warning')
  assert.ok(!lines.some((l) => l.back_office), 'no back office to name')
})
