import assert from 'node:assert/strict'
import { test } from 'node:test'
import { SESSION_COOKIE } from '../../src/http/session.ts'
import { build, type TestService } from '../helpers/build.ts'
import { checked, operatorContract } from '../helpers/operator-contract.ts'
import { apiKeyClient, OperatorClient, signedInStaff, STAFF_PASSWORD } from '../helpers/operator.ts'

// Staff accounts (GET|POST /staff, PATCH|DELETE /staff/{id}) and the credentials around them:
// sign-in timing and lockout, CSRF and Origin on staff writes, sessions on another instance,
// disabled accounts and the guest's cookie. Over real HTTP; the clock is the injected one.

async function manager(service: TestService) {
  const signedIn = await signedInStaff(service, 'manager')
  return { ...signedIn, client: checked(signedIn.client, await operatorContract(service)) }
}

async function idOf(client: OperatorClient, email: string): Promise<string> {
  const { body } = await client.get('/staff?limit=200')
  const account = body.staff.find((s: { email: string }) => s.email === email)
  assert.ok(account, `${email} is not listed`)
  return account.id
}

const cookieOf = (signIn: { headers: Headers }) => signIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

test('a manager adds an account with a setup link, the person sets a password and signs in, the manager changes and disables it', async (t) => {
  const service = await build(t)
  const { client } = await manager(service)

  const added = await client.post('/staff', { email: 'Rita@Example.PT', name: 'Rita Guide', role: 'guide' })
  assert.equal(added.status, 201, added.text)
  assert.equal(added.headers.get('cache-control'), 'no-store')
  assert.deepEqual({ ...added.body.staff, id: undefined, created_at: undefined, updated_at: undefined },
    { id: undefined, email: 'rita@example.pt', name: 'Rita Guide', role: 'guide', disabled: false, set_up: false, created_at: undefined, updated_at: undefined })
  assert.equal(added.body.staff.created_at, '2026-06-01T09:00:00+01:00')
  const link = new URL(added.body.setup_link)
  assert.equal(`${link.origin}${link.pathname}`, `${service.origin}/admin/lisbon/setup`)
  const token = link.hash.slice(1)
  assert.ok(token.length >= 32)

  const anonymous = new OperatorClient(service.origin, 'lisbon')
  assert.equal((await anonymous.post('/session', { email: 'rita@example.pt', password: STAFF_PASSWORD })).status, 401, 'no password before setup')
  const setUp = await anonymous.post('/setup', { token, password: STAFF_PASSWORD })
  assert.equal(setUp.status, 200, setUp.text)
  assert.equal(setUp.body.set_up, true)
  assert.equal((await anonymous.post('/setup', { token, password: STAFF_PASSWORD })).status, 410, 'the link works once')
  const rita = await anonymous.post('/session', { email: 'RITA@example.pt', password: STAFF_PASSWORD })
  assert.equal(rita.status, 200, rita.text)
  const ritaClient = new OperatorClient(service.origin, 'lisbon', { cookie: cookieOf(rita), csrf: rita.body.csrf_token })
  assert.equal((await ritaClient.get('/me')).body.role, 'guide')

  const id = added.body.staff.id
  service.clock.advance({ seconds: 1 })
  const promoted = await client.patch(`/staff/${id}`, { role: 'staff' })
  assert.equal(promoted.status, 200, promoted.text)
  assert.equal(promoted.body.role, 'staff')
  assert.equal((await ritaClient.get('/me')).body.role, 'staff', 'a role change applies to live sessions')

  service.clock.advance({ seconds: 1 })
  const removed = await client.delete(`/staff/${id}`)
  assert.equal(removed.status, 200, removed.text)
  assert.equal(removed.body.disabled, true)
  assert.equal((await ritaClient.get('/me')).status, 401, "a disabled account's session stops working")
  assert.equal((await anonymous.post('/session', { email: 'rita@example.pt', password: STAFF_PASSWORD })).status, 401)
  assert.equal((await client.delete(`/staff/${id}`)).status, 200, 'removing again answers the same')
  const listed = (await client.get('/staff')).body.staff.find((s: { id: string }) => s.id === id)
  assert.equal(listed.disabled, true, 'the account is kept for the audit trail')

  service.clock.advance({ seconds: 1 })
  const enabled = await client.patch(`/staff/${id}`, { disabled: false })
  assert.equal(enabled.body.disabled, false)
  assert.equal((await anonymous.post('/session', { email: 'rita@example.pt', password: STAFF_PASSWORD })).status, 200)

  const actions = (await client.get(`/audit?action=staff.changed`)).body.entries
  assert.equal(actions.length, 3, 'removing twice is one change')
  assert.deepEqual(actions.map((e: any) => e.after), [{ role: 'staff', disabled: false }, { role: 'staff', disabled: true }, { role: 'staff', disabled: false }])
})

test('the staff list pages with limit and cursor, oldest first', async (t) => {
  const service = await build(t)
  const { client, email } = await manager(service)
  for (const name of ['a', 'b', 'c']) {
    service.clock.advance({ seconds: 1 })
    assert.equal((await client.post('/staff', { email: `${name}@example.com`, name, role: 'viewer' })).status, 201)
  }
  const seen: string[] = []
  let cursor: string | null = null
  do {
    const page: any = await client.get(`/staff?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
    assert.equal(page.status, 200, page.text)
    assert.ok(page.body.staff.length <= 2)
    seen.push(...page.body.staff.map((s: { email: string }) => s.email))
    cursor = page.body.next_cursor
  } while (cursor)
  assert.deepEqual(seen, [email, 'a@example.com', 'b@example.com', 'c@example.com'])
  const refused = await client.get('/staff?cursor=not-a-cursor')
  assert.equal(refused.status, 400)
  assert.equal(refused.body.code, 'validation_failed')
  assert.equal((await client.get('/staff?limit=201')).status, 400)
  assert.equal((await client.get('/staff?limit=0')).status, 400)
})

test('adding and changing staff refuses a taken email, a bad body and an unknown id', async (t) => {
  const service = await build(t)
  const { client, email } = await manager(service)
  const taken = await client.post('/staff', { email: email.toUpperCase(), name: 'Twin', role: 'staff' })
  assert.equal(taken.status, 409)
  assert.equal(taken.body.code, 'staff_exists')
  for (const body of [
    { email: 'x@example.com', name: 'X', role: 'owner' },
    { email: 'not an email', name: 'X', role: 'staff' },
    { email: 'x@example.com', name: '   ', role: 'staff' },
    { email: 'x@example.com', name: 'X', role: 'staff', password: 'given by the manager' },
  ]) {
    const res = await client.post('/staff', body)
    assert.equal(res.status, 400, JSON.stringify(body))
    assert.equal(res.body.code, 'validation_failed')
  }
  const id = await idOf(client, email)
  assert.equal((await client.patch(`/staff/${id}`, {})).status, 400, 'a change names at least one field')
  assert.equal((await client.patch(`/staff/${id}`, { name: 'Renamed' })).status, 400)
  assert.equal((await client.patch('/staff/no-such-id', { role: 'staff' })).status, 404)
  assert.equal((await client.delete('/staff/no-such-id')).status, 404)
  const nyc = await signedInStaff(service, 'manager', 'nyc')
  assert.equal((await nyc.client.patch(`/staff/${id}`, { role: 'staff' })).status, 404, "another instance's account is not there")
})

test('the last active manager cannot be demoted, disabled or removed', async (t) => {
  const service = await build(t)
  const { client, email } = await manager(service)
  const id = await idOf(client, email)
  for (const [method, body] of [['PATCH', { role: 'staff' }], ['PATCH', { disabled: true }], ['DELETE', undefined]] as const) {
    const res = await client.request(method, `/staff/${id}`, body)
    assert.equal(res.status, 409, `${method} ${JSON.stringify(body)}`)
    assert.equal(res.body.code, 'last_manager')
  }
  assert.equal((await client.patch(`/staff/${id}`, { role: 'manager', disabled: false })).status, 200, 'a change that keeps the manager is fine')

  const second = await client.post('/staff', { email: 'second@example.com', name: 'Second', role: 'manager' })
  const pending = await client.patch(`/staff/${id}`, { role: 'staff' })
  assert.equal(pending.status, 409, 'a manager whose invitation is still pending cannot sign in, so does not count')
  assert.equal(pending.body.code, 'last_manager')
  const token = new URL(second.body.setup_link).hash.slice(1)
  assert.equal((await new OperatorClient(service.origin, 'lisbon').post('/setup', { token, password: STAFF_PASSWORD })).status, 200)
  assert.equal((await client.patch(`/staff/${id}`, { role: 'staff' })).status, 200, 'with another manager, one may step down')
  assert.equal((await client.get('/staff')).status, 403, 'and then is no longer a manager')
  const key = await apiKeyClient(service, 'manager')
  const last = await key.client.delete(`/staff/${second.body.staff.id}`)
  assert.equal(last.status, 409)
  assert.equal(last.body.code, 'last_manager')
})

test('two managers demoted at once over parallel requests: exactly one demotion happens', async (t) => {
  const service = await build(t)
  const key = await apiKeyClient(service, 'manager')
  const a = await signedInStaff(service, 'manager')
  const b = await signedInStaff(service, 'manager')
  const ids = [await idOf(key.client, a.email), await idOf(key.client, b.email)]
  for (let round = 0; round < 4; round++) {
    const answers = await Promise.all(ids.map((id) => key.client.patch(`/staff/${id}`, { role: 'viewer' })))
    assert.deepEqual(answers.map((r) => r.status).sort(), [200, 409], answers.map((r) => r.text).join('\n'))
    assert.equal(answers.find((r) => r.status === 409)!.body.code, 'last_manager')
    const staff = (await key.client.get('/staff')).body.staff
    assert.equal(staff.filter((s: { role: string, disabled: boolean }) => s.role === 'manager' && !s.disabled).length, 1)
    const demoted = answers.find((r) => r.status === 200)!.body.id
    assert.equal((await key.client.patch(`/staff/${demoted}`, { role: 'manager' })).status, 200)
  }
  const both = await Promise.all(ids.map((id) => key.client.delete(`/staff/${id}`)))
  assert.deepEqual(both.map((r) => r.status).sort(), [200, 409], 'removals race the same way')
})

test('staff routes are for managers: other roles get 403, no credential 401, a manager key works without CSRF', async (t) => {
  const service = await build(t)
  const contract = await operatorContract(service)
  const { client } = await manager(service)
  const id = (await client.get('/staff')).body.staff[0].id
  const routes: Array<[string, string, unknown]> = [
    ['GET', '/staff', undefined],
    ['POST', '/staff', { email: 'new@example.com', name: 'New', role: 'guide' }],
    ['PATCH', `/staff/${id}`, { role: 'manager' }],
    ['DELETE', `/staff/${id}`, undefined],
  ]
  for (const role of ['guide', 'viewer', 'staff'] as const) {
    const session = checked((await signedInStaff(service, role)).client, contract)
    const key = checked((await apiKeyClient(service, role)).client, contract)
    for (const [method, path, body] of routes) {
      for (const caller of [session, key]) {
        const res = await caller.request(method, path, body)
        assert.equal(res.status, 403, `${role} ${method} ${path}`)
        assert.equal(res.body.code, 'forbidden')
      }
    }
  }
  const anonymous = checked(new OperatorClient(service.origin, 'lisbon'), contract)
  for (const [method, path, body] of routes) {
    const res = await anonymous.request(method, path, body)
    assert.equal(res.status, 401, `${method} ${path}`)
    assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="tourdesk"')
  }
  const key = checked((await apiKeyClient(service, 'manager')).client, contract)
  service.clock.advance({ seconds: 1 })
  assert.equal((await key.post('/staff', { email: 'by-key@example.com', name: 'By Key', role: 'viewer' })).status, 201)
  const audited = (await key.get('/audit?action=staff.added')).body.entries[0]
  assert.equal(audited.actor.type, 'key')
  assert.equal(audited.actor.name, 'manager key')
})

test('staff writes need the session CSRF token and a same-origin or absent Origin', async (t) => {
  const service = await build(t)
  const { client, signIn } = await manager(service)
  const cookie = cookieOf(signIn)
  const body = { email: 'csrf@example.com', name: 'C', role: 'viewer' }
  const withoutToken = await new OperatorClient(service.origin, 'lisbon', { cookie }).post('/staff', body)
  assert.equal(withoutToken.status, 403)
  assert.equal(withoutToken.body.code, 'csrf_missing')
  const wrongToken = await client.post('/staff', body, { 'x-csrf-token': 'not-the-token' })
  assert.equal(wrongToken.status, 403)
  assert.equal(wrongToken.body.code, 'csrf_invalid')
  const foreign = await client.post('/staff', body, { origin: 'https://alfama-tejo.example' })
  assert.equal(foreign.status, 403)
  assert.equal(foreign.body.code, 'origin_not_allowed')
  assert.equal((await client.get('/staff')).body.staff.length, 1, 'none of them added anyone')
  const sameOrigin = await client.post('/staff', body, { origin: service.origin })
  assert.equal(sameOrigin.status, 201, sameOrigin.text)
})

test('a session or key of one instance is 401 on the other, and the guest sid cookie never authenticates /admin', async (t) => {
  const service = await build(t)
  const { signIn } = await signedInStaff(service, 'manager')
  const cookie = cookieOf(signIn)
  const key = await apiKeyClient(service, 'manager')
  for (const credential of [{ cookie }, { bearer: key.secret }]) {
    const res = await new OperatorClient(service.origin, 'nyc', credential).get('/staff')
    assert.equal(res.status, 401, JSON.stringify(credential))
    assert.equal(res.body.code, 'unauthenticated')
  }
  const guest = await service.client('lisbon').session()
  for (const headers of [{ cookie: `${SESSION_COOKIE}=${guest.session}` }, guest.headers]) {
    const res = await new OperatorClient(service.origin, 'lisbon').get('/staff', headers)
    assert.equal(res.status, 401, JSON.stringify(headers))
  }
})

test('an unknown email and a wrong password take the same order of time', async (t) => {
  const service = await build(t)
  const accounts = [await signedInStaff(service, 'staff'), await signedInStaff(service, 'staff')]
  const anonymous = new OperatorClient(service.origin, 'lisbon')
  const timed = async (email: string) => {
    const started = performance.now()
    const res = await anonymous.post('/session', { email, password: 'not the password at all' })
    assert.equal(res.status, 401)
    assert.equal(res.body.code, 'invalid_credentials')
    return performance.now() - started
  }
  // Warm-up: the first refusal of an unknown email makes the decoy hash.
  await timed('warm-up@example.com')
  await timed(accounts[0].email)
  const unknown: number[] = []
  const wrong: number[] = []
  for (let i = 0; i < 5; i++) {
    unknown.push(await timed(`nobody-${i}@example.com`))
    wrong.push(await timed(accounts[i % 2].email))
  }
  const [u, w] = [median(unknown), median(wrong)]
  assert.ok(Math.max(u, w) <= 3 * Math.min(u, w), `unknown email ${u.toFixed(1)} ms, wrong password ${w.toFixed(1)} ms`)
})

test('five failed sign-ins lock the email for 15 minutes, even with the right password', async (t) => {
  const service = await build(t)
  const { email } = await signedInStaff(service, 'manager')
  const anonymous = new OperatorClient(service.origin, 'lisbon')
  for (let i = 0; i < 5; i++) assert.equal((await anonymous.post('/session', { email, password: `wrong password ${i}` })).status, 401)
  const locked = await anonymous.post('/session', { email, password: STAFF_PASSWORD })
  assert.equal(locked.status, 429)
  assert.equal(locked.body.code, 'rate_limited')
  assert.equal(locked.headers.get('retry-after'), '900')
  service.clock.advance({ minutes: 14, seconds: 59 })
  assert.equal((await anonymous.post('/session', { email: email.toUpperCase(), password: STAFF_PASSWORD })).status, 429, 'the lock is per email, whatever its case')
  service.clock.advance({ seconds: 1 })
  const open = await anonymous.post('/session', { email, password: STAFF_PASSWORD })
  assert.equal(open.status, 200, open.text)
  const other = await signedInStaff(service, 'staff')
  assert.ok(other.signIn.body.csrf_token, 'another email was never locked')
})

test('POST /staff with an Idempotency-Key: the setup token is never stored, and a retry finds the account made', async (t) => {
  const service = await build(t)
  const { client } = await manager(service)
  const body = { email: 'retry@example.com', name: 'Retry', role: 'staff' }
  const first = await client.post('/staff', body, { 'idempotency-key': 'add-retry' })
  assert.equal(first.status, 201, first.text)
  const token = new URL(first.body.setup_link).hash.slice(1)
  const kept = JSON.stringify(await service.context.store.db.selectFrom('idempotency_keys').selectAll().execute())
  assert.ok(!kept.includes(token), 'the setup token is not kept for a replay')
  const retry = await client.post('/staff', body, { 'idempotency-key': 'add-retry' })
  assert.equal(retry.status, 409)
  assert.equal(retry.body.code, 'staff_exists')
  assert.equal((await client.get('/staff')).body.staff.filter((s: { email: string }) => s.email === body.email).length, 1, 'one account, not two')
})
