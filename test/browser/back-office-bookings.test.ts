import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { Page } from 'playwright-core'
import type { Role } from '../../src/domain/roles.ts'
import { ALFAMA_TUE, guestBooking } from '../admin/bookings-fixtures.ts'
import { backOfficeSuite } from '../helpers/back-office.ts'
import { assertAccessible, browserSkipReason, focused, focusReaches, screenshot, tabTo } from '../helpers/browser.ts'

// The back office's Bookings view (issue 17) in Chromium, on the real app and database, with
// a real SMTP server: both clocks are held at DEFAULT_NOW (Monday 1 June 2026, 09:00 in Lisbon).

/** alfama-walk at 14:00 on Tuesday 2 June, Lisbon. */
const ALFAMA_TUE_1400 = '2026-06-02T14:00:00+01:00'

describe('the Bookings view in Chromium', { skip: browserSkipReason(), timeout: 300_000 }, () => {
  const started = backOfficeSuite({ mail: true })
  const { officeUrl, officePage, signInAs } = started

  /** What every node does every second: events into emails, then sending. */
  async function deliverEmails(): Promise<void> {
    await started.service.context.scheduler.runNow('emails')
    await started.service.context.scheduler.runNow('email-sending')
  }

  /** A staff account with the test password, signed in through the sign-in form, on the Bookings list. */
  async function signInToBookings(page: Page, role: Role): Promise<void> {
    await signInAs(page, role, { path: 'bookings', heading: 'Bookings' })
  }

  /**
   * Nothing in the view reaches past the right edge. (The page's own top bar is the app
   * shell's; with four sections it is wider than 375 px, which this view does not decide.)
   */
  const mainFits = (page: Page) => page.evaluate(() => {
    const document = (globalThis as any).document
    const width = document.documentElement.clientWidth
    return [...document.querySelectorAll('main *')].every((element: any) => element.getBoundingClientRect().right <= width + 0.5)
  })

  const result = (page: Page, text: RegExp) => page.locator('.booking-result', { hasText: text }).waitFor()

  test('staff find a booking by the guest\'s name, then move it, change its party, note it, resend its confirmation and cancel it', async () => {
    const { booking } = await guestBooking(started.service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 }, { name: 'Beatriz Conceição', email: 'beatriz@example.pt' })
    await guestBooking(started.service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1 }, { name: 'Other Guest', email: 'other@example.pt' })
    await deliverEmails()
    const office = await officePage()
    const { page } = office
    await signInToBookings(page, 'staff')
    await page.locator('.booking-row').first().waitFor()
    await assertAccessible(page, 'bookings list')
    await screenshot(page, 'back-office-bookings')

    // Accents and case aside: "conceicao" finds "Conceição", and nobody else.
    await page.getByLabel('Code, name, email or phone').fill('beatriz conceicao')
    await page.getByLabel('Code, name, email or phone').press('Enter')
    await page.locator('.booking-row', { hasText: 'Other Guest' }).waitFor({ state: 'detached' })
    await page.locator('.status-line', { hasText: '1 booking found.' }).waitFor()
    assert.deepEqual(await page.locator('.booking-row h2').allTextContents(), [`Beatriz Conceição ${booking.code}`])
    await page.getByRole('link', { name: /Beatriz Conceição/ }).click()
    await page.getByRole('heading', { level: 1, name: /Beatriz Conceição/ }).waitFor()
    const history = page.locator('.history')
    await history.getByText(/On hold → Confirmed, by the guest/).waitFor()
    await page.locator('.email-log li', { hasText: 'Confirmation to beatriz@example.pt' }).waitFor()

    // Move to the 14:00 departure of the same day, chosen from that day's departures and their free seats.
    await page.getByRole('button', { name: 'Move…' }).click()
    const move = page.getByRole('region', { name: 'Move to another departure' })
    await move.locator('.departure-options label', { hasText: '14:00' }).waitFor()
    assert.match(await move.locator('.departure-options label', { hasText: /\b0?9:30/ }).textContent() ?? '', /its departure now/)
    assert.match(await move.locator('.departure-options label', { hasText: '14:00' }).textContent() ?? '', /16 of 16 free/)
    await assertAccessible(page, 'move form')
    await move.locator('.departure-options label', { hasText: '14:00' }).click()
    await move.getByRole('button', { name: 'Move booking' }).click()
    await result(page, /^Moved to Alfama/)
    assert.equal((await focused(page)).text.startsWith('Moved to Alfama'), true, 'focus goes to what happened')
    let seen = (await started.manager.get(`/bookings/${booking.code}`)).body
    assert.equal(seen.start, ALFAMA_TUE_1400, 'moved, as the operator API says')

    // A change made meanwhile by someone else: the form says so and shows the booking as it is; then it goes through.
    await page.getByRole('button', { name: 'Change party or add-ons…' }).click()
    await page.getByLabel('Guests').fill('3')
    assert.equal((await started.manager.patch(`/bookings/${booking.code}`, { contact: { phone: '+351 912 000 111' } })).status, 200)
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByRole('alert').filter({ hasText: /Someone else changed this booking/ }).waitFor()
    await page.locator('.booking-facts', { hasText: '+351912000111' }).waitFor()
    await page.getByRole('button', { name: 'Save changes' }).click()
    await result(page, /^Now 3 guests/)
    assert.equal((await started.manager.get(`/bookings/${booking.code}`)).body.party, 3)

    // The internal note, from the keyboard.
    await page.getByRole('button', { name: 'Add internal note…' }).focus()
    await page.keyboard.press('Enter')
    await page.waitForFunction(() => (globalThis as any).document.activeElement?.id === 'note-text')
    await page.keyboard.type('Prefers to be called, not emailed')
    await tabTo(page, (e) => e.text === 'Save note', 'Save note')
    await page.keyboard.press('Enter')
    await result(page, /Internal note saved/)
    assert.equal((await started.manager.get(`/bookings/${booking.code}`)).body.internal_note, 'Prefers to be called, not emailed')

    // The history lists each of those changes, with who made it and what changed.
    const changed = history.locator('li[data-action="booking.changed"]')
    await changed.filter({ hasText: 'Internal note: (none) → Prefers to be called, not emailed' }).waitFor()
    const lines = await changed.allTextContents()
    assert.equal(lines.length, 4, lines.join('\n'))
    assert.match(lines[0], /Changed, by Sam staff.*Start: .*9:30.* → .*14:00/)
    assert.match(lines[1], /Changed, by .*Phone: \(none\) → \+351912000111/)
    assert.match(lines[2], /Changed, by Sam staff.*Party: 2 → 3.*Total: €\d+\.\d\d → €\d+\.\d\d/)
    assert.match(lines[3], /Changed, by Sam staff/)

    // Resend: a new copy goes out, and the detail's email log lists it.
    await page.getByRole('button', { name: 'Resend confirmation' }).click()
    await result(page, /confirmation is on its way to beatriz@example\.pt again/)
    await page.locator('.email-log li', { hasText: 'Confirmation, sent again' }).waitFor()
    await started.service.context.scheduler.runNow('email-sending')
    const copies = started.sink.messages.filter((m) => m.subject?.startsWith('Booking confirmed') && m.subject.includes(booking.code))
    assert.equal(copies.length, 2, 'the original and the copy reached the mail server')
    await assertAccessible(page, 'booking detail')
    await screenshot(page, 'back-office-booking-detail')

    // Cancel with the fee waived, though its policy would charge half now.
    await page.getByRole('button', { name: 'Cancel booking…' }).click()
    const cancel = page.getByRole('region', { name: 'Cancel booking' })
    await cancel.getByText(/^Charge the fee its policy gives now: €\d+\.\d\d \(50%\)$/).waitFor()
    await assertAccessible(page, 'cancel form')
    await cancel.getByLabel(/Reason/).fill('Flight cancelled')
    assert.equal(await cancel.getByLabel('Waive the fee').isChecked(), true, 'waived unless chosen otherwise')
    await cancel.getByRole('button', { name: 'Cancel booking', exact: true }).click()
    await result(page, /cancelled, fee waived/)
    seen = (await started.manager.get(`/bookings/${booking.code}`)).body
    assert.equal(seen.status, 'cancelled')
    assert.deepEqual([seen.cancellation.fee_waived, seen.cancellation.reason, seen.cancellation.by], [true, 'Flight cancelled', 'operator'])
    await history.getByText(/Confirmed → Cancelled, by Sam staff/).waitFor()
    assert.equal(await page.getByRole('button', { name: 'Resend confirmation' }).count(), 0, 'nothing left to resend')
    // Nothing is due on a cancelled booking (issue 25, item 3).
    await page.getByText(/^€\d+\.\d\d total, nothing due$/).waitFor()
    assert.doesNotMatch(await page.textContent('main') ?? '', /due on arrival/)
    assert.deepEqual(office.faults, [])
    await office.close()
  })

  test('a staff booking through the form: tour, day, a departure with room, party, add-ons, guest; it opens when made', async () => {
    const office = await officePage()
    const { page } = office
    await signInToBookings(page, 'staff')
    const began = Date.now()
    await page.getByRole('link', { name: 'New booking' }).click()
    await page.getByRole('heading', { level: 1, name: 'New booking' }).waitFor()
    await page.getByLabel('Tour').selectOption('alfama-walk')
    await page.getByRole('button', { name: 'Day after' }).click()
    await page.locator('.departure-options label', { hasText: '17:30' }).click()
    await page.getByLabel('Guests').fill('3')
    await page.getByLabel(/^Ginjinha tasting/).fill('2')
    await page.getByLabel('Name').fill('Walk-in Wanda')
    await page.getByLabel('Email', { exact: true }).fill('wanda@example.org')
    await page.getByLabel('Phone', { exact: true }).fill('912 345 678')
    await page.getByText(/Total, due on arrival: €64\.00/).waitFor()
    await assertAccessible(page, 'new booking form')
    await screenshot(page, 'back-office-booking-new')
    await page.getByRole('button', { name: 'Make booking' }).click()
    await page.getByRole('heading', { level: 1, name: /Walk-in Wanda/ }).waitFor()
    assert.ok(Date.now() - began < 60_000, 'under a minute, even for a test')

    const code = /\/bookings\/([A-Z0-9]+)$/.exec(new URL(page.url()).pathname)?.[1]
    assert.ok(code, page.url())
    const made = (await started.manager.get(`/bookings/${code}`)).body
    assert.deepEqual([made.channel, made.status, made.party, made.start, made.contact.phone], ['staff', 'confirmed', 3, '2026-06-02T17:30:00+01:00', '+351912345678'])
    assert.deepEqual(made.addons.map((a: { id: string, quantity: number }) => [a.id, a.quantity]), [['ginjinha-tasting', 2]])
    await page.locator('.history', { hasText: /Confirmed, by Sam staff/ }).waitFor()
    assert.deepEqual(office.faults, [])
    assert.deepEqual(office.consoleErrors, [])
    await office.close()
  })

  test('a walk-in with a name and a phone and no email is booked; the form asks for one of the two, and cannot email a guest without an address', async () => {
    const office = await officePage()
    const { page } = office
    await signInToBookings(page, 'staff')
    await page.goto(officeUrl('bookings/new'))
    await page.getByRole('heading', { level: 1, name: 'New booking' }).waitFor()
    await page.getByLabel('Tour').selectOption('alfama-walk')
    await page.getByRole('button', { name: 'Day after' }).click()
    await page.locator('.departure-options label', { hasText: '17:30' }).click()
    await page.getByLabel('Guests').fill('1')
    await page.getByLabel('Name').fill('Walk-in Wally')
    await page.getByRole('button', { name: 'Make booking' }).click()
    await page.locator('#new-email-error', { hasText: 'Enter an email address or a phone number' }).waitFor()
    await page.locator('#new-phone-error', { hasText: 'Enter an email address or a phone number' }).waitFor()
    assert.equal(await page.getByLabel(/^Email the guest/).isDisabled(), true, 'no email to send without an address')
    await page.getByText('Needs an email address: without one the guest is not emailed.').waitFor()
    await page.getByLabel('Phone', { exact: true }).fill('+44 20 7946 0958')
    await assertAccessible(page, 'walk-in form')
    await page.getByRole('button', { name: 'Make booking' }).click()
    await page.getByRole('heading', { level: 1, name: /Walk-in Wally/ }).waitFor()
    await page.getByText(/· no email address/).waitFor()
    await page.locator('.status-line', { hasText: 'The guest has no email address and is not emailed: tell them yourself.' }).waitFor()
    const code = /\/bookings\/([A-Z0-9]+)$/.exec(new URL(page.url()).pathname)![1]
    const made = (await started.manager.get(`/bookings/${code}`)).body
    assert.deepEqual(made.contact, { name: 'Walk-in Wally', email: null, phone: '+442079460958' })
    await deliverEmails()
    assert.deepEqual((await started.manager.get(`/emails?booking=${code}`)).body.emails, [], 'no guest email is made')
    await office.close()
  })

  test('the form names what is missing next to its field; a departure too small for the party cannot be chosen', async () => {
    const office = await officePage()
    const { page } = office
    await signInToBookings(page, 'staff')
    await page.goto(officeUrl('bookings/new'))
    await page.getByRole('heading', { level: 1, name: 'New booking' }).waitFor()
    await page.getByRole('button', { name: 'Make booking' }).click()
    await page.locator('#new-tour-error', { hasText: 'Choose a tour' }).waitFor()
    await focusReaches(page, 'new-tour', 'focus goes to the first field to fix')
    await page.getByLabel('Tour').selectOption('pastel-de-nata-workshop')
    await page.getByRole('button', { name: 'Day after' }).click()
    await guestBooking(started.service, { tour_id: 'pastel-de-nata-workshop', start: '2026-06-02T09:00:00Z', party: 3 }, { name: 'Four Seats', email: 'four@example.org' })
    await page.getByLabel('Guests').fill('2')
    await page.getByRole('button', { name: 'Day before' }).click()
    await page.getByRole('button', { name: 'Day after' }).click()
    // Waited for by its new seats: the day's list is read again after each step.
    const morning = page.locator('.departure-options li', { hasText: /\b10:00/ }).filter({ hasText: '1 of 4 free · too few for 2' })
    await morning.waitFor()
    assert.equal(await morning.locator('input').isDisabled(), true)
    await page.getByLabel('Name').fill('Tess Tull')
    await page.getByLabel('Email', { exact: true }).fill('not an address')
    await page.locator('.departure-options label', { hasText: '15:00' }).click()
    await page.getByRole('button', { name: 'Make booking' }).click()
    // The first attempt's "Enter an email address or a phone number" is still shown until the service's answer replaces it.
    await page.locator('#new-email-error', { hasText: 'not an email address' }).waitFor()
    await focusReaches(page, 'new-email')
    assert.equal(await page.locator('#new-email').getAttribute('aria-describedby'), 'new-email-error')
    await assertAccessible(page, 'new booking refused')
    assert.deepEqual(office.faults, [])
    await office.close()
  })

  test('a viewer on a phone sees the list and a booking\'s detail, history and emails, with no buttons to act', async () => {
    const { booking } = await guestBooking(started.service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1 }, { name: 'Vera Viewed', email: 'vera@example.pt' })
    await deliverEmails()
    const office = await officePage({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true })
    const { page } = office
    await signInToBookings(page, 'viewer')
    assert.equal(await page.getByRole('link', { name: 'New booking' }).count(), 0)
    await page.getByLabel('Code, name, email or phone').fill(booking.code)
    await page.getByRole('button', { name: 'Search' }).click()
    await page.locator('.booking-row', { hasText: 'Vera Viewed' }).waitFor()
    assert.ok(await mainFits(page), 'the list fits 375 px')
    await assertAccessible(page, 'bookings list as a viewer')
    await page.getByRole('link', { name: /Vera Viewed/ }).click()
    await page.getByRole('heading', { level: 1, name: /Vera Viewed/ }).waitFor()
    await page.locator('.email-log li', { hasText: 'Confirmation' }).first().waitFor()
    await page.locator('.history li').first().waitFor()
    assert.equal(await page.locator('main button').count(), 0, 'no action a viewer may not take')
    assert.ok(await mainFits(page), 'the detail fits 375 px')
    await assertAccessible(page, 'booking detail as a viewer')
    await page.goto(officeUrl('bookings/new'))
    await page.getByRole('heading', { level: 1, name: 'Nothing here' }).waitFor()
    assert.deepEqual(office.faults, [])
    assert.deepEqual(office.consoleErrors, [])
    await office.close()
  })
})
