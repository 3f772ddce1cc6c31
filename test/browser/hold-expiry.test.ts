import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { assertAccessible, browserSkipReason, openGuestPage, screenshot } from '../helpers/browser.ts'
import { apiClient, bookingPageSuite, bookingPageUrl, chooseFirstOpenTime, guestSession, holdSeats } from '../helpers/booking-page.ts'

// Long enough that a loaded CI machine still sees the hold before it lapses.
const HOLD_SECONDS = 6

describe('a lapsed hold on the booking page', { skip: browserSkipReason(), timeout: 120_000 }, () => {
  const started = bookingPageSuite({ env: { TOURDESK_HOLD_SECONDS: String(HOLD_SECONDS) } })

  test('is reported when the countdown ends, confirmed by the server, and the guest can hold the time again', async () => {
    const guest = await openGuestPage(started.browser)
    const { page } = guest
    await page.goto(bookingPageUrl(started.server.origin, 'lisbon', 'alfama-walk'))
    await chooseFirstOpenTime(page)
    await holdSeats(page)

    await page.locator('#lapsed-message').filter({ hasText: 'Your hold has lapsed, so the seats are no longer reserved' }).waitFor({ timeout: 20_000 })
    assert.equal(await page.textContent('#hold-title'), 'Your hold has lapsed')
    assert.equal(await page.locator('#checkout-button').isHidden(), true, 'no checkout without a hold')
    assert.equal(await page.textContent('#hold-button'), 'Hold these seats')
    const api = await apiClient(started.server.origin, 'lisbon')
    const session = await guestSession(page)
    assert.equal((await api.get('/booking', { headers: session })).body.status, 'expired')
    await assertAccessible(page, 'hold lapsed')
    await screenshot(page, 'hold-lapsed')

    await page.click('#hold-again-button')
    await page.locator('#hold-title').filter({ hasText: 'Your seats are held' }).waitFor()
    assert.equal((await api.get('/booking', { headers: session })).body.status, 'held')
    assert.deepEqual(guest.faults, [])
    await guest.close()
  })

  test('a checkout after the hold lapsed is refused and reported even while the device still counts down', async () => {
    const guest = await openGuestPage(started.browser)
    const { page } = guest
    await page.clock.install()
    await page.goto(bookingPageUrl(started.server.origin, 'lisbon', 'belem-bike'))
    await chooseFirstOpenTime(page)
    await holdSeats(page)
    await page.fill('#name', 'Late Guest')
    await page.fill('#email', 'late@example.com')
    // The device's timers stand still from here, so only the server can tell that the hold lapsed.
    // (Playwright's clicks wait for animation frames, which stand still too: the keyboard submits.)
    await page.clock.pauseAt(Date.now() + 1000)
    const api = await apiClient(started.server.origin, 'lisbon')
    const session = await guestSession(page)
    await waitForStatus(() => api.get('/booking', { headers: session }).then((r) => r.body.status), 'expired')
    assert.match(await page.textContent('.countdown') ?? '', /Held for \d:\d\d more/)

    const refusal = page.waitForResponse((response) => response.url().endsWith('/api/lisbon/checkout'))
    await page.keyboard.press('Enter')
    assert.equal((await refusal).status(), 410)
    await page.clock.resume()
    await page.locator('#lapsed-message').filter({ hasText: 'Your hold has lapsed' }).waitFor()
    assert.equal(await page.locator('#checkout-button').isHidden(), true)
    const booking = (await api.get('/booking', { headers: session })).body
    assert.equal(booking.status, 'expired')
    assert.equal(booking.code, null)
    await assertAccessible(page, 'checkout refused after lapse')
    assert.deepEqual(guest.faults, [])
    await guest.close()
  })
})

/** Polls until the hold has lapsed on the server (it lasts HOLD_SECONDS). */
async function waitForStatus(read: () => Promise<string>, wanted: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await read() === wanted) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  assert.fail(`the booking never became ${wanted}`)
}
