import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { FADO_MON, guestBooking } from '../admin/bookings-fixtures.ts'
import { backOfficeSuite } from '../helpers/back-office.ts'
import { assertAccessible, browserSkipReason } from '../helpers/browser.ts'

// What the back office says about the guest's email (issue 25, item 4), in Chromium on the
// real app with no SMTP_URL: nobody is told by email, and the back office says so instead of
// "The guest is told by email"; Settings says email is off.

describe('the back office says what happened to the guest\'s email', { skip: browserSkipReason(), timeout: 300_000 }, () => {
  const started = backOfficeSuite()
  const { officePage, signInAs, follow } = started

  test('without a mail server, confirming a request says the guest is not emailed, and Settings says email is off', async () => {
    const { booking } = await guestBooking(started.service, { tour_id: 'fado-night', start: FADO_MON, party: 2 })
    const office = await officePage()
    const { page } = office
    await signInAs(page, 'manager', { path: `bookings/${booking.code}`, heading: /Ana Silva/ })
    await page.getByRole('button', { name: 'Confirm', exact: true }).click()
    const said = page.locator('.booking-result', { hasText: `Booking ${booking.code} confirmed.` })
    await said.waitFor()
    const text = await said.textContent() ?? ''
    assert.doesNotMatch(text, /told by email/)
    assert.match(text, /The guest is not emailed: email is not set up on this service/)

    await follow(page.getByRole('link', { name: 'Settings' }))
    await page.getByRole('heading', { level: 1, name: /^Settings/ }).waitFor()
    await page.locator('#email-status', { hasText: 'Email is off.' }).waitFor()
    await assertAccessible(page, 'settings with email off')
    await office.close()
  })
})
