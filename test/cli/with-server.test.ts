import assert from 'node:assert/strict'
import { test, type TestContext } from 'node:test'
import { runCli } from '../helpers/cli.ts'
import { migratedDatabase } from '../helpers/database.ts'
import { OperatorClient } from '../helpers/operator.ts'
import { startServer, type ServerProcess } from '../helpers/server-process.ts'

// The CLI and a started service (src/server.ts bundled as `npm start` runs it, its own process) on one real database:
// what the CLI writes, the service honours at once, and the other way round.
const PASSWORD = 'correct horse battery staple'

async function setting(t: TestContext) {
  const db = await migratedDatabase()
  const servers: ServerProcess[] = []
  t.after(async () => {
    for (const server of servers) await server.stop()
    await db.drop()
  })
  return {
    cli: (args: string[], stdin?: string) => runCli(args, { env: { DATABASE_URL: db.url }, stdin }),
    async start() {
      const server = await startServer({ DATABASE_URL: db.url })
      servers.push(server)
      return server
    },
  }
}

/** Waits, by the process's own output events, until everything it has printed matches `pattern`. */
async function printed(server: ServerProcess, pattern: RegExp): Promise<string> {
  if (pattern.test(server.output())) return server.output()
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service never printed ${pattern}:\n${server.output()}`)), 10_000)
    const check = () => {
      if (!pattern.test(server.output())) return
      clearTimeout(timer)
      server.child.stdout!.off('data', check)
      setImmediate(() => resolve(server.output()))
    }
    server.child.stdout!.on('data', check)
  })
}

const noManagerLine = (prefix: string) =>
  `${prefix} has no manager yet: npm run tourdesk -- staff add --instance ${prefix} --email you@example.com --name \\"Your Name\\" --role manager`

async function signIn(origin: string, email: string, password = PASSWORD) {
  const res = await new OperatorClient(origin, 'lisbon').post('/session', { email, password })
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
  return { res, client: new OperatorClient(origin, 'lisbon', { cookie, csrf: res.body.csrf_token }) }
}

test('the service says how to make the first manager; one made by staff add --password-stdin signs in at once, and the line goes', async (t) => {
  const { cli, start } = await setting(t)
  const first = await start()
  const output = await printed(first, /nyc has no manager yet/)
  for (const prefix of ['lisbon', 'nyc']) assert.equal(output.split(noManagerLine(prefix)).length, 2, `one line for ${prefix}:\n${output}`)

  const added = await cli(['staff', 'add', '--instance', 'lisbon', '--email', 'maria@example.pt', '--name', 'Maria Costa', '--role', 'manager', '--password-stdin'], `${PASSWORD}\n`)
  assert.equal(added.code, 0, added.stderr)
  assert.equal(added.stdout, '')
  const { res, client } = await signIn(first.origin, 'Maria@Example.pt')
  assert.equal(res.status, 200, res.text)
  assert.deepEqual(res.body.user.role, 'manager')
  const staff = await client.get('/staff')
  assert.equal(staff.status, 200, staff.text)
  assert.deepEqual(staff.body.staff.map((s: { email: string }) => s.email), ['maria@example.pt'])
  const [entry] = (await client.get('/audit')).body.entries
  assert.deepEqual([entry.action, entry.actor.type, entry.actor.id, entry.request_id], ['staff.added', 'system', 'cli', null])
  assert.match(entry.actor.name, /^cli \(.+\)$/)

  const second = await start()
  const again = await printed(second, /nyc has no manager yet/)
  assert.ok(!again.includes('lisbon has no manager yet'), again)
})

test('a setup link from staff add works on the service, once', async (t) => {
  const { cli, start } = await setting(t)
  const server = await start()
  const added = await cli(['staff', 'add', '--instance', 'lisbon', '--email', 'rui@example.pt', '--name', 'Rui', '--role', 'guide'])
  assert.equal(added.code, 0, added.stderr)
  const token = new URL(added.stdout.trim()).hash.slice(1)
  const anonymous = new OperatorClient(server.origin, 'lisbon')
  assert.equal((await anonymous.post('/setup', { token, password: PASSWORD })).status, 200)
  assert.equal((await anonymous.post('/setup', { token, password: PASSWORD })).status, 410)
  assert.equal((await signIn(server.origin, 'rui@example.pt')).res.status, 200)
  const disabled = await cli(['staff', 'disable', '--instance', 'lisbon', '--email', 'rui@example.pt'])
  assert.equal(disabled.code, 0, disabled.stderr)
  assert.equal((await signIn(server.origin, 'rui@example.pt')).res.status, 401, 'a disabled account cannot sign in')
})

test('a key made by keys create works on the service until keys revoke, then it is 401', async (t) => {
  const { cli, start } = await setting(t)
  const server = await start()
  const created = await cli(['keys', 'create', '--instance', 'lisbon', '--name', 'Booking sync', '--role', 'viewer'])
  assert.equal(created.code, 0, created.stderr)
  const client = new OperatorClient(server.origin, 'lisbon', { bearer: created.stdout.trim() })
  const me = await client.get('/me')
  assert.equal(me.status, 200, me.text)
  const revoked = await cli(['keys', 'revoke', '--instance', 'lisbon', '--id', me.body.id])
  assert.equal(revoked.code, 0, revoked.stderr)
  const refused = await client.get('/me')
  assert.equal(refused.status, 401)
  assert.equal(refused.body.code, 'unauthenticated')
})

test('privacy export and erase by the CLI see and erase what a guest left through the service', async (t) => {
  const { cli, start } = await setting(t)
  const server = await start()
  const guest = `${server.origin}/api/lisbon`
  const post = (path: string, body: unknown) => fetch(`${guest}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  assert.equal((await post('/contact', { message: 'Can I bring my dog?', name: 'Ana', email: 'ana@example.pt' })).status, 200)
  assert.equal((await post('/newsletter', { email: 'Ana@example.pt' })).status, 200)

  const exported = await cli(['privacy', 'export', '--instance', 'lisbon', '--email', 'ANA@example.pt'])
  assert.equal(exported.code, 0, exported.stderr)
  const data = JSON.parse(exported.stdout)
  assert.deepEqual([data.email, data.contact_messages.map((m: { message: string }) => m.message), data.newsletter_signups.length],
    ['ana@example.pt', ['Can I bring my dog?'], 1])

  const erased = await cli(['privacy', 'erase', '--instance', 'lisbon', '--email', 'ana@example.pt'])
  assert.equal(erased.code, 0, erased.stderr)
  assert.deepEqual(JSON.parse(erased.stdout), {
    contact_messages: 1, newsletter_signups: 1, newsletter_subscriptions: 1, bookings_anonymised: 0, stored_answers: 0, emails: 0, operator_emails: 0, events_scrubbed: 2, audit_entries_scrubbed: 0,
  })
  const after = JSON.parse((await cli(['privacy', 'export', '--instance', 'lisbon', '--email', 'ana@example.pt'])).stdout)
  assert.deepEqual([after.contact_messages, after.newsletter_signups, after.newsletter_subscriptions], [[], [], []])

  const key = await cli(['keys', 'create', '--instance', 'lisbon', '--name', 'Auditor', '--role', 'viewer'])
  const entries = (await new OperatorClient(server.origin, 'lisbon', { bearer: key.stdout.trim() }).get('/audit?actor=cli')).body.entries
  assert.deepEqual(entries.map((e: { action: string }) => e.action), ['api_key.created', 'privacy.exported', 'privacy.erased', 'privacy.exported'])
  assert.ok(!JSON.stringify(entries).includes('ana@'), 'the audit log keeps no address')
})
