import assert from 'node:assert/strict'
import { test, type TestContext } from 'node:test'
import { build, type TestService } from '../helpers/build.ts'
import { checked, operatorContract } from '../helpers/operator-contract.ts'
import { OperatorClient, signedInStaff, STAFF_PASSWORD } from '../helpers/operator.ts'
import { mailSink, type MailSink } from '../helpers/smtp.ts'

// A forgotten password (issue 25, item 1): a manager issues a new setup link (POST
// /staff/{id}/setup-link), and the sign-in page's "forgot your password?" emails one
// (POST /password-reset) without telling who has an account. Over real HTTP, real SMTP.

const NEW_PASSWORD = 'a brand new password for rita'

async function withStaff(t: TestContext, sink: MailSink | null) {
  const service = await build(t, sink ? { email: { smtpUrl: sink.url } } : {})
  const contract = await operatorContract(service)
  const boss = await signedInStaff(service, 'manager')
  const rita = await signedInStaff(service, 'guide', 'lisbon', 'rita@example.pt')
  const anonymous = checked(new OperatorClient(service.origin, 'lisbon'), contract)
  const ritaId = (await boss.client.get('/staff')).body.staff.find((s: { email: string }) => s.email === 'rita@example.pt').id
  return { service, manager: checked(boss.client, contract), rita: rita.client, ritaId, anonymous }
}

async function sendEmails(service: TestService): Promise<void> {
  await service.context.scheduler.runNow('emails')
  await service.context.scheduler.runNow('email-sending')
}

const tokenOf = (link: string) => new URL(link).hash.slice(1)

test('a manager issues a new setup link: the old password works until it is used, then only the new one; earlier links stop working; audited', async (t) => {
  const { service, manager, rita, ritaId, anonymous } = await withStaff(t, null)
  const first = await manager.post(`/staff/${ritaId}/setup-link`)
  assert.equal(first.status, 201, first.text)
  assert.equal(first.headers.get('cache-control'), 'no-store')
  assert.equal(first.body.staff.email, 'rita@example.pt')
  assert.match(first.body.setup_link, new RegExp(`^${service.origin}/admin/lisbon/setup#[A-Za-z0-9_-]{43}$`))
  const second = await manager.post(`/staff/${ritaId}/setup-link`)
  assert.notEqual(tokenOf(second.body.setup_link), tokenOf(first.body.setup_link))

  assert.equal((await anonymous.post('/session', { email: 'rita@example.pt', password: STAFF_PASSWORD })).status, 200, 'the present password works until a link is used')
  assert.equal((await anonymous.post('/setup', { token: tokenOf(first.body.setup_link), password: NEW_PASSWORD })).status, 410, 'an earlier link stops working')
  const setUp = await anonymous.post('/setup', { token: tokenOf(second.body.setup_link), password: NEW_PASSWORD })
  assert.equal(setUp.status, 200, setUp.text)
  assert.equal((await rita.get('/me')).status, 401, 'setting the password ends the sessions')
  assert.equal((await anonymous.post('/session', { email: 'rita@example.pt', password: STAFF_PASSWORD })).status, 401)
  assert.equal((await anonymous.post('/session', { email: 'rita@example.pt', password: NEW_PASSWORD })).status, 200)
  assert.equal((await anonymous.post('/setup', { token: tokenOf(second.body.setup_link), password: NEW_PASSWORD })).status, 410, 'once')

  const audit = (await manager.get('/audit?action=staff.setup_link_issued')).body.entries
  assert.equal(audit.length, 2)
  assert.deepEqual(audit.map((e: { target: { ref: string }, actor: { type: string } }) => [e.target.ref, e.actor.type]), [['rita@example.pt', 'staff'], ['rita@example.pt', 'staff']])

  service.clock.advance({ seconds: 1 })
  assert.equal((await manager.delete(`/staff/${ritaId}`)).status, 200)
  const disabled = await manager.post(`/staff/${ritaId}/setup-link`)
  assert.equal(disabled.status, 409, disabled.text)
  assert.equal(disabled.body.code, 'staff_disabled')
  assert.equal((await manager.post('/staff/stf_nobody/setup-link')).status, 404)
  const guide = await signedInStaff(service, 'staff')
  assert.equal((await guide.client.post(`/staff/${ritaId}/setup-link`)).status, 403, 'managers only')
})

test('forgot your password: the same answer for any address; an active account gets a one-hour single-use link by email, which also lifts a sign-in lockout', async (t) => {
  const sink = await mailSink()
  t.after(sink.close)
  const { service, manager, ritaId, anonymous } = await withStaff(t, sink)
  // Rita forgot her password and locked herself out trying.
  for (let i = 0; i < 5; i++) assert.equal((await anonymous.post('/session', { email: 'rita@example.pt', password: `wrong guess number ${i}` })).status, 401)
  assert.equal((await anonymous.post('/session', { email: 'rita@example.pt', password: STAFF_PASSWORD })).status, 429, 'locked')

  const known = await anonymous.post('/password-reset', { email: 'Rita@Example.PT' })
  const unknown = await anonymous.post('/password-reset', { email: 'nobody@example.pt' })
  assert.equal(known.status, 202, known.text)
  assert.equal(unknown.status, 202, unknown.text)
  assert.equal(known.body.detail.replace('rita@example.pt', 'X'), unknown.body.detail.replace('nobody@example.pt', 'X'), 'the answers do not tell who has an account')
  await sendEmails(service)
  assert.deepEqual(sink.messages.map((m) => m.to && !Array.isArray(m.to) ? m.to.value[0].address : null), ['rita@example.pt'], 'only the account is emailed')
  const link = /(http:\/\/\S+\/admin\/lisbon\/setup#[A-Za-z0-9_-]+)/.exec(sink.messages[0].text!)![1]
  assert.match(sink.messages[0].text!, /within an hour/)

  const logged = (await manager.get('/emails?to=rita@example.pt')).body.emails[0]
  assert.equal(logged.kind, 'password_reset')
  assert.ok(!logged.text.includes(tokenOf(link)) && logged.text.includes('/setup#withheld'), 'the email log withholds the token')

  service.clock.advance({ minutes: 30 })
  const setUp = await anonymous.post('/setup', { token: tokenOf(link), password: NEW_PASSWORD })
  assert.equal(setUp.status, 200, setUp.text)
  assert.equal((await anonymous.post('/session', { email: 'rita@example.pt', password: NEW_PASSWORD })).status, 200, 'back in at once: the lockout is lifted')
  assert.equal((await anonymous.post('/setup', { token: tokenOf(link), password: NEW_PASSWORD })).status, 410, 'single use')
  assert.equal((await manager.get('/audit?action=staff.password_reset_emailed')).body.entries.length, 1)

  // An hour later the next link no longer works.
  await anonymous.post('/password-reset', { email: 'rita@example.pt' })
  await sendEmails(service)
  const late = /\/setup#([A-Za-z0-9_-]+)/.exec(sink.messages[1].text!)![1]
  service.clock.advance({ minutes: 61 })
  assert.equal((await anonymous.post('/setup', { token: late, password: 'yet another new password' })).status, 410, 'expired after an hour')

  // A disabled account gets nothing, with the same answer.
  service.clock.advance({ seconds: 1 })
  assert.equal((await manager.delete(`/staff/${ritaId}`)).status, 200)
  assert.equal((await anonymous.post('/password-reset', { email: 'rita@example.pt' })).status, 202)
  await sendEmails(service)
  assert.equal(sink.messages.length, 2, 'no link for a disabled account')
})

test('password reset requests are limited per address, five in 15 minutes, whether or not it has an account', async (t) => {
  const sink = await mailSink()
  t.after(sink.close)
  const { service, anonymous } = await withStaff(t, sink)
  for (const email of ['rita@example.pt', 'nobody@example.pt']) {
    for (let i = 0; i < 5; i++) assert.equal((await anonymous.post('/password-reset', { email })).status, 202)
    const refused = await anonymous.post('/password-reset', { email })
    assert.equal(refused.status, 429, refused.text)
    assert.ok(Number(refused.headers.get('retry-after')) > 0)
  }
  await sendEmails(service)
  assert.equal(sink.messages.length, 5)
  assert.equal((await anonymous.post('/session', { email: 'rita@example.pt', password: STAFF_PASSWORD })).status, 200, 'requests do not lock the sign-in')
  service.clock.advance({ minutes: 16 })
  assert.equal((await anonymous.post('/password-reset', { email: 'rita@example.pt' })).status, 202)
})

test('without email set up, a reset request is refused alike for every address, and changes nothing', async (t) => {
  const { service, manager, anonymous } = await withStaff(t, null)
  for (const email of ['rita@example.pt', 'nobody@example.pt']) {
    const refused = await anonymous.post('/password-reset', { email })
    assert.equal(refused.status, 409, refused.text)
    assert.equal(refused.body.code, 'email_not_set_up')
  }
  assert.equal((await anonymous.post('/password-reset', { email: 'not an address' })).status, 400)
  await service.context.scheduler.runNow('emails')
  assert.deepEqual((await manager.get('/emails')).body.emails.filter((e: { kind: string }) => e.kind === 'password_reset'), [])
})
