import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { assertAccessible, browserSkipReason, focused, openGuestPage, screenshot, tabTo } from '../helpers/browser.ts'
import { apiClient, bookingPageSuite, bookingPageUrl, chooseFirstOpenTime, fitsWidth, guestMoney, guestSession, holdSeats } from '../helpers/booking-page.ts'
import { demoCatalog } from '../helpers/build.ts'

// The demo runs on the real clock, so every test picks among the departures open from now on.
/**
 * The demo, its Tagus Sunset Sail priced per person as before it had units: this file asks a
 * party's size (#party); counts per unit are test/browser/booking-units.test.ts's.
 */
function perPersonSail(): any {
  const catalog = demoCatalog()
  delete catalog.instances[0].tours.find((tour: { id: string }) => tour.id === 'tagus-sunset-sail').units
  return catalog
}

describe('the booking page in Chromium', { skip: browserSkipReason(), timeout: 180_000 }, () => {
  const started = bookingPageSuite({ catalog: perPersonSail })

  test('a guest finds a tour, holds seats with extras and a promo code, and requests the booking; the API shows it requested', async () => {
    // A guest in New York looking at Lisbon tours: times stay in Lisbon's zone, which the page names.
    // The browser speaks Portuguese, and the guest chose English with the page's switch on an
    // earlier visit (the page in Portuguese is test/browser/booking-languages.test.ts).
    const guest = await openGuestPage(started.browser, { locale: 'pt-PT', timezoneId: 'America/New_York', pageLanguage: 'en' })
    const { page } = guest
    await page.goto(bookingPageUrl(started.server.origin, 'lisbon'))
    await page.locator('.tour-card').first().waitFor()
    assert.equal(await page.locator('.tour-card').count(), 7)
    await assertAccessible(page, 'tour list')
    await screenshot(page, 'flow-1-list')

    await page.fill('#search', 'noite')
    await page.click('.search button')
    await page.locator('#list-status').filter({ hasText: '1 tour matches' }).waitFor()
    await page.click('a:has-text("Fado à Noite in Alfama")')
    await page.locator('h1').filter({ hasText: 'Fado à Noite in Alfama' }).waitFor()
    assert.match(page.url(), /\/book\/lisbon\/\?tour=fado-night$/)
    assert.match(await page.textContent('#zone-note') ?? '', /Europe\/Lisbon.*Your device is set to/)
    assert.match(await page.textContent('.policy') ?? '', /Cancel 48 hours or more before the start: free of charge/)

    await page.fill('#party', '3')
    await page.locator('#party').blur()
    const start = await chooseFirstOpenTime(page)
    await page.fill('#addon-petiscos-dinner', '1')
    await page.fill('#promo', 'welcome10')
    await assertAccessible(page, 'tour with a time chosen')
    await screenshot(page, 'flow-2-tour')
    await holdSeats(page)

    const api = await apiClient(started.server.origin, 'lisbon')
    const session = await guestSession(page)
    const held = (await api.get('/booking', { headers: session })).body
    assert.equal(held.status, 'held')
    assert.equal(Date.parse(held.start), Date.parse(start))
    assert.equal(held.party, 3)
    assert.equal(held.promo_code, 'WELCOME10')
    assert.ok(held.price.discount > 0)
    // The page shows the server's price in the page's money format (English: "€181.50").
    assert.equal(await page.textContent('.price-list .total dd'), await guestMoney(page, held.price.total, 'EUR'))
    assert.equal(await page.textContent('.price-list .due dd'), await guestMoney(page, held.price.due_on_arrival, 'EUR'))
    await assertAccessible(page, 'seats held')
    await screenshot(page, 'flow-3-held')

    // Both forms carry the five decoys, out of sight, focus and autofill.
    const decoys = page.locator('.decoy-fields input')
    assert.equal(await decoys.count(), 10)
    for (const decoy of await decoys.all()) {
      assert.equal(await decoy.isVisible(), false)
      assert.equal(await decoy.getAttribute('tabindex'), '-1')
      assert.equal(await decoy.getAttribute('autocomplete'), 'off')
      assert.equal(await decoy.evaluate((input) => input.closest('[aria-hidden="true"]') !== null), true)
    }

    await page.fill('#name', 'Ana Silva')
    await page.fill('#email', 'ana@example.pt')
    await page.fill('#phone', '912 345 678')
    await page.click('#checkout-button')
    await page.locator('#confirmation-title').filter({ hasText: 'Booking requested' }).waitFor()
    const code = await page.textContent('#booking-code')
    assert.match(code ?? '', /^[A-Z0-9]{6}$/)
    await assertAccessible(page, 'booking requested')
    await screenshot(page, 'flow-4-requested')

    const booking = (await api.get('/booking', { headers: session })).body
    assert.equal(booking.status, 'requested')
    assert.equal(booking.code, code)
    assert.equal(booking.tour.id, 'fado-night')
    assert.deepEqual(booking.addons.map((a: { id: string, quantity: number }) => [a.id, a.quantity]), [['petiscos-dinner', 1]])
    assert.deepEqual(booking.contact, { name: 'Ana Silva', email: 'ana@example.pt', phone: '+351912345678' })
    assert.equal(booking.price.total, held.price.total)
    // A real guest is never taken for a bot: the requested booking keeps its 3 seats.
    const slot = (await api.get(`/availability?tour=fado-night&date=${booking.start.slice(0, 10)}&days=1`)).body.slots
      .find((s: { start: string }) => Date.parse(s.start) === Date.parse(booking.start))
    assert.equal(slot.remaining, slot.capacity - 3)
    assert.match(await page.textContent('.confirmation') ?? '', new RegExp(`Pay ${(await guestMoney(page, booking.price.due_on_arrival, 'EUR')).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} on arrival`))
    assert.deepEqual(guest.faults, [])
    await guest.close()
  })

  test('a per-person extra asks how many of the party take it, a once-per-booking extra is a checkbox, and the hold charges each once per taker', async () => {
    const guest = await openGuestPage(started.browser)
    const { page } = guest
    await page.goto(bookingPageUrl(started.server.origin, 'lisbon', 'tagus-sunset-sail'))
    await chooseFirstOpenTime(page)
    assert.equal(await page.textContent('label[for="addon-vinho-verde"]'), 'Glass of vinho verde: how many of you?')
    assert.equal(await page.getAttribute('#addon-vinho-verde', 'max'), '2', 'a party of 2 offers 0 to 2')
    assert.equal(await page.getAttribute('#addon-photo-package', 'type'), 'checkbox')

    await page.fill('#addon-vinho-verde', '3')
    await page.click('#hold-button')
    assert.equal(await page.textContent('#addon-vinho-verde-message'), 'Please enter how many of you take it, from 0 to 2.')
    assert.equal(await page.getAttribute('#addon-vinho-verde', 'aria-invalid'), 'true')

    await page.fill('#party', '3')
    assert.equal(await page.getAttribute('#addon-vinho-verde', 'max'), '3', 'the choice follows the party size')
    await page.locator('#party').blur()
    await chooseFirstOpenTime(page)
    await page.check('#addon-photo-package')
    await assertAccessible(page, 'extras chosen')
    await holdSeats(page)

    const api = await apiClient(started.server.origin, 'lisbon')
    const held = (await api.get('/booking', { headers: await guestSession(page) })).body
    assert.deepEqual(held.addons.map((a: { id: string, quantity: number, amount: number }) => [a.id, a.quantity, a.amount]),
      [['vinho-verde', 3, 3 * 600], ['photo-package', 1, 2500]])
    assert.equal(held.price.total, 3 * 6500 + 3 * 600 + 2500)
    await page.reload()
    await page.locator('#hold-title').filter({ hasText: 'Your seats are held' }).waitFor()
    assert.equal(await page.inputValue('#addon-vinho-verde'), '3', 'a reload shows the choices of the hold')
    assert.equal(await page.isChecked('#addon-photo-package'), true)
    await screenshot(page, 'extras-held')
    assert.deepEqual(guest.faults, [])
    await guest.close()
  })

  test('a first visit logs no console error and asks for no booking it cannot have; a reload with a hold asks, one after a release does not', async () => {
    const guest = await openGuestPage(started.browser)
    const { page } = guest
    const bookingReads: string[] = []
    page.on('request', (request) => {
      if (request.method() === 'GET' && new URL(request.url()).pathname === '/api/lisbon/booking') bookingReads.push(page.url())
    })
    await page.goto(bookingPageUrl(started.server.origin, 'lisbon'))
    await page.locator('.tour-card').first().waitFor()
    await page.goto(bookingPageUrl(started.server.origin, 'lisbon', 'alfama-walk'))
    await page.locator('input[name="start"]').first().waitFor({ state: 'attached' })
    await page.waitForLoadState('networkidle')
    assert.deepEqual(guest.consoleErrors, [], 'the first load logs no console error')
    assert.deepEqual(bookingReads, [], 'a page that made no hold does not ask for one')

    await chooseFirstOpenTime(page)
    await holdSeats(page)
    await page.reload()
    await page.locator('#hold-title').filter({ hasText: 'Your seats are held' }).waitFor()
    assert.equal(bookingReads.length, 1, 'a reload with a hold asks for it')
    await page.click('#release-button')
    await page.locator('#hold-message').filter({ hasText: 'Your seats have been released' }).waitFor()
    await page.reload()
    await page.locator('input[name="start"]').first().waitFor({ state: 'attached' })
    await page.waitForLoadState('networkidle')
    assert.equal(bookingReads.length, 1, 'a reload after the release does not ask')
    assert.deepEqual(guest.consoleErrors, [])
    assert.deepEqual(guest.faults, [])
    await guest.close()
  })

  test('a reload keeps the hold, and releasing it gives the seats back so the API shows no booking', async () => {
    const guest = await openGuestPage(started.browser)
    const { page } = guest
    const api = await apiClient(started.server.origin, 'lisbon')
    await page.goto(bookingPageUrl(started.server.origin, 'lisbon', 'alfama-walk'))
    const start = await chooseFirstOpenTime(page)
    const date = await page.locator('input[name="date"]:checked').getAttribute('value')
    const seatsLeft = async () => (await api.get(`/availability?tour=alfama-walk&date=${date}&days=1`)).body.slots
      .find((s: { start: string }) => Date.parse(s.start) === Date.parse(start)).remaining as number
    const before = await seatsLeft()
    await holdSeats(page)
    assert.equal(await seatsLeft(), before - 2)

    // The sid cookie names the session, so a reload shows the same hold with its choices.
    await page.reload()
    await page.locator('#hold-title').filter({ hasText: 'Your seats are held' }).waitFor()
    const chosen = page.locator(`input[name="start"][value="${start}"]`)
    await chosen.waitFor({ state: 'attached' })
    assert.equal(await chosen.isChecked(), true)
    assert.match(await page.locator(`label[for="${await chosen.getAttribute('id')}"]`).textContent() ?? '', /Held for you/)
    assert.equal(await page.textContent('#hold-button'), 'Update my hold')

    await page.click('#release-button')
    await page.locator('#hold-message').filter({ hasText: 'Your seats have been released' }).waitFor()
    assert.equal(await page.locator('.hold-panel').isHidden(), true)
    assert.equal(await page.textContent('#hold-button'), 'Hold these seats')
    assert.equal(await seatsLeft(), before)
    const current = await api.get('/booking', { headers: await guestSession(page) })
    assert.equal(current.status, 404)
    assert.equal(current.body.code, 'no_booking')
    await assertAccessible(page, 'seats released')
    await screenshot(page, 'release')
    assert.deepEqual(guest.faults, [])
    await guest.close()
  })

  test('a sold-out time is marked and cannot be chosen, and a time that sells out while the guest looks is reported', async () => {
    const api = await apiClient(started.server.origin, 'lisbon')
    const tour = 'pastel-de-nata-workshop'
    // Another visitor takes all 4 seats of the first open workshop.
    const open = (await api.get(`/availability?tour=${tour}&days=14&party=4`)).body.slots.filter((s: { bookable: boolean }) => s.bookable)
    const [soldOut, next] = open
    const other = await api.session()
    assert.equal((await api.post('/booking', { tour_id: tour, start: soldOut.start, party: 4 }, { headers: other.headers })).status, 200)

    const guest = await openGuestPage(started.browser)
    const { page } = guest
    await page.goto(bookingPageUrl(started.server.origin, 'lisbon', tour))
    await page.locator('input[name="start"]').first().waitFor({ state: 'attached' })
    await page.check(`#date-${soldOut.date}`)
    const full = page.locator(`input[name="start"][value="${soldOut.start}"]`)
    assert.equal(await full.isDisabled(), true)
    assert.match(await page.locator(`label[for="${await full.getAttribute('id')}"]`).textContent() ?? '', /Sold out/)
    await full.click({ force: true })
    assert.equal(await full.isChecked(), false)
    await page.click('#hold-button')
    assert.equal(await page.textContent('#time-message'), 'Please choose a start time.')
    await assertAccessible(page, 'sold-out time')
    await screenshot(page, 'sold-out')

    // The guest chooses the next workshop; a third visitor takes it before the guest presses Hold.
    await page.check(`#date-${next.date}`)
    await page.check(`input[name="start"][value="${next.start}"]`)
    const third = await api.session()
    assert.equal((await api.post('/booking', { tour_id: tour, start: next.start, party: 4 }, { headers: third.headers })).status, 200)
    await page.click('#hold-button')
    await page.locator('#time-message').filter({ hasText: 'This time has just sold out. Please choose another time.' }).waitFor()
    const taken = page.locator(`input[name="start"][value="${next.start}"]`)
    await page.waitForFunction((selector) => (globalThis as any).document.querySelector(selector)?.disabled === true, `input[name="start"][value="${next.start}"]`)
    assert.equal(await taken.isChecked(), false)
    assert.equal(await page.locator('.hold-panel').isHidden(), true)
    await assertAccessible(page, 'time sold out meanwhile')
    assert.deepEqual(guest.faults, [])
    await guest.close()
  })

  test('the whole booking works with the keyboard alone, with a visible focus ring and no decoy ever focused', async () => {
    const guest = await openGuestPage(started.browser)
    const { page } = guest
    await page.goto(bookingPageUrl(started.server.origin, 'lisbon'))
    await page.locator('.tour-card').first().waitFor()
    await tabTo(page, (el) => el.tag === 'a' && el.text === 'Belém Riverside Bike Tour', 'the Belém tour link')
    await page.keyboard.press('Enter')
    await page.locator('h1').filter({ hasText: 'Belém Riverside Bike Tour' }).waitFor()
    assert.equal((await focused(page)).id, 'page-title', 'focus moves to the new page title')
    await page.locator('input[name="start"]').first().waitFor({ state: 'attached' })

    await tabTo(page, (el) => el.id === 'party', 'the party size')
    await page.keyboard.press('Control+A')
    await page.keyboard.type('3')
    await tabTo(page, (el) => el.name === 'date', 'the date strip')
    const firstDate = (await focused(page)).id
    await page.keyboard.press('ArrowRight')
    const secondDate = await focused(page)
    assert.notEqual(secondDate.id, firstDate, 'arrow keys move along the dates')
    assert.equal(await page.isChecked(`#${secondDate.id}`), true)
    await tabTo(page, (el) => el.name === 'start', 'the start times')
    await page.keyboard.press('Space')
    assert.equal(await page.isChecked(`#${(await focused(page)).id}`), true)
    await tabTo(page, (el) => el.id === 'hold-button', 'the hold button')
    await page.keyboard.press('Enter')
    await page.locator('#hold-title').filter({ hasText: 'Your seats are held' }).waitFor()
    assert.equal((await focused(page)).id, 'hold-title', 'focus moves to the held booking')
    await assertAccessible(page, 'held with the keyboard')

    await tabTo(page, (el) => el.id === 'name', 'the name field')
    await page.keyboard.type('Kim Lee')
    await tabTo(page, (el) => el.id === 'email', 'the email field')
    await page.keyboard.type('kim@example.com')
    await tabTo(page, (el) => el.id === 'checkout-button', 'the booking button')
    await page.keyboard.press('Enter')
    await page.locator('#confirmation-title').filter({ hasText: 'Booking confirmed' }).waitFor()
    assert.equal((await focused(page)).id, 'confirmation-title')
    await assertAccessible(page, 'confirmed with the keyboard')
    await screenshot(page, 'keyboard-confirmed')

    const booking = (await (await apiClient(started.server.origin, 'lisbon')).get('/booking', { headers: await guestSession(page) })).body
    assert.equal(booking.status, 'confirmed')
    assert.equal(booking.tour.id, 'belem-bike')
    assert.equal(booking.party, 3)
    assert.equal(booking.contact.name, 'Kim Lee')
    assert.deepEqual(guest.faults, [])
    await guest.close()
  })

  test('on a 375 px phone every step fits the screen, in the guest locale, for the New York operator', async () => {
    // A German browser whose guest chose English: the API's own words on a phone number are English.
    const guest = await openGuestPage(started.browser, { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, locale: 'de-DE', timezoneId: 'America/New_York', pageLanguage: 'en' })
    const { page } = guest
    await page.goto(bookingPageUrl(started.server.origin, 'nyc'))
    await page.locator('.tour-card').first().waitFor()
    assert.equal(await fitsWidth(page), true, 'the list fits 375 px')
    assert.match(await page.textContent('.tour-card') ?? '', /\$/)
    await screenshot(page, 'phone-1-list')

    await page.click('a:has-text("Brooklyn Bridge")')
    await chooseFirstOpenTime(page)
    // The guest's zone is the operator's: no second zone is mentioned.
    assert.equal(await page.textContent('#zone-note'), 'Times are local to the tour (America/New_York).')
    assert.equal(await fitsWidth(page), true, 'the tour fits 375 px')
    await assertAccessible(page, 'phone tour')
    await screenshot(page, 'phone-2-tour')

    await holdSeats(page)
    const api = await apiClient(started.server.origin, 'nyc')
    const held = (await api.get('/booking', { headers: await guestSession(page) })).body
    assert.equal(await page.textContent('.price-list .total dd'), await guestMoney(page, held.price.total, 'USD'))
    assert.equal(await fitsWidth(page), true, 'the hold fits 375 px')
    await screenshot(page, 'phone-3-held')

    await page.fill('#name', 'Jo Rivera')
    await page.fill('#email', 'jo@example.com')
    await page.fill('#phone', 'not a phone')
    await page.click('#checkout-button')
    await page.locator('#phone-message').filter({ hasText: 'This is not a phone number: write its digits' }).waitFor()
    assert.equal(await page.getAttribute('#phone', 'aria-invalid'), 'true')
    // A number with its country code that is not in use is told so, not to add a country code (issue 25, item 10).
    await page.fill('#phone', '+44 7700 900123')
    await page.click('#checkout-button')
    await page.locator('#phone-message').filter({ hasText: 'This is not in use as a number in the United Kingdom (+44): check its digits.' }).waitFor()
    assert.ok(!(await page.textContent('#phone-message'))!.includes('country code'), 'no advice to add the country code it has')
    await page.fill('#phone', '(212) 555-01')
    await page.click('#checkout-button')
    await page.locator('#phone-message').filter({ hasText: 'This is too short for a number in the United States (+1); a number from another country starts with + and its country code.' }).waitFor()
    await page.fill('#phone', '(212) 555-0123')
    await page.click('#checkout-button')
    await page.locator('#confirmation-title').filter({ hasText: 'Booking confirmed' }).waitFor()
    assert.equal(await fitsWidth(page), true, 'the confirmation fits 375 px')
    await assertAccessible(page, 'phone confirmation')
    await screenshot(page, 'phone-4-confirmed')
    assert.equal((await api.get('/booking', { headers: await guestSession(page) })).body.contact.phone, '+12125550123')
    assert.deepEqual(guest.faults, [])
    await guest.close()
  })
})
