import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { Page } from 'playwright-core'
import type { Role } from '../../src/domain/roles.ts'
import { backOfficeSuite } from '../helpers/back-office.ts'
import { bookingPageUrl, fitsWidth } from '../helpers/booking-page.ts'
import { assertAccessible, browserSkipReason, focusReaches, screenshot } from '../helpers/browser.ts'

// The back office's calendar (issue 17) in Chromium, on the real app and database. The
// server's clock and the browser's are held at DEFAULT_NOW (Monday 1 June 2026, 09:00 in
// Lisbon), so the calendar opens on the week of 1 to 7 June.

// The callbacks given to page.waitForFunction run in the browser, where this exists.
declare const document: { activeElement: { id: string } | null }

describe('the back office calendar in Chromium', { skip: browserSkipReason(), timeout: 300_000 }, () => {
  const started = backOfficeSuite()
  const { officePage, signInAs, follow } = started

  /** A staff account of `role`, signed in through the form, on the calendar of this week. */
  async function calendarAs(page: Page, role: Role): Promise<void> {
    await signInAs(page, role)
    await follow(page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Calendar' }))
    await page.getByRole('heading', { level: 1, name: /Calendar\s*Week of 1\s*–\s*7 June 2026/ }).waitFor()
  }

  /** The departure as the operator API lists it. */
  async function departure(tour: string, start: string): Promise<any> {
    const date = new Date(Date.parse(start) + 3_600_000).toISOString().slice(0, 10)
    const answer = await started.manager.get(`/departures?from=${date}&to=${date}&tour=${tour}`)
    assert.equal(answer.status, 200, answer.text)
    return answer.body.departures.find((d: { start: string }) => Date.parse(d.start) === Date.parse(start))
  }

  /** A confirmed staff booking (a phone call) on a departure. */
  async function booked(tour: string, start: string, party: number, name: string): Promise<string> {
    const made = await started.manager.post('/bookings', {
      tour_id: tour, start, party, status: 'confirmed', contact: { name, email: `guest-${Math.random().toString(36).slice(2, 8)}@example.pt` },
    })
    assert.equal(made.status, 201, made.text)
    return made.body.code
  }

  test('a manager closes a departure and the booking page shows it closed; reopened, guests can book it again', async () => {
    const start = '2026-06-02T13:00:00Z' // alfama-walk 14:00 on Tuesday 2 June
    const office = await officePage()
    const { page } = office
    await calendarAs(page, 'manager')
    const week = page.locator('table.calendar-week')
    await week.waitFor()
    assert.equal(await week.locator('thead th').count(), 8, 'a column for the tours, and one per day')
    assert.match(await week.locator('thead').textContent() ?? '', /Monday,? 1 June 2026.*Sunday,? 7 June 2026/)
    await assertAccessible(page, 'calendar week')
    await screenshot(page, 'back-office-calendar-week')

    const slot = page.getByRole('button', { name: /^Alfama & Mouraria Walking Tour, Tuesday,? 2 June 2026, 14:00$/ })
    await slot.click()
    const panel = page.getByRole('dialog', { name: /Alfama & Mouraria Walking Tour/ })
    await panel.waitFor()
    await page.waitForFunction(() => document.activeElement?.id === 'panel-title')
    assert.match(await panel.textContent() ?? '', /0 of 16 booked/)
    await assertAccessible(page, 'departure panel')
    await panel.getByRole('button', { name: 'Close to new bookings' }).click()
    await panel.getByRole('button', { name: 'Reopen to bookings' }).waitFor()
    await page.locator('.status-line', { hasText: 'closed to new bookings' }).waitFor()
    await focusReaches(page, 'panel-toggle', 'focus stays on the button, now Reopen')
    assert.equal((await departure('alfama-walk', start)).closed, true, 'the operator API says closed')

    // Escape closes the panel; focus goes back to the departure, which the week marks closed.
    await page.keyboard.press('Escape')
    await panel.waitFor({ state: 'detached' })
    await page.waitForFunction(() => document.activeElement?.id?.startsWith('slot-alfama-walk-') === true)
    assert.equal(await page.locator('.slot[data-state="closed"]').filter({ has: slot }).count(), 1)
    assert.match(await page.locator('.slot').filter({ has: slot }).textContent() ?? '', /Closed to new bookings/)

    const guest = await officePage()
    const booking = guest.page
    await booking.goto(bookingPageUrl(started.service.origin, 'lisbon', 'alfama-walk'))
    await booking.locator('input[name="start"]').first().waitFor({ state: 'attached' })
    await booking.check('#date-2026-06-02')
    const time = booking.locator('#time-2026-06-02-1400')
    await time.waitFor({ state: 'attached' })
    assert.equal(await time.isDisabled(), true, 'the guest cannot choose the closed time')
    assert.match(await booking.locator('label[for="time-2026-06-02-1400"]').textContent() ?? '', /Booking closed/)
    const slots = (await started.service.client('lisbon').get('/availability?tour=alfama-walk&date=2026-06-02&days=1')).body.slots
    assert.equal(slots.find((s: { start: string }) => Date.parse(s.start) === Date.parse(start))?.status, 'closed')

    await slot.click()
    await panel.getByRole('button', { name: 'Reopen to bookings' }).click()
    await panel.getByRole('button', { name: 'Close to new bookings' }).waitFor()
    assert.equal((await departure('alfama-walk', start)).closed, false)
    await booking.reload()
    await booking.locator('input[name="start"]').first().waitFor({ state: 'attached' })
    await booking.check('#date-2026-06-02')
    await booking.locator('#time-2026-06-02-1400').waitFor({ state: 'attached' })
    assert.equal(await booking.locator('#time-2026-06-02-1400').isDisabled(), false, 'reopened, the guest can choose it again')
    assert.doesNotMatch(await booking.locator('label[for="time-2026-06-02-1400"]').textContent() ?? '', /Booking closed/)
    assert.deepEqual(guest.faults, [])
    await guest.close()
    assert.deepEqual(office.faults, [])
    assert.deepEqual(office.consoleErrors, [])
    await office.close()
  })

  test('a capacity below the seats taken is refused next to the field; a fitting one is saved with a note', async () => {
    const start = '2026-06-03T08:30:00Z' // alfama-walk 09:30 on Wednesday 3 June
    await booked('alfama-walk', start, 3, 'Rui Costa')
    const office = await officePage()
    const { page } = office
    await calendarAs(page, 'staff')
    await page.getByRole('button', { name: /^Alfama & Mouraria Walking Tour, Wednesday,? 3 June 2026, 9:30$/ }).click()
    const panel = page.getByRole('dialog')
    const capacity = panel.getByLabel('Capacity (seats)')
    assert.equal(await capacity.inputValue(), '16')
    await capacity.fill('2')
    await panel.getByRole('button', { name: 'Save changes' }).click()
    const error = panel.locator('#panel-capacity-error')
    await error.waitFor()
    assert.equal(await error.textContent(), '3 seats are taken on this departure: the capacity cannot go below 3.')
    assert.equal(await capacity.getAttribute('aria-invalid'), 'true')
    assert.match(await capacity.getAttribute('aria-describedby') ?? '', /panel-capacity-error/)
    await page.waitForFunction(() => document.activeElement?.id === 'panel-capacity')
    await assertAccessible(page, 'capacity refused')
    assert.equal((await departure('alfama-walk', start)).capacity, 16, 'nothing changed')

    await capacity.fill('10')
    await panel.getByLabel('Note for staff and guides').fill('Meet at the Sé steps: the square is closed')
    await panel.getByRole('button', { name: 'Save changes' }).click()
    await panel.getByText('Saved: capacity 10 seats, note saved.').waitFor()
    assert.equal(await error.count(), 0, 'the refusal is gone')
    const saved = await departure('alfama-walk', start)
    assert.deepEqual([saved.capacity, saved.capacity_source, saved.note], [10, 'operator', 'Meet at the Sé steps: the square is closed'])
    assert.match(await panel.textContent() ?? '', /3 of 10 booked/)

    // A version changed meanwhile by someone else: the panel reloads and says so.
    assert.equal((await started.manager.patch(`/departures/alfama-walk/${encodeURIComponent(start)}`, { capacity: 12 })).status, 200)
    await capacity.fill('11')
    await panel.getByRole('button', { name: 'Save changes' }).click()
    await panel.getByText(/Someone else changed this departure just now/).waitFor()
    assert.equal(await capacity.inputValue(), '12', 'the field shows the capacity as it is now')
    assert.equal((await departure('alfama-walk', start)).capacity, 12)
    assert.deepEqual(office.faults, [])
    await office.close()
  })

  test('a manager adds an extra departure in the operator\'s zone; it shows in the calendar and the API', async () => {
    const office = await officePage({ timezoneId: 'America/New_York' })
    const { page } = office
    await calendarAs(page, 'manager')
    await page.getByRole('button', { name: 'Add an extra departure' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add an extra departure' })
    await dialog.waitFor()
    await page.waitForFunction(() => document.activeElement?.id === 'add-tour')
    await dialog.getByLabel('Tour').selectOption({ label: 'Port Wine Tasting in Chiado' })
    await dialog.getByLabel('Date').fill('2026-06-05')
    // 16:00 on Friday is on the schedule already: the refusal is shown at the time.
    await dialog.getByLabel(/Start time/).fill('16:00')
    await dialog.getByRole('button', { name: 'Add the departure' }).click()
    await dialog.locator('#add-time-error').waitFor()
    assert.match(await dialog.locator('#add-time-error').textContent() ?? '', /already/i)
    await assertAccessible(page, 'add departure refused')
    await screenshot(page, 'back-office-calendar-add')

    await dialog.getByLabel(/Start time/).fill('21:00')
    await dialog.getByLabel('Capacity (seats, optional)').fill('8')
    await dialog.getByRole('button', { name: 'Add the departure' }).click()
    await dialog.waitFor({ state: 'detached' })
    await page.locator('.status-line', { hasText: 'Extra departure added: Port Wine Tasting in Chiado' }).waitFor()
    const added = page.getByRole('button', { name: /^Port Wine Tasting in Chiado, Friday,? 5 June 2026, 21:00$/ })
    await added.waitFor()
    await page.waitForFunction(() => document.activeElement?.id?.startsWith('slot-port-wine-tasting-') === true)
    assert.match(await page.locator('.slot').filter({ has: added }).textContent() ?? '', /Extra departure.*0 of 8|0 of 8.*Extra departure/s)
    const listed = await departure('port-wine-tasting', '2026-06-05T20:00:00Z')
    assert.ok(listed, 'the API lists it, 21:00 in Lisbon (20:00 UTC), though the browser is in New York')
    assert.deepEqual([listed.extra, listed.capacity, listed.time], [true, 8, '21:00'])

    // The month shows it as well, in brief.
    await page.getByRole('link', { name: 'Month' }).click()
    await page.getByRole('heading', { level: 1, name: /June 2026/ }).waitFor()
    const month = page.locator('table.calendar-month')
    await month.waitFor()
    const brief = month.locator('.slot.compact').filter({ has: page.getByRole('button', { name: /^Port Wine Tasting in Chiado, Friday,? 5 June 2026, 21:00$/ }) })
    assert.match(await brief.textContent() ?? '', /0 of 8.*Extra/)
    assert.match(new URL(page.url()).pathname, /\/calendar\/month\/2026-06-01$/)
    await assertAccessible(page, 'calendar month')
    await screenshot(page, 'back-office-calendar-month')

    // One tour at a time, kept in the address.
    await page.getByLabel('Tour', { exact: true }).selectOption({ label: 'Port Wine Tasting in Chiado' })
    await page.getByRole('button', { name: 'Show' }).click()
    await page.getByRole('heading', { level: 1, name: /June 2026 · Port Wine Tasting in Chiado/ }).waitFor()
    assert.match(new URL(page.url()).pathname, /\/calendar\/month\/2026-06-01\/port-wine-tasting$/)
    await page.getByRole('link', { name: 'Next month' }).click()
    await page.getByRole('heading', { level: 1, name: /July 2026 · Port Wine Tasting/ }).waitFor()
    await month.waitFor()
    assert.equal(await page.locator('.slot-tour').count(), 0, 'one tour: its name is not repeated in every cell')
    await page.goBack()
    await page.getByRole('heading', { level: 1, name: /June 2026 · Port Wine Tasting/ }).waitFor()
    assert.deepEqual(office.faults, [])
    await office.close()
  })

  test('a manager cancels a departure with a reason after confirming; its bookings are cancelled', async () => {
    const start = '2026-06-04T19:30:00Z' // fado-night 20:30 on Thursday 4 June
    const codes = [await booked('fado-night', start, 2, 'Ana Silva'), await booked('fado-night', start, 1, 'João Reis')]
    const office = await officePage()
    const { page } = office
    await calendarAs(page, 'manager')
    await page.getByRole('button', { name: /^Fado à Noite in Alfama, Thursday,? 4 June 2026, 20:30$/ }).click()
    const panel = page.getByRole('dialog')
    await panel.getByRole('button', { name: 'Cancel this departure…' }).click()
    await page.waitForFunction(() => document.activeElement?.id === 'cancel-reason')
    await panel.getByRole('button', { name: 'Continue' }).click()
    await panel.locator('#cancel-reason-error').waitFor()
    assert.match(await panel.locator('#cancel-reason-error').textContent() ?? '', /Give the reason/)
    await panel.getByLabel('Reason').fill('The fado house is closed for repairs')
    assert.equal(await panel.getByLabel('Tell the guests by email').isChecked(), true)
    await panel.getByRole('button', { name: 'Continue' }).click()
    const confirm = panel.getByRole('button', { name: 'Cancel the departure' })
    await confirm.waitFor()
    await page.waitForFunction(() => document.activeElement?.id === 'cancel-confirm')
    // No SMTP_URL here: the panel says the guests are not emailed, not that they are (issue 25, item 4).
    assert.match(await panel.locator('#cancel-summary').textContent() ?? '', /3 guests lose their bookings.*Email is not set up on this service \(see Settings\), so the guests are not emailed/)
    await assertAccessible(page, 'cancel confirmation')
    await screenshot(page, 'back-office-calendar-cancel')
    for (const code of codes) assert.equal((await started.manager.get(`/bookings/${code}`)).body.status, 'confirmed', 'nothing happens before the confirmation')

    await confirm.click()
    await panel.locator('.badge', { hasText: 'Cancelled' }).waitFor()
    await page.locator('.status-line', { hasText: 'Departure cancelled: 2 bookings cancelled; the guests are not emailed: email is not set up on this service (see Settings).' }).waitFor()
    assert.equal(await panel.getByRole('button', { name: /Close to new bookings|Reopen|Cancel this departure/ }).count(), 0, 'a cancelled departure offers no changes')
    const cancelled = await departure('fado-night', start)
    assert.deepEqual([cancelled.cancelled, cancelled.closed], [true, true])
    for (const code of codes) {
      const booking = (await started.manager.get(`/bookings/${code}`)).body
      assert.deepEqual([booking.status, booking.cancellation?.reason], ['cancelled', 'The fado house is closed for repairs'])
    }
    assert.deepEqual(office.faults, [])
    await office.close()
  })

  test('a viewer sees the week and month with no change buttons, and follows a departure to its manifest', async () => {
    await booked('alfama-walk', '2026-06-05T08:30:00Z', 2, 'Inês Lopes')
    const office = await officePage()
    const { page } = office
    await calendarAs(page, 'viewer')
    await page.locator('table.calendar-week').waitFor()
    assert.deepEqual(await page.locator('main button').allTextContents(), ['Show'], 'only the tour filter\'s button')
    await assertAccessible(page, 'calendar week as a viewer')
    await page.getByRole('link', { name: 'Month' }).click()
    await page.locator('table.calendar-month').waitFor()
    assert.deepEqual(await page.locator('main button').allTextContents(), ['Show'])
    await page.getByRole('link', { name: /^Alfama & Mouraria Walking Tour, Friday,? 5 June 2026, 9:30: manifest$/ }).click()
    await page.locator('.guest', { hasText: 'Inês Lopes' }).waitFor()
    assert.match(await page.getByRole('heading', { level: 1 }).textContent() ?? '', /Alfama & Mouraria Walking Tour/)
    assert.deepEqual(office.faults, [])
    assert.deepEqual(office.consoleErrors, [])
    await office.close()
  })

  test('on a 375 px phone a guide sees the week as a list of days, with no change buttons', async () => {
    const office = await officePage({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true })
    const { page } = office
    await calendarAs(page, 'guide')
    const monday = page.getByRole('region', { name: /Monday,? 1 June 2026/ })
    await monday.waitFor()
    assert.equal(await page.locator('table').count(), 0, 'no table on a phone')
    assert.equal(await page.locator('.calendar-day').count(), 7)
    assert.match(await monday.textContent() ?? '', /Alfama & Mouraria Walking Tour/)
    assert.ok(await fitsWidth(page), 'nothing scrolls sideways at 375 px')
    assert.deepEqual(await page.locator('main button').allTextContents(), ['Show'])
    const link = monday.getByRole('link', { name: /^Alfama & Mouraria Walking Tour, Monday,? 1 June 2026, 17:30: manifest$/ })
    const box = await link.boundingBox()
    assert.ok(box && box.height >= 44 && box.width >= 44, `a large target: ${JSON.stringify(box)}`)
    await assertAccessible(page, 'calendar on a phone')
    await screenshot(page, 'back-office-calendar-phone')
    assert.deepEqual(office.faults, [])
    assert.deepEqual(office.consoleErrors, [])
    await office.close()
  })

  test('on a 375 px phone on a Thursday the week starts at today, and a departure\'s panel shows its Done button whole', async () => {
    const office = await officePage({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true })
    const { page } = office
    await page.clock.setFixedTime(new Date('2026-06-04T08:00:00Z')) // Thursday 4 June, 09:00 in Lisbon
    await signInAs(page, 'staff')
    await follow(page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Calendar' }))
    await page.getByRole('heading', { level: 1, name: /Calendar\s*Week of 4\s*–\s*10 June 2026/ }).waitFor()
    const days = await page.locator('.calendar-day h2').allTextContents()
    assert.match(days[0], /^Thursday,? 4 June 2026\s*Today$/, `the list starts at today: ${days.join(' | ')}`)
    assert.equal(days.length, 7)
    assert.match(days[6], /Wednesday,? 10 June 2026/)

    await page.getByRole('button', { name: /^Alfama & Mouraria Walking Tour, Thursday,? 4 June 2026, 14:00$/ }).tap()
    const panel = page.getByRole('dialog', { name: /Alfama & Mouraria Walking Tour/ })
    await panel.waitFor()
    const done = panel.getByRole('button', { name: 'Done' })
    // The button squeezed by a long title drew its word over its own padding and border.
    const fit = await done.evaluate((button) => {
      // Runs in the browser, whose globals this file's types do not declare.
      const { getComputedStyle, document, innerWidth } = globalThis as any
      const box = button.getBoundingClientRect()
      const dialog = button.closest('dialog')!.getBoundingClientRect()
      const style = getComputedStyle(button)
      const range = document.createRange()
      range.selectNodeContents(button)
      const text = range.getBoundingClientRect()
      return {
        left: box.left, right: box.right, dialogLeft: dialog.left, dialogRight: dialog.right, viewport: innerWidth,
        textLeft: text.left, textRight: text.right, innerLeft: box.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft),
        innerRight: box.right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight),
      }
    })
    assert.ok(fit.left >= fit.dialogLeft && fit.right <= fit.dialogRight && fit.right <= fit.viewport, `Done lies inside the dialog: ${JSON.stringify(fit)}`)
    assert.ok(fit.textLeft >= fit.innerLeft - 0.5 && fit.textRight <= fit.innerRight + 0.5, `its word fits inside its padding: ${JSON.stringify(fit)}`)
    await assertAccessible(page, 'departure panel on a phone')
    await screenshot(page, 'back-office-calendar-panel-phone')
    await done.tap()
    await panel.waitFor({ state: 'detached' })
    assert.deepEqual(office.faults, [])
    await office.close()
  })
})
