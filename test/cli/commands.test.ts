import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { userInfo } from 'node:os'
import { test, type TestContext } from 'node:test'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { readSettings } from '../../src/config/env.ts'
import { openStore } from '../../src/store/store.ts'
import { failed, runCli, succeeded } from '../helpers/cli.ts'
import { runCli as runCliProcess } from '../helpers/cli-process.ts'
import { freshDatabase } from '../helpers/database.ts'

// The tourdesk CLI on a real database: a fresh SQLite file, or a fresh PostgreSQL schema under
// TEST_DATABASE_URL. Results on stdout, messages on stderr, exit 0, 1 (failure, one line) or 2
// (usage). Commands run through the CLI's entry in this process (test/helpers/cli.ts); the
// last tests run it as its own process, as a shell does (docs/testing.md).
const LISBON = 'lx4t7k2m'
const PASSWORD = 'correct horse battery staple'

async function database(t: TestContext) {
  const db = await freshDatabase()
  t.after(db.drop)
  const env = { DATABASE_URL: db.url, HOST: 'tourdesk.example', PORT: '8080' }
  return {
    env,
    run: (args: string[], stdin?: string) => runCli(args, { env, stdin }),
    /** Reads the database the CLI wrote, after it exited. */
    async rows<T>(read: (store: Awaited<ReturnType<typeof openStore>>) => Promise<T>): Promise<T> {
      const store = await openStore(readSettings({ DATABASE_URL: db.url }).database, { migrate: false })
      try {
        return await read(store)
      } finally {
        await store.close()
      }
    },
  }
}

const add = ['staff', 'add', '--instance', 'lisbon']

/** Runs a few commands at a time: enough to be quick, few enough not to starve a loaded CI machine. */
async function inBatches<T, R>(items: T[], work: (item: T) => Promise<R>, size = 4): Promise<R[]> {
  const results: R[] = []
  for (let i = 0; i < items.length; i += size) results.push(...await Promise.all(items.slice(i, i + size).map(work)))
  return results
}

test('staff add prints the setup link alone on stdout, built from TOURDESK_PUBLIC_URL or else HOST and PORT, and the audit log names the CLI', async (t) => {
  const { run, rows } = await database(t)
  const added = succeeded(await run([...add, '--email', 'Maria@Example.PT', '--name', 'Maria Costa', '--role', 'manager']))
  assert.match(added.stdout, /^http:\/\/tourdesk\.example:8080\/admin\/lisbon\/setup#[A-Za-z0-9_-]{43}\n$/)
  assert.match(added.stderr, /^tourdesk: maria@example\.pt \(manager\) added to lisbon; the setup link works once, within 24 hours\n$/)
  const { env } = await database(t)
  const behindProxy = succeeded(await runCli([...add, '--email', 'joao@example.pt', '--name', 'João Reis', '--role', 'guide'], { env: { ...env, TOURDESK_PUBLIC_URL: 'https://book.example.com' } }))
  assert.match(behindProxy.stdout, /^https:\/\/book\.example\.com\/admin\/lisbon\/setup#[A-Za-z0-9_-]{43}\n$/, 'TOURDESK_PUBLIC_URL, where staff reach the server, comes first')

  const [entry] = await rows((store) => store.db.selectFrom('audit_log').selectAll().where('instance_id', '=', LISBON).execute())
  assert.deepEqual([entry.actor_type, entry.actor_id, entry.actor_name, entry.action, entry.request_id], ['system', 'cli', `cli (${userInfo().username})`, 'staff.added', null])
  assert.equal(JSON.parse(entry.after!).email, 'maria@example.pt')

  const json = succeeded(await run(['staff', 'list', '--instance', 'lisbon']))
  const [account] = JSON.parse(json.stdout)
  assert.deepEqual({ ...account, id: undefined, created_at: undefined, updated_at: undefined },
    { id: undefined, email: 'maria@example.pt', name: 'Maria Costa', role: 'manager', disabled: false, set_up: false, created_at: undefined, updated_at: undefined })
  assert.equal(json.stderr, '', 'a listing says nothing on stderr')
  assert.equal(succeeded(await run(['staff', 'list', '--instance', 'nyc'])).stdout, '[]\n', 'accounts belong to one instance')

  const csv = succeeded(await run(['staff', 'list', '--instance', 'lisbon', '--format', 'csv'])).stdout
  assert.equal(csv, `id,email,name,role,disabled,set_up,created_at\r\n${account.id},maria@example.pt,Maria Costa,manager,false,false,${account.created_at}\r\n`)
  const table = succeeded(await run(['staff', 'list', '--instance', 'lisbon', '--format', 'table'])).stdout.split('\n')
  assert.match(table[0], /^id +email +name +role +disabled +set_up +created_at$/)
  assert.match(table[1], new RegExp(`^${account.id} +maria@example\\.pt +Maria Costa +manager +no +no +`))
})

test('staff add --password-stdin sets the password and prints nothing; a taken email or a short password fail with one line', async (t) => {
  const { run, rows } = await database(t)
  const added = succeeded(await run([...add, '--email', 'ana@example.pt', '--name', 'Ana', '--role', 'staff', '--password-stdin'], `${PASSWORD}\n`))
  assert.equal(added.stdout, '')
  assert.match(added.stderr, /^tourdesk: ana@example\.pt \(staff\) can sign in to lisbon now\n$/)
  const account = await rows((store) => store.staff.findByEmail(LISBON, 'ana@example.pt'))
  assert.ok(account?.password_hash?.startsWith('scrypt$'))

  failed(await run([...add, '--email', 'ANA@example.pt', '--name', 'Ana again', '--role', 'staff']), /ana@example\.pt already has an account here/)
  failed(await run([...add, '--email', 'rui@example.pt', '--name', 'Rui', '--role', 'staff', '--password-stdin'], 'too short\n'), /at least 12 characters/)
  assert.equal(await rows((store) => store.staff.findByEmail(LISBON, 'rui@example.pt')), undefined, 'the failure changed nothing')
})

test('staff disable disables an account, but never the last active manager', async (t) => {
  const { run, rows } = await database(t)
  succeeded(await run([...add, '--email', 'boss@example.pt', '--name', 'Boss', '--role', 'manager', '--password-stdin'], PASSWORD))
  succeeded(await run([...add, '--email', 'guide@example.pt', '--name', 'Guide', '--role', 'guide']))
  const disabled = succeeded(await run(['staff', 'disable', '--instance', 'lisbon', '--email', 'GUIDE@example.pt']))
  assert.equal(disabled.stdout, '')
  assert.match(disabled.stderr, /guide@example\.pt is disabled in lisbon/)
  assert.equal((await rows((store) => store.staff.findByEmail(LISBON, 'guide@example.pt')))?.disabled, 1)
  failed(await run(['staff', 'disable', '--instance', 'lisbon', '--email', 'boss@example.pt']), /last active manager/)
  failed(await run(['staff', 'disable', '--instance', 'lisbon', '--email', 'nobody@example.pt']), /nobody@example\.pt has no account in lisbon/)
})

test('staff reset prints a new setup link alone on stdout; the earlier one stops working; an unknown or disabled account fails with one line', async (t) => {
  const { run, rows } = await database(t)
  succeeded(await run([...add, '--email', 'boss@example.pt', '--name', 'Boss', '--role', 'manager', '--password-stdin'], PASSWORD))
  const first = succeeded(await run([...add, '--email', 'guide@example.pt', '--name', 'Guide', '--role', 'guide'])).stdout.trim()
  const reset = succeeded(await run(['staff', 'reset', '--instance', 'lisbon', '--email', 'Boss@example.pt']))
  assert.match(reset.stdout, /^http:\/\/tourdesk\.example:8080\/admin\/lisbon\/setup#[A-Za-z0-9_-]{43}\n$/)
  assert.match(reset.stderr, /^tourdesk: a new setup link for boss@example\.pt in lisbon; it works once, within 24 hours\n$/)
  succeeded(await run(['staff', 'reset', '--instance', 'lisbon', '--email', 'guide@example.pt']))
  const hashOf = (link: string) => createHash('sha256').update(new URL(link).hash.slice(1)).digest('base64url')
  const tokens = await rows((store) => store.db.selectFrom('staff_setup_tokens').select(['token_hash', 'used_at']).where('instance_id', '=', LISBON).execute())
  assert.notEqual(tokens.find((row) => row.token_hash === hashOf(first))?.used_at, null, "the guide's first link is spent")
  assert.equal(tokens.find((row) => row.token_hash === hashOf(reset.stdout.trim()))?.used_at, null, "the manager's new link is live")
  const [entry] = await rows((store) => store.db.selectFrom('audit_log').selectAll().where('action', '=', 'staff.setup_link_issued').execute())
  assert.equal(entry.actor_type, 'system')

  failed(await run(['staff', 'reset', '--instance', 'lisbon', '--email', 'nobody@example.pt']), /nobody@example\.pt has no account in lisbon/)
  succeeded(await run(['staff', 'disable', '--instance', 'lisbon', '--email', 'guide@example.pt']))
  failed(await run(['staff', 'reset', '--instance', 'lisbon', '--email', 'guide@example.pt']), /guide@example\.pt is disabled; enable the account first/)
})

test('keys create prints the secret alone on stdout, keys list shows only its prefix, keys revoke revokes it', async (t) => {
  const { run, rows } = await database(t)
  const created = succeeded(await run(['keys', 'create', '--instance', 'lisbon', '--name', 'Website sync', '--role', 'viewer']))
  assert.match(created.stdout, /^tdk_[A-Za-z0-9]{32,}\n$/)
  const secret = created.stdout.trim()
  const listed = succeeded(await run(['keys', 'list', '--instance', 'lisbon', '--format', 'json']))
  const [key] = JSON.parse(listed.stdout)
  assert.deepEqual([key.name, key.role, key.prefix, key.revoked_at], ['Website sync', 'viewer', secret.slice(0, 8), null])
  assert.ok(!listed.stdout.includes(secret))
  assert.match(created.stderr, new RegExp(`API key ${key.id} \\(viewer\\) created in lisbon`))

  const revoked = succeeded(await run(['keys', 'revoke', '--instance', 'lisbon', '--id', key.id]))
  assert.equal(revoked.stdout, '')
  const [after] = JSON.parse(succeeded(await run(['keys', 'list', '--instance', 'lisbon'])).stdout)
  assert.notEqual(after.revoked_at, null)
  failed(await run(['keys', 'revoke', '--instance', 'lisbon', '--id', key.id]), /No live API key has this id/)
  const actions = await rows((store) => store.audit.list(LISBON, { limit: 10 }))
  assert.deepEqual(actions.map((a) => [a.action, a.actor_id]), [['api_key.revoked', 'cli'], ['api_key.created', 'cli']])
})

test('a usage error exits 2 with the reason on stderr and nothing on stdout', async (t) => {
  const { run } = await database(t)
  const cases: Array<[string[], RegExp]> = [
    [[], /Usage: tourdesk/],
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['staff'], /Usage: tourdesk staff/],
    [[...add, '--email', 'a@example.pt', '--name', 'A'], /required option '--role <role>' not specified/],
    [[...add, '--email', 'a@example.pt', '--name', 'A', '--role', 'owner'], /argument 'owner' is invalid/],
    [[...add, '--email', 'not-an-email', '--name', 'A', '--role', 'staff'], /not an email address/],
    [['staff', 'list'], /required option '--instance <prefix>'/],
    [['staff', 'list', '--instance', 'lisbon', '--format', 'xml'], /argument 'xml' is invalid/],
    [['staff', 'list', '--instance', 'lisbon', 'extra'], /too many arguments/],
    [['keys', 'revoke', '--instance', 'lisbon'], /required option '--id <id>'/],
    [['staff', 'list', '--instance', 'lisbon', '--colour'], /unknown option '--colour'/],
  ]
  const runs = await inBatches(cases, ([args]) => run(args))
  runs.forEach((result, i) => {
    const [args, why] = cases[i]
    assert.equal(result.code, 2, `${args.join(' ')}: exit ${result.code}\n${result.stderr}`)
    assert.equal(result.stdout, '', args.join(' '))
    assert.match(result.stderr, why, args.join(' '))
  })
})

test('--help works on every command, on stdout, with exit 0', async () => {
  const commands = [[], ['staff'], ['staff', 'add'], ['staff', 'list'], ['staff', 'disable'], ['keys'], ['keys', 'create'], ['keys', 'list'], ['keys', 'revoke'],
    ['bookings'], ['bookings', 'list'], ['manifest'], ['catalog'], ['catalog', 'import'], ['catalog', 'export'], ['privacy'], ['privacy', 'export'], ['privacy', 'erase'], ['migrate']]
  const runs = await inBatches(commands, (command) => runCli([...command, '--help'], { env: { DATABASE_URL: 'sqlite:/nonexistent/never-opened.db' } }))
  runs.forEach((result, i) => {
    const name = ['tourdesk', ...commands[i]].join(' ')
    assert.equal(result.code, 0, `${name} --help: ${result.stderr}`)
    assert.ok(result.stdout.startsWith(`Usage: ${name}`), `${name} --help:\n${result.stdout}`)
    assert.equal(result.stderr, '')
  })
})

test("the package's tourdesk bin runs the same CLI", async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['src/cli/bin.js', 'keys', '--help'], { cwd: fileURLToPath(new URL('../../', import.meta.url)) })
  assert.match(stdout, /^Usage: tourdesk keys /)
  const bin = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).bin
  assert.deepEqual(bin, { tourdesk: 'src/cli/bin.js' })
})

test('a failure exits 1 with one line: an unknown instance, a bad DATABASE_URL or an unreadable catalog on an empty database', async (t) => {
  const { run, env } = await database(t)
  const empty = await database(t)
  failed(await runCli(['staff', 'list', '--instance', 'lisbon'], { env: { ...empty.env, TOURDESK_CONFIG: '/nonexistent/catalog.json' } }), /nonexistent\/catalog\.json/)
  failed(await run(['staff', 'list', '--instance', 'paris']), /no instance has the prefix "paris"; the catalog has lisbon, nyc/)
  failed(await runCli(['staff', 'list', '--instance', 'lisbon'], { env: { ...env, DATABASE_URL: 'mysql://db/tourdesk' } }), /^tourdesk: invalid configuration: DATABASE_URL must start with sqlite: or postgres:\/\//)
  // The database holds a catalog now: the file is not needed, and saying so is enough.
  const served = succeeded(await runCli(['staff', 'list', '--instance', 'lisbon', '--format', 'json'], { env: { ...env, TOURDESK_CONFIG: '/nonexistent/catalog.json' } }))
  assert.deepEqual(JSON.parse(served.stdout), [])
  assert.match(served.stderr, /the catalog file \/nonexistent\/catalog\.json cannot be used \(TOURDESK_CONFIG cannot be read: \/nonexistent\/catalog\.json \(ENOENT\)\); the catalog the database holds is served/)
})

test('migrate brings a fresh database to the latest schema and says so on stderr', async (t) => {
  const { run, rows } = await database(t)
  const migrated = succeeded(await run(['migrate']))
  assert.equal(migrated.stdout, '')
  assert.match(migrated.stderr, /^tourdesk: the (sqlite|postgres) database is migrated to the latest schema\n$/)
  assert.deepEqual(await rows((store) => store.staff.list(LISBON)), [])
  succeeded(await run(['migrate']))
})

test('as its own process: exit 0, 1 and 2 as the shell sees them, results alone on stdout, messages alone on stderr, the password read from stdin', async (t) => {
  const { env, rows } = await database(t)
  // One process at a time on the same database: the first migrates it.
  const added = succeeded(await runCliProcess([...add, '--email', 'ana@example.pt', '--name', 'Ana', '--role', 'manager', '--password-stdin'], { env, stdin: `${PASSWORD}\n` }))
  assert.equal(added.stdout, '')
  assert.equal(added.stderr, 'tourdesk: ana@example.pt (manager) can sign in to lisbon now\n')
  assert.ok((await rows((store) => store.staff.findByEmail(LISBON, 'ana@example.pt')))?.password_hash?.startsWith('scrypt$'))
  const [listed, refused, misused, helped] = await Promise.all([
    runCliProcess(['staff', 'list', '--instance', 'lisbon'], { env }),
    runCliProcess(['staff', 'list', '--instance', 'paris'], { env }),
    runCliProcess(['staff', 'list', '--instance', 'lisbon', '--colour'], { env }),
    runCliProcess(['staff', '--help'], { env }),
  ])
  assert.deepEqual(JSON.parse(succeeded(listed).stdout).map((account: { email: string }) => account.email), ['ana@example.pt'], 'JSON when stdout is a pipe')
  assert.equal(listed.stderr, '')
  failed(refused, /no instance has the prefix "paris"/)
  assert.equal(misused.code, 2, misused.stderr)
  assert.equal(misused.stdout, '')
  assert.match(misused.stderr, /unknown option '--colour'/)
  assert.ok(succeeded(helped).stdout.startsWith('Usage: tourdesk staff'), helped.stdout)
  assert.equal(helped.stderr, '')
})
