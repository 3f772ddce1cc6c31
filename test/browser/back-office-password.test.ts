import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { Page } from 'playwright-core'
import { backOfficeSuite, SYSTEM } from '../helpers/back-office.ts'
import { assertAccessible, browserSkipReason } from '../helpers/browser.ts'
import { STAFF_PASSWORD } from '../helpers/operator.ts'

// A forgotten password in the back office (issue 25, item 1), in Chromium on the real app and
// a real SMTP server: a manager gives someone a new setup link from Settings, and the sign-in
// page's "forgot your password?" emails one.

const NEW_PASSWORD = 'the password I will remember'

describe('a forgotten password in the back office', { skip: browserSkipReason(), timeout: 300_000 }, () => {
  const started = backOfficeSuite({ mail: true })
  const { ref, officeUrl, officePage, signInAs, follow } = started

  async function setPassword(page: Page, link: string): Promise<void> {
    await page.goto(link)
    await page.getByLabel('New password').fill(NEW_PASSWORD)
    await page.getByLabel('The same password again').fill(NEW_PASSWORD)
    await page.getByRole('button', { name: 'Set password and sign in' }).click()
    await page.getByRole('heading', { level: 1, name: /^Today/ }).waitFor()
  }

  test('a manager gives a staff member a new setup link from Settings; with it they choose a new password and are in', async () => {
    await started.service.context.staff.addStaff(ref(), { email: 'joao@example.pt', name: 'João Forgetful', role: 'staff', password: STAFF_PASSWORD }, SYSTEM, started.service.clock.now())
    const office = await officePage()
    const { page } = office
    await signInAs(page, 'manager')
    await follow(page.getByRole('link', { name: 'Settings' }))
    await follow(page.getByRole('link', { name: 'Staff accounts' }))
    await page.getByRole('heading', { level: 1, name: 'Staff accounts' }).waitFor()
    await page.getByRole('button', { name: 'New setup link for João Forgetful' }).click()
    await page.getByText(/Give João Forgetful a new setup link/).waitFor()
    await page.getByRole('button', { name: 'Make the link' }).click()
    await page.getByRole('heading', { name: 'New setup link for João Forgetful' }).waitFor()
    const link = await page.locator('#setup-link').inputValue()
    assert.match(link, new RegExp(`^${started.service.origin}/admin/lisbon/setup#[A-Za-z0-9_-]{43}$`))
    await assertAccessible(page, 'new setup link')
    await office.close()

    const joao = await officePage()
    await setPassword(joao.page, link)
    await joao.close()
  })

  test('"forgot your password?" on the sign-in page emails a link; the answer reads the same for an address with no account', async () => {
    await started.service.context.staff.addStaff(ref(), { email: 'rita@example.pt', name: 'Rita', role: 'guide', password: STAFF_PASSWORD }, SYSTEM, started.service.clock.now())
    const office = await officePage()
    const { page } = office
    await page.goto(officeUrl())
    await page.getByLabel('Email').fill('nobody@example.pt')
    await page.getByRole('button', { name: 'Forgot your password?' }).click()
    await page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor()
    assert.equal(await page.getByLabel('Email').inputValue(), 'nobody@example.pt', 'the address typed so far is kept')
    await page.getByRole('button', { name: 'Email me a link' }).click()
    const said = page.locator('#reset-sent')
    await said.waitFor()
    const forNobody = await said.textContent()
    await assertAccessible(page, 'forgot password')

    await page.getByLabel('Email').fill('rita@example.pt')
    await page.getByRole('button', { name: 'Email me a link' }).click()
    await page.locator('#reset-sent', { hasText: 'rita@example.pt' }).waitFor()
    assert.equal((await said.textContent())!.replace('rita@example.pt', 'X'), forNobody!.replace('nobody@example.pt', 'X'))
    await office.close()

    await started.service.context.scheduler.runNow('emails')
    await started.service.context.scheduler.runNow('email-sending')
    const mail = started.sink.messages.find((m) => m.subject?.startsWith('Choose a new password'))
    assert.ok(mail, 'the link was emailed')
    const link = /(http:\/\/\S+\/admin\/lisbon\/setup#[A-Za-z0-9_-]+)/.exec(mail.text!)![1]
    const rita = await officePage()
    await setPassword(rita.page, link)
    await rita.close()
  })
})
