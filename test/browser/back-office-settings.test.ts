import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { Page } from 'playwright-core'
import { EVENT_TYPES } from '../../src/schemas/event-type.ts'
import { FADO_TUE, guestBooking } from '../admin/bookings-fixtures.ts'
import { backOfficeSuite } from '../helpers/back-office.ts'
import { assertAccessible, browserSkipReason, focused, focusReaches, screenshot, tabTo } from '../helpers/browser.ts'
import { OperatorClient } from '../helpers/operator.ts'
import { receiver } from '../webhooks/receiver.ts'

// The back office's Settings (issue 17) in Chromium, on the real app and database, clocks held
// at DEFAULT_NOW as in back-office.test.ts. Webhooks may go to 127.0.0.1 here (as
// TOURDESK_WEBHOOKS_ALLOW_PRIVATE=on), so a receiver started by the test can take them. No
// SMTP_URL: every email is kept as not_sent.

/**
 * Run in the page: the elements of the view (main) that reach past the window's width, as
 * "tag.class right-edge". The top bar is app.tsx's and not this view's.
 */
const WIDER_THAN_WINDOW = `[...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
  .map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).join(', ')`
// The callbacks given to page.waitForFunction run in the browser, where this exists.
declare const document: { activeElement: { id: string, tagName: string, textContent: string | null } | null }

describe('the back office settings in Chromium', { skip: browserSkipReason(), timeout: 300_000 }, () => {
  const started = backOfficeSuite({ webhooks: { allowPrivate: true, retryScheduleMs: [1000] } })
  const { officeUrl, officePage, signInAs, follow } = started

  /** Signs in as a manager and opens one settings page through the Settings index. */
  async function openSettings(page: Page, section: string, heading: RegExp | string): Promise<{ email: string, id: string }> {
    const account = await signInAs(page, 'manager', { name: 'Marta Reis' })
    await follow(page.getByRole('link', { name: 'Settings' }))
    await page.getByRole('heading', { level: 1, name: /^Settings/ }).waitFor()
    await follow(page.getByRole('link', { name: section }))
    await page.getByRole('heading', { level: 1, name: heading }).waitFor()
    return account
  }

  const statusLine = (page: Page, text: string | RegExp) => page.locator('.status-line', { hasText: text }).waitFor()

  test('a manager sets who gets the operator emails and the reminder hours; a wrong address is named next to its field', async () => {
    const office = await officePage()
    const { page } = office
    await signInAs(page, 'manager')
    await follow(page.getByRole('link', { name: 'Settings' }))
    await page.getByRole('heading', { level: 1, name: /^Settings/ }).waitFor()
    assert.deepEqual(await page.locator('main h2').allTextContents(), ['Notifications', 'Webhooks', 'API keys', 'Reseller keys', 'Staff accounts', 'Email log'])
    await assertAccessible(page, 'settings index')
    await screenshot(page, 'back-office-settings')

    await follow(page.getByRole('link', { name: 'Notifications' }))
    await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor()
    const addresses = page.getByLabel('Operator addresses')
    await addresses.fill('ops@alfama.example\nnot-an-email')
    await page.getByLabel('Reminder before the start, in hours').fill('48')
    await page.getByRole('button', { name: 'Save notification settings' }).click()
    const error = page.locator('#operator-emails-error')
    await error.waitFor()
    assert.equal(await error.textContent(), 'Address 2 (not-an-email) is not an email address.')
    assert.equal(await addresses.getAttribute('aria-invalid'), 'true')
    assert.match(await addresses.getAttribute('aria-describedby') ?? '', /operator-emails-error/, 'the error is read with the field')
    await page.waitForFunction(() => document.activeElement?.id === 'operator-emails')
    const unchanged = (await started.manager.get('/settings')).body
    assert.deepEqual([unchanged.operator_emails, unchanged.reminder_hours], [null, null], 'a refused save changes nothing')
    await assertAccessible(page, 'notifications with an error')

    await addresses.fill('ops@alfama.example\nbookings@alfama.example')
    await page.getByRole('button', { name: 'Save notification settings' }).click()
    await statusLine(page, 'Notification settings saved.')
    assert.equal(await error.count(), 0)
    const saved = (await started.manager.get('/settings')).body
    assert.deepEqual(saved.operator_emails, ['ops@alfama.example', 'bookings@alfama.example'])
    assert.equal(saved.reminder_hours, 48)
    assert.equal(saved.request_decision_hours, null, 'fields left alone stay unset')

    await page.reload()
    await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor()
    await page.getByLabel('Reminder before the start, in hours').waitFor()
    assert.equal(await page.getByLabel('Reminder before the start, in hours').inputValue(), '48')
    assert.equal(await addresses.inputValue(), 'ops@alfama.example\nbookings@alfama.example')
    await assertAccessible(page, 'notifications')
    await screenshot(page, 'back-office-settings-notifications')
    assert.deepEqual(office.faults, [])
    await office.close()
  })

  test('a manager adds a webhook to a local receiver, sends a test, sees deliveries in the log and replays them', async (t) => {
    const hooks = await receiver(t)
    const office = await officePage()
    const { page } = office
    await openSettings(page, 'Webhooks', 'Webhooks')
    const offered = await page.locator('.event-choices input[type="checkbox"]').evaluateAll((boxes) => boxes.map((b) => (b as unknown as { value: string }).value))
    assert.deepEqual(offered, [...EVENT_TYPES], 'every event type can be chosen')
    const hint = await page.locator('p.hint', { hasText: 'signed POST' }).textContent()
    assert.match(hint ?? '', /retried 9 times, after 5 s, .* and 24 h, over about 3 days when it fails\. An endpoint whose every delivery fails for 5 days is turned off\./,
      'the retries as the service makes them (src/domain/webhook-retry.ts), not "for a day"')

    await page.getByLabel('Endpoint URL').fill(hooks.url)
    await page.getByLabel('Description (optional)').fill('Accounting')
    await page.getByLabel(/^booking\.requested/).check()
    await page.getByLabel(/^booking\.confirmed/).check()
    await page.getByRole('button', { name: 'Add webhook' }).click()
    const secretField = page.getByRole('textbox', { name: 'Signing secret' })
    await secretField.waitFor()
    const secret = await secretField.inputValue()
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/)
    hooks.trust(secret)
    assert.match(await page.locator('.shown-once').textContent() ?? '', /It will not be shown again/)
    await page.waitForFunction(() => document.activeElement?.tagName === 'H2')
    assert.match((await focused(page)).text, /Webhook added/, 'focus goes to the secret')
    const [made] = (await started.manager.get('/webhooks')).body.webhooks
    assert.deepEqual([made.url, made.description, [...made.events].sort(), made.enabled], [hooks.url, 'Accounting', ['booking.confirmed', 'booking.requested'], true])
    await assertAccessible(page, 'webhook secret shown once')
    await screenshot(page, 'back-office-settings-webhooks')
    await page.getByRole('button', { name: 'Done, I have kept it' }).click()
    assert.equal(await page.getByRole('textbox', { name: 'Signing secret' }).count(), 0)

    await follow(page.getByRole('link', { name: hooks.url }))
    await page.getByRole('heading', { level: 1, name: /^Webhook deliveries/ }).waitFor()
    await page.getByText('Nothing has been sent to this endpoint yet.').waitFor()
    await page.getByRole('button', { name: 'Send test' }).click()
    await page.getByText(/^Delivered: the receiver answered 200 in \d+ ms\.$/).waitFor()
    assert.deepEqual(hooks.received.map((r) => r.event.type), ['webhook.test'], 'the receiver got the test message')
    hooks.assertAllVerified()

    const { booking } = await guestBooking(started.service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })
    await started.service.context.scheduler.runNow('webhooks')
    await page.getByRole('button', { name: 'Refresh' }).click()
    const deliveries = page.locator('.delivery')
    await deliveries.first().waitFor()
    assert.equal(await deliveries.count(), 1)
    const first = deliveries.first()
    assert.match(await first.textContent() ?? '', /Delivered/)
    assert.match(await first.textContent() ?? '', /Response200/)
    assert.match(await first.textContent() ?? '', /1 Jun 2026, 09:00/, 'times in the operator\'s zone')
    // What was sent, not only its id: the event's type and the booking, which opens from there.
    assert.equal(await first.locator('.event-type').textContent(), 'booking.requested')
    assert.equal(await first.getByRole('link', { name: booking.code }).getAttribute('href'), `/admin/lisbon/bookings/${booking.code}`)
    await first.getByText('Every attempt (1)').click()
    assert.match(await first.locator('.attempts li').textContent() ?? '', /^1 Jun 2026, 09:00.* · \d+ ms · answered 200$/, 'each attempt: when, how long, the answer')
    const delivered = hooks.received.filter((r) => r.event.type === 'booking.requested')
    assert.deepEqual(delivered.map((r) => r.event.data.code), [booking.code])

    // Since 24 hours before now (the field's first value), in the operator's zone.
    assert.equal(await page.getByLabel(/^Since/).inputValue(), '2026-05-31T09:00')
    await page.getByRole('button', { name: 'Replay since' }).click()
    await page.getByText(/^1 event since 31 May 2026, 09:00 will be sent again/).waitFor()
    await started.service.context.scheduler.runNow('webhooks')
    await page.getByRole('button', { name: 'Refresh' }).click()
    await page.locator('.delivery[data-status="delivered"]').nth(1).waitFor()
    const again = hooks.received.filter((r) => r.event.type === 'booking.requested')
    assert.equal(again.length, 2)
    assert.equal(again[1].headers['webhook-id'], again[0].headers['webhook-id'], 'a replay keeps the event id')
    hooks.assertAllVerified()
    const log = (await started.manager.get(`/webhooks/${made.id}/deliveries`)).body.deliveries
    assert.deepEqual(log.map((d: { status: string, last_status: number, event_type: string, booking: string }) => [d.status, d.last_status, d.event_type, d.booking]),
      [['delivered', 200, 'booking.requested', booking.code], ['delivered', 200, 'booking.requested', booking.code]])
    await assertAccessible(page, 'webhook delivery log')
    await screenshot(page, 'back-office-settings-webhook-log')

    await follow(page.getByRole('link', { name: '← Webhooks' }))
    const card = page.locator('.webhook', { hasText: hooks.url })
    await card.waitFor()
    await card.getByRole('button', { name: `Turn off webhook to ${hooks.url}` }).click()
    await card.getByText('Off: disabled through the API').waitFor()
    assert.equal((await started.manager.get(`/webhooks/${made.id}`)).body.enabled, false)
    await card.getByRole('button', { name: `Turn on webhook to ${hooks.url}` }).click()
    await card.getByText('On', { exact: true }).waitFor()
    assert.equal((await started.manager.get(`/webhooks/${made.id}`)).body.enabled, true)

    await card.getByRole('button', { name: `New secret for webhook to ${hooks.url}` }).click()
    await card.getByRole('button', { name: 'Make a new secret' }).click()
    await page.getByRole('heading', { name: `New signing secret for ${hooks.url}` }).waitFor()
    const rotated = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue()
    assert.match(rotated, /^whsec_/)
    assert.notEqual(rotated, secret)
    assert.match((await started.manager.get(`/webhooks/${made.id}`)).body.previous_secret_expires_at, /^2026-06-02T09:00/)
    await page.getByRole('button', { name: 'Done, I have kept it' }).click()

    await card.getByRole('button', { name: `Remove webhook to ${hooks.url}` }).click()
    await card.getByRole('button', { name: 'Cancel' }).click()
    await page.waitForFunction(() => (document.activeElement as unknown as { getAttribute(n: string): string | null } | null)?.getAttribute('aria-label')?.startsWith('Remove webhook') === true)
    await card.getByRole('button', { name: `Remove webhook to ${hooks.url}` }).click()
    await card.getByRole('button', { name: 'Remove webhook' }).click()
    await page.getByText('No webhooks yet.').waitFor()
    assert.deepEqual((await started.manager.get('/webhooks')).body.webhooks, [])
    assert.deepEqual(office.faults, [])
    assert.deepEqual(office.consoleErrors, [])
    await office.close()
  })

  test('a manager makes an API key: the secret is shown once, works against /me, and is gone after a reload; revoked, it stops working', async () => {
    const office = await officePage()
    const { page } = office
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: started.service.origin })
    await openSettings(page, 'API keys', 'API keys')
    await page.getByLabel('Name').fill('Accounting export')
    await page.getByLabel('Role').selectOption('viewer')
    await page.getByLabel('Name').press('Enter')
    const secretField = page.getByLabel('Secret key')
    await secretField.waitFor()
    const secret = await secretField.inputValue()
    assert.match(secret, /^tdk_[A-Za-z0-9]{32,}$/)
    assert.match(await page.locator('.shown-once').textContent() ?? '', /It will not be shown again/)
    await page.waitForFunction(() => document.activeElement?.tagName === 'H2')

    const asKey = new OperatorClient(started.service.origin, 'lisbon', { bearer: secret })
    const me = await asKey.get('/me')
    assert.equal(me.status, 200, me.text)
    assert.deepEqual([me.body.kind, me.body.name, me.body.role], ['key', 'Accounting export', 'viewer'])

    // From the secret's heading, the keyboard reaches the secret and then its Copy button.
    await tabTo(page, (e) => e.id === 'key-secret', 'the secret')
    await tabTo(page, (e) => e.text === 'Copy', 'the Copy button', 1)
    await page.keyboard.press('Enter')
    await statusLine(page, /Secret key (copied|selected)/)
    if (await page.locator('.status-line', { hasText: 'copied' }).count() > 0) {
      assert.equal(await page.evaluate('navigator.clipboard.readText()'), secret)
    }
    await assertAccessible(page, 'API key secret shown once')
    await screenshot(page, 'back-office-settings-api-keys')

    await page.reload()
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor()
    const card = page.locator('.api-key', { hasText: 'Accounting export' })
    await card.waitFor()
    assert.match(await card.textContent() ?? '', new RegExp(`${secret.slice(0, 8)}…`))
    assert.ok(!(await page.content()).includes(secret), 'the secret is not shown again')
    assert.equal(await page.getByLabel('Secret key').count(), 0)

    await card.getByRole('button', { name: 'Revoke key Accounting export' }).click()
    await card.getByRole('button', { name: 'Revoke key', exact: true }).click()
    await statusLine(page, 'Key “Accounting export” revoked')
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1')
    assert.equal((await asKey.get('/me')).status, 401, 'a revoked key is refused at once')
    await page.getByText('Revoked keys (1)').click()
    await page.locator('.revoked .api-key', { hasText: 'Accounting export' }).waitFor()
    await assertAccessible(page, 'API keys with a revoked one')
    assert.deepEqual(office.faults, [])
    assert.deepEqual(office.consoleErrors, [])
    await office.close()
  })

  test('a manager adds a staff member and gets the setup link, changes a role, disables and enables; the last manager stays', async () => {
    const office = await officePage()
    const { page } = office
    const me = await openSettings(page, 'Staff accounts', 'Staff accounts')
    await page.getByLabel('Email').fill('joana@alfama.example')
    await page.getByLabel('Name').fill('Joana Dias')
    await page.getByLabel('Role', { exact: true }).selectOption('guide')
    await page.getByRole('button', { name: 'Add and get setup link' }).click()
    const linkField = page.getByLabel('Setup link', { exact: true })
    await linkField.waitFor()
    const link = await linkField.inputValue()
    assert.match(link, new RegExp(`^${started.service.origin}/admin/lisbon/setup#.{20,}`))
    assert.match(await page.locator('.shown-once').textContent() ?? '', /It will not be shown again.*joana@alfama\.example/)
    const joana = (await started.manager.get('/staff')).body.staff.find((s: { email: string }) => s.email === 'joana@alfama.example')
    assert.deepEqual([joana.name, joana.role, joana.set_up, joana.disabled], ['Joana Dias', 'guide', false, false])
    await assertAccessible(page, 'staff setup link shown once')
    await screenshot(page, 'back-office-settings-staff')
    await page.getByRole('button', { name: 'Done, I have kept it' }).click()

    const card = page.locator('.staff-account', { hasText: 'joana@alfama.example' })
    await card.getByLabel('Role of Joana Dias', { exact: true }).selectOption('viewer')
    await card.getByRole('button', { name: 'Change role of Joana Dias' }).click()
    await statusLine(page, 'Joana Dias is now viewer.')
    assert.equal((await started.manager.get(`/staff`)).body.staff.find((s: { id: string }) => s.id === joana.id).role, 'viewer')
    await page.waitForFunction((id) => document.activeElement?.id === id, `role-${joana.id}`, { timeout: 5000 }).catch(() => {})
    await focusReaches(page, `role-${joana.id}`, 'focus stays on the role')

    await card.getByRole('button', { name: 'Disable Joana Dias' }).click()
    await card.getByRole('button', { name: 'Disable account' }).click()
    await card.getByText('Disabled', { exact: true }).waitFor()
    assert.equal((await started.manager.get('/staff')).body.staff.find((s: { id: string }) => s.id === joana.id).disabled, true)
    await card.getByRole('button', { name: 'Enable Joana Dias' }).click()
    await card.getByRole('button', { name: 'Disable Joana Dias' }).waitFor()
    assert.equal((await started.manager.get('/staff')).body.staff.find((s: { id: string }) => s.id === joana.id).disabled, false)

    // Every other manager disabled: this one is the last, and may not demote itself.
    for (const other of (await started.manager.get('/staff')).body.staff) {
      if (other.role === 'manager' && other.id !== me.id && !other.disabled) assert.equal((await started.manager.delete(`/staff/${other.id}`)).status, 200)
    }
    await page.reload()
    const mine = page.locator('.staff-account', { hasText: me.email })
    await mine.getByLabel('Role of Marta Reis', { exact: true }).selectOption('staff')
    await mine.getByRole('button', { name: 'Change role of Marta Reis' }).click()
    await mine.getByRole('alert').filter({ hasText: 'This is the last active manager; make another manager first' }).waitFor()
    assert.equal((await started.manager.get('/me')).status, 200)
    assert.equal((await started.manager.get('/staff')).body.staff.find((s: { id: string }) => s.id === me.id).role, 'manager')
    await assertAccessible(page, 'staff with the last manager refusal')
    assert.deepEqual(office.faults, [])
    await office.close()
  })

  test('on a 375 px phone the email log lists the emails a guest booking made, kept as not sent without SMTP, and filters by booking', async () => {
    const { booking } = await guestBooking(started.service, { tour_id: 'fado-night', start: FADO_TUE, party: 1 }, { name: 'Lúcia Ramos', email: 'lucia@example.pt' })
    await started.service.context.scheduler.runNow('emails')
    const office = await officePage({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true })
    const { page } = office
    await openSettings(page, 'Email log', 'Email log')
    const toGuest = page.locator('.email', { hasText: 'lucia@example.pt' })
    await toGuest.first().waitFor()
    assert.match(await toGuest.first().textContent() ?? '', /Not sent/)
    assert.match(await toGuest.first().textContent() ?? '', /Email sending is not set up/)
    assert.match(await toGuest.first().textContent() ?? '', new RegExp(booking.code))
    assert.equal(await page.evaluate(WIDER_THAN_WINDOW), '', 'nothing in the view is wider than 375 px')

    await page.getByLabel('Booking code').fill(booking.code)
    await page.getByRole('button', { name: 'Show', exact: true }).click()
    await page.getByRole('heading', { name: `Emails about booking ${booking.code}` }).waitFor()
    const listed = (await started.manager.get(`/emails?booking=${booking.code}`)).body.emails
    assert.ok(listed.length >= 2, 'the guest and the operator were each emailed')
    assert.ok(listed.every((e: { state: string, state_reason: string }) => e.state === 'not_sent' && e.state_reason === 'no_smtp'))
    await page.waitForFunction((n) => (document as unknown as { querySelectorAll(s: string): { length: number } }).querySelectorAll('.email').length === n, listed.length)
    assert.deepEqual((await page.locator('.email h3').allTextContents()).sort(), listed.map((e: { subject: string }) => e.subject).sort())
    await page.locator('.email').first().getByText(/^Message/).click()
    await page.locator('.email').first().locator('.email-text').waitFor()
    assert.equal(await page.evaluate(WIDER_THAN_WINDOW), '', 'an open message fits too')
    await assertAccessible(page, 'email log')
    await screenshot(page, 'back-office-settings-emails')
    assert.deepEqual(office.faults, [])
    assert.deepEqual(office.consoleErrors, [])
    await office.close()
  })

  test('staff without the managers\' permissions see no Settings, and its address tells them it is for managers', async () => {
    const office = await officePage()
    const { page } = office
    await signInAs(page, 'staff')
    assert.equal(await page.getByRole('link', { name: 'Settings' }).count(), 0)
    await page.goto(officeUrl('settings/staff'))
    await page.getByRole('heading', { level: 1, name: 'No access to Settings' }).waitFor()
    assert.match(await page.textContent('main') ?? '', /Settings is open to managers\. You are signed in as a staff member, so it is not open to you/)
    assert.deepEqual(office.faults, [])
    await office.close()
  })
})
