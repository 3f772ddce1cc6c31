import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { setupLink } from '../../src/domain/links.ts'
import { FADO_MON, FADO_TUE, guestBooking } from '../admin/bookings-fixtures.ts'
import { backOfficeSuite, SYSTEM } from '../helpers/back-office.ts'
import { fitsWidth } from '../helpers/booking-page.ts'
import { assertAccessible, browserSkipReason, focused, screenshot, tabTo } from '../helpers/browser.ts'
import { STAFF_PASSWORD } from '../helpers/operator.ts'

// The back office (issue 17) in Chromium, on the real app and database: the server's clock
// and the browser's are both held at DEFAULT_NOW (Monday 1 June 2026, 09:00 in Lisbon), so
// "today" is the same day for both.

/** alfama-walk at 17:30 on Monday 1 June, Lisbon: today's departure the guide works. */
const ALFAMA_TODAY_1730 = '2026-06-01T16:30:00Z'
// The callbacks given to page.waitForFunction run in the browser, where this exists.
declare const document: { activeElement: { id: string } | null }

describe('the back office in Chromium', { skip: browserSkipReason(), timeout: 300_000 }, () => {
  const started = backOfficeSuite()
  const { ref, officeUrl, officePage, signInAs, follow } = started

  /** Declines every waiting request, so a test starts with an empty inbox. */
  async function clearRequests(): Promise<void> {
    const waiting = (await started.manager.get('/bookings?status=requested&limit=200')).body.bookings
    for (const booking of waiting) assert.equal((await started.manager.post(`/bookings/${booking.code}/decline`, {})).status, 200)
  }

  test('the page is served with a strict policy, hashed immutable assets, and answers every path below the instance', async () => {
    const shell = await fetch(officeUrl('requests'))
    assert.equal(shell.status, 200)
    const policy = shell.headers.get('content-security-policy')!
    assert.match(policy, /script-src 'self'/)
    assert.doesNotMatch(policy, /unsafe-inline/)
    const html = await shell.text()
    assert.doesNotMatch(html, /<script>|<style>|style=/, 'no inline script or style')
    const script = /src="(\/admin\/_assets\/back-office-[A-Z0-9]+\.js)"/.exec(html)?.[1]
    assert.ok(script, html)
    const asset = await fetch(`${started.service.origin}${script}`)
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable')
    assert.equal((await fetch(officeUrl('departures/alfama-walk/x'))).status, 200)
    assert.equal((await fetch(`${started.service.origin}/admin/nowhere/`)).status, 404)
    const unknownApi = await fetch(`${started.service.origin}/admin/api/lisbon/no-such-thing`)
    assert.equal(unknownApi.status, 404)
    assert.match(unknownApi.headers.get('content-type')!, /problem\+json/)
  })

  test('a manager signs in through the setup link, sees a guest\'s request arrive without reloading, and confirms it', async () => {
    await clearRequests()
    const { setupToken } = await started.service.context.staff.addStaff(ref(), { email: 'marta@example.com', name: 'Marta Reis', role: 'manager' }, SYSTEM, started.service.clock.now())
    const office = await officePage()
    const { page } = office
    await page.goto(setupLink(started.service.origin, 'lisbon', setupToken!))
    await page.getByRole('heading', { name: /Set your password/ }).waitFor()
    await assertAccessible(page, 'setup')
    await screenshot(page, 'back-office-setup')
    await page.getByLabel('New password').fill(STAFF_PASSWORD)
    await page.getByLabel('The same password again').fill(STAFF_PASSWORD)
    await page.getByRole('button', { name: 'Set password and sign in' }).click()
    await page.getByRole('heading', { level: 1, name: /^Today/ }).waitFor()
    assert.equal(new URL(page.url()).pathname, '/admin/lisbon/')
    assert.equal(new URL(page.url()).hash, '', 'the spent token leaves the address bar')
    await page.locator('.departure', { hasText: 'Fado' }).first().waitFor()
    assert.match(await page.textContent('main') ?? '', /Monday,? 1 June 2026/)
    await assertAccessible(page, 'today')
    await screenshot(page, 'back-office-today')

    await follow(page.getByRole('link', { name: 'Requests' }))
    await page.getByText('No requests are waiting.').waitFor()
    await page.evaluate('window.notReloaded = true')
    const { client, session, booking } = await guestBooking(started.service, { tour_id: 'fado-night', start: FADO_MON, party: 2 })
    const card = page.locator('.request', { hasText: booking.code })
    await card.waitFor()
    assert.equal(await page.evaluate('window.notReloaded'), true, 'the request appeared without a reload')
    assert.match(await card.textContent() ?? '', /Starts in 12 hours/)
    await assertAccessible(page, 'requests')
    await screenshot(page, 'back-office-requests')

    await card.getByRole('button', { name: /^Confirm request/ }).click()
    await page.getByText('No requests are waiting.').waitFor()
    await page.locator('.status-line', { hasText: `${booking.code} from Ana Silva confirmed` }).waitFor()
    const seen = await client.get('/booking', { headers: session.headers })
    assert.equal(seen.body.status, 'confirmed')
    assert.deepEqual(office.faults, [])
    assert.deepEqual(office.consoleErrors, [])
    await office.close()
  })

  test('a guide on a 375 px phone opens today\'s manifest, taps to call, checks a guest in and undoes it', async () => {
    const made = await started.manager.post('/bookings', {
      tour_id: 'alfama-walk', start: ALFAMA_TODAY_1730, party: 2, status: 'confirmed', internal_note: 'One guest uses a cane',
      contact: { name: 'Rui Costa', email: 'rui@example.pt', phone: '+351 912 345 678' },
    })
    assert.equal(made.status, 201, made.text)
    const code = made.body.code
    const office = await officePage({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true })
    const { page } = office
    await page.goto(officeUrl())
    await assertAccessible(page, 'sign-in')
    await screenshot(page, 'back-office-sign-in')
    await signInAs(page, 'guide')
    assert.equal(await page.getByRole('link', { name: 'Requests' }).count(), 0, 'a guide does not read bookings')

    await page.locator('.departure', { hasText: '17:30' }).filter({ hasText: 'Alfama' }).getByRole('link').click()
    await page.locator('.guest', { hasText: 'Rui Costa' }).waitFor()
    const guest = page.locator('.guest', { hasText: 'Rui Costa' })
    assert.equal(await guest.getByRole('link', { name: /Call/ }).getAttribute('href'), 'tel:+351912345678')
    assert.match(await guest.textContent() ?? '', /One guest uses a cane/)
    assert.match(await guest.textContent() ?? '', /Due on arrival: €/)
    assert.ok(await fitsWidth(page), 'nothing scrolls sideways at 375 px')
    const checkIn = guest.getByRole('button', { name: 'Check in: Rui Costa' })
    const box = await checkIn.boundingBox()
    assert.ok(box && box.height >= 44 && box.width >= 44, `the button is a large target: ${JSON.stringify(box)}`)
    assert.equal(await guest.getByRole('button', { name: /No-show/ }).count(), 0, 'no-show only once the departure has started')

    await checkIn.tap()
    await guest.getByText('Checked in', { exact: true }).waitFor()
    // Focus moves after the answer is drawn: wait for it, then say where it went if it did not.
    await page.waitForFunction(() => (document.activeElement as unknown as { textContent: string | null } | null)?.textContent === 'Undo check-in', undefined, { timeout: 5000 }).catch(() => {})
    assert.equal((await focused(page)).text, 'Undo check-in', 'focus stays on the guest, on the undo')
    assert.equal((await started.manager.get(`/bookings/${code}`)).body.status, 'completed')
    await guest.getByRole('button', { name: 'Undo check-in: Rui Costa' }).tap()
    await guest.getByText('Expected', { exact: true }).waitFor()
    assert.equal((await started.manager.get(`/bookings/${code}`)).body.status, 'confirmed')
    await guest.getByRole('button', { name: 'Check in: Rui Costa' }).tap()
    await guest.getByText('Checked in', { exact: true }).waitFor()
    assert.equal((await started.manager.get(`/bookings/${code}`)).body.status, 'completed')
    await assertAccessible(page, 'manifest')
    await screenshot(page, 'back-office-manifest-phone')

    await page.emulateMedia({ media: 'print' })
    assert.equal(await page.locator('.top-bar').isVisible(), false, 'the print sheet leaves the navigation out')
    assert.equal(await guest.locator('button').first().isVisible(), false, 'and the buttons')
    await screenshot(page, 'back-office-manifest-print')
    await page.emulateMedia({ media: 'screen' })
    assert.deepEqual(office.faults, [])
    assert.deepEqual(office.consoleErrors, [])
    await office.close()
  })

  test('a viewer sees requests and manifests with no buttons it may not use; times name the operator\'s zone', async () => {
    await clearRequests()
    const { booking } = await guestBooking(started.service, { tour_id: 'fado-night', start: FADO_TUE, party: 1 }, { name: 'Inês Lopes', email: 'ines@example.pt' })
    const office = await officePage({ timezoneId: 'America/New_York' })
    const { page } = office
    await signInAs(page, 'viewer')
    assert.match(await page.textContent('.zone-note') ?? '', /Lisbon time \(Europe\/Lisbon\)/)
    await follow(page.getByRole('link', { name: 'Requests' }))
    const card = page.locator('.request', { hasText: booking.code })
    await card.waitFor()
    assert.match(await card.textContent() ?? '', /Lisbon time/, 'the start names the operator\'s zone')
    assert.equal(await page.locator('main button').count(), 0, 'no confirm or decline for a viewer')
    await assertAccessible(page, 'requests as a viewer')
    await screenshot(page, 'back-office-requests-viewer')

    await page.getByRole('link', { name: 'Today' }).click()
    await page.locator('.departure', { hasText: 'Alfama' }).first().waitFor()
    await page.locator('.departure', { hasText: '17:30' }).filter({ hasText: 'Alfama' }).getByRole('link').click()
    await page.locator('.guest', { hasText: 'Rui Costa' }).waitFor()
    assert.deepEqual(await page.locator('main button').allTextContents(), ['Print'], 'a viewer may only print the manifest')
    await assertAccessible(page, 'manifest as a viewer')
    assert.deepEqual(office.faults, [])
    assert.deepEqual(office.consoleErrors, [])
    await office.close()
  })

  test('a guide steps from today to the next day and back, and each day lists that day\'s departures', async () => {
    const office = await officePage()
    const { page } = office
    await signInAs(page, 'guide')
    await follow(page.getByRole('link', { name: 'Next day →' }))
    await page.waitForURL(officeUrl('today/2026-06-02'))
    const heading = page.getByRole('heading', { level: 1 })
    await page.waitForFunction(() => document.activeElement !== null && (document.activeElement as unknown as { tagName: string }).tagName === 'H1')
    assert.doesNotMatch(await heading.textContent() ?? '', /Today/)
    const tuesday = (await started.manager.get('/departures?from=2026-06-02&to=2026-06-02&limit=200')).body.departures
    assert.ok(tuesday.length > 0)
    await page.locator('.departure').nth(tuesday.length - 1).waitFor()
    assert.equal(await page.locator('.departure').count(), tuesday.length, 'every departure of Tuesday, and only those')
    await assertAccessible(page, 'another day')
    await follow(page.getByRole('link', { name: 'Today', exact: true }).last())
    await page.getByRole('heading', { level: 1, name: /^Today/ }).waitFor()
    await follow(page.getByRole('link', { name: '← Previous day' }))
    await page.waitForURL(officeUrl('today/2026-05-31'))
    assert.deepEqual(office.consoleErrors, [])
    await office.close()
  })

  test('keyboard only: a staff member confirms one request and declines another with a reason; focus follows', async () => {
    await clearRequests()
    const older = await guestBooking(started.service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 }, { name: 'Older Request', email: 'older@example.pt' })
    // Asked later, though for an earlier departure: the inbox goes by when each was asked.
    started.service.clock.advance({ minutes: 5 })
    const newer = await guestBooking(started.service, { tour_id: 'fado-night', start: FADO_MON, party: 1 }, { name: 'Newer Request', email: 'newer@example.pt' })
    const office = await officePage()
    const { page } = office
    const email = `staff-${Math.random().toString(36).slice(2, 8)}@example.com`
    await started.service.context.staff.addStaff(ref(), { email, name: 'Kim Staff', role: 'staff', password: STAFF_PASSWORD }, SYSTEM, started.service.clock.now())
    await page.goto(officeUrl('requests'))
    // The sign-in view focuses its heading once drawn; Tab from there, not from before it.
    await page.waitForFunction(() => (document.activeElement as unknown as { tagName: string } | null)?.tagName === 'H1')
    await tabTo(page, (e) => e.id === 'email', 'the email field')
    await page.keyboard.type(email)
    await page.keyboard.press('Tab')
    await page.keyboard.type(STAFF_PASSWORD)
    assert.equal((await focused(page)).id, 'password', 'Tab went from the email to the password')
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { level: 1, name: /^Requests/ }).waitFor().catch(async (err) => {
      throw new Error(`no Requests heading after signing in; the page says: ${await page.locator('main').textContent()}`, { cause: err })
    })
    const first = page.locator('.request').first()
    assert.match(await first.textContent() ?? '', /Older Request/, 'oldest first')

    await tabTo(page, (e) => e.id === `confirm-${older.booking.code}`, 'the first Confirm button')
    await page.keyboard.press('Enter')
    await page.locator('.request', { hasText: older.booking.code }).waitFor({ state: 'detached' })
    await page.waitForFunction((id) => document.activeElement?.id === id, `confirm-${newer.booking.code}`)

    await page.keyboard.press('Tab')
    assert.equal((await focused(page)).id, `decline-${newer.booking.code}`)
    await page.keyboard.press('Enter')
    await page.waitForFunction((id) => document.activeElement?.id === id, `reason-${newer.booking.code}`)
    await assertAccessible(page, 'decline form')
    await screenshot(page, 'back-office-decline')
    await page.keyboard.type('The musicians are away that night')
    await tabTo(page, (e) => e.text === 'Decline request', 'Decline request')
    await page.keyboard.press('Enter')
    await page.getByText('No requests are waiting.').waitFor()
    await page.waitForFunction(() => (document.activeElement as unknown as { tagName: string } | null)?.tagName === 'H1', undefined, { timeout: 5000 }).catch(() => {})
    assert.equal((await focused(page)).tag, 'h1', 'with nothing left, focus goes to the heading')

    assert.equal((await started.manager.get(`/bookings/${older.booking.code}`)).body.status, 'confirmed')
    const declined = (await started.manager.get(`/bookings/${newer.booking.code}`)).body
    assert.deepEqual([declined.status, declined.decline_reason], ['declined', 'The musicians are away that night'])
    assert.deepEqual(office.faults, [])
    assert.deepEqual(office.consoleErrors, [])
    await office.close()
  })

  test('a locked-out email and an ended session each get a sentence that says what happened', async () => {
    const office = await officePage()
    const { page } = office
    const { email } = await signInAs(page, 'staff')
    // Today's own read must be answered first: made after the clock moves, it would end the session before the link is followed.
    await page.locator('.departure').first().waitFor()
    // Unused for more than 2 hours, the session ends; the next call is refused.
    started.service.clock.advance({ hours: 3 })
    await follow(page.getByRole('link', { name: 'Requests' }))
    await page.getByText(/Your session has ended/).waitFor()
    await page.getByRole('heading', { name: /Sign in/ }).waitFor()
    await assertAccessible(page, 'session ended')
    await screenshot(page, 'back-office-session-ended')

    for (let i = 0; i < 5; i++) {
      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Password').fill('not the password at all')
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.locator('#sign-in-error').waitFor()
      await page.getByRole('button', { name: 'Sign in' }).and(page.locator(':enabled')).waitFor()
    }
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(STAFF_PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByText(/this account is locked for 15 minutes, even with the right password/).waitFor()
    await assertAccessible(page, 'locked out')
    await screenshot(page, 'back-office-locked-out')
    assert.deepEqual(office.faults, [])
    await office.close()
  })

  test('a guide who opens Settings or Bookings is told they have no access; tomorrow\'s manifest offers no check-in yet', async () => {
    const tomorrow = await started.manager.post('/bookings', {
      tour_id: 'alfama-walk', start: '2026-06-02T08:30:00Z', party: 2, status: 'confirmed', contact: { name: 'Inês Rocha', email: 'ines@example.pt' },
    })
    assert.equal(tomorrow.status, 201, tomorrow.text)
    const office = await officePage()
    const { page } = office
    await signInAs(page, 'guide', { path: 'settings', heading: 'No access to Settings' })
    const main = await page.textContent('main') ?? ''
    assert.match(main, /Settings is open to managers\. You are signed in as a guide, so it is not open to you/)
    assert.doesNotMatch(main, /not a page/)
    await assertAccessible(page, 'no access')
    await page.goto(officeUrl('bookings'))
    await page.getByRole('heading', { level: 1, name: 'No access to Bookings' }).waitFor()
    assert.match(await page.textContent('main') ?? '', /Bookings is open to viewers, staff and managers/)
    await page.goto(officeUrl('nowhere'))
    await page.getByRole('heading', { level: 1, name: 'Nothing here' }).waitFor()

    // The API refuses a check-in before the departure's day (departure_not_today): the manifest offers none.
    await page.goto(officeUrl(`departures/alfama-walk/${encodeURIComponent('2026-06-02T09:30:00+01:00')}`))
    const guest = page.locator('.guest', { hasText: 'Inês Rocha' })
    await guest.waitFor()
    assert.equal(await guest.getByRole('button', { name: /Check in/ }).count(), 0, 'no check-in the day before')
    assert.match(await page.textContent('.summary') ?? '', /Check-in opens on the day of the departure, Tuesday,? 2 June 2026/)
    assert.deepEqual(office.faults, [])
    await office.close()
  })
})
