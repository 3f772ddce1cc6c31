import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { Page } from 'playwright-core'
import { drillCatalog } from '../helpers/catalog-file.ts'
import { assertAccessible, browserSkipReason, openGuestPage, screenshot } from '../helpers/browser.ts'
import { apiClient, bookingPageSuite, bookingPageUrl, chooseFirstOpenTime, fitsWidth, guestMoney, guestSession, holdSeats } from '../helpers/booking-page.ts'

// The callbacks given to page.evaluate run in the browser; these names exist there, not in Node.
declare const document: any

const TOUR = 'river-cruise'

/**
 * A Lisbon tour with adult, child and infant units, added to the demo catalog by this test (the
 * demo's own units may change): a child and an infant come with an adult, an infant sits on a lap.
 */
function addUnitsTour(catalog: any): void {
  const lisbon = catalog.instances[0]
  lisbon.tours.push({
    ...lisbon.tours[0],
    id: TOUR,
    title: 'Tagus River Cruise',
    price: 3000,
    units: [
      { id: 'adult', type: 'adult', name: 'Adult', price: 3000, min_age: 13 },
      { id: 'child', type: 'child', name: 'Child', price: 1500, min_age: 4, max_age: 12, accompanied_by: ['adult'] },
      { id: 'infant', type: 'infant', name: 'Infant', price: 0, seats: 0, min_age: 0, max_age: 3, max_quantity: 2, accompanied_by: ['adult'] },
    ],
  })
}

/** The smallest width and height of what matches: a touch target is at least 44 px each way. */
async function smallestSide(page: Page, selector: string): Promise<number> {
  return page.evaluate((s) => Math.min(...[...document.querySelectorAll(s)].flatMap((element: any) => {
    const box = element.getBoundingClientRect()
    return [box.width, box.height]
  })), selector)
}

describe('booking units on the booking page in Chromium', { skip: browserSkipReason(), timeout: 180_000 }, () => {
  const started = bookingPageSuite({ catalog: () => { const catalog = drillCatalog(16); addUnitsTour(catalog); return catalog } })

  test('on a 375 px phone a guest books 2 adults and 1 child: the rule is said first, the total is the server\'s, the booking lists its units', async () => {
    const guest = await openGuestPage(started.browser, { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true })
    const { page } = guest
    const posts: unknown[] = []
    const availabilityMixes: (string | null)[] = []
    page.on('request', (request) => {
      const url = new URL(request.url())
      if (request.method() === 'POST' && url.pathname === '/api/lisbon/booking') posts.push(request.postDataJSON())
      if (url.pathname === '/api/lisbon/availability') availabilityMixes.push(url.searchParams.get('units'))
    })
    await page.goto(bookingPageUrl(started.server.origin, 'lisbon', TOUR))
    await page.locator('input[name="start"]').first().waitFor({ state: 'attached' })

    // One count per unit, with its ages, price and rules, and no party field.
    assert.equal(await page.locator('#party').count(), 0)
    assert.equal(await page.inputValue('#unit-adult'), '2')
    assert.equal(await page.inputValue('#unit-child'), '0')
    assert.equal(await page.textContent('label[for="unit-child"]'), 'Child')
    assert.equal(await page.textContent('#unit-child-hint'), '4–12 years · €15.00 each')
    assert.equal(await page.textContent('#unit-infant-hint'), '0–3 years · free · takes no seat (on a lap)')
    // The rule is said before it is broken.
    assert.equal(await page.textContent('#unit-child-rule'), 'Only together with at least one Adult.')
    assert.equal(await page.textContent('#unit-infant-rule'), 'Only together with at least one Adult; at most 2 per booking.')
    assert.match(await page.textContent('.facts') ?? '', /Child \(4–12 years\): €15\.00/)

    // A child alone: the page says so as soon as the counts say it, and sends nothing.
    await page.getByRole('button', { name: 'More Child' }).tap()
    await page.getByRole('button', { name: 'Fewer Adult' }).tap()
    await page.getByRole('button', { name: 'Fewer Adult' }).tap()
    assert.equal(await page.inputValue('#unit-adult'), '0')
    assert.equal(await page.textContent('#unit-child-message'), 'Child: only together with at least one Adult.')
    assert.equal(await page.getAttribute('#unit-child', 'aria-invalid'), 'true')
    assert.equal(await page.textContent('#estimate-total'), '—')
    await chooseFirstOpenTime(page)
    await page.click('#hold-button')
    assert.equal(await page.textContent('#unit-child-message'), 'Child: only together with at least one Adult.')
    assert.deepEqual(posts, [], 'a mix the API would refuse is not sent')
    await screenshot(page, 'units-1-child-alone')

    // Two adults and the child: the total follows the counts and the extras.
    await page.getByRole('button', { name: 'More Adult' }).tap()
    await page.fill('#unit-adult', '2')
    await page.locator('#unit-adult').blur()
    assert.equal(await page.textContent('#unit-child-message'), '')
    assert.equal(await page.getAttribute('#unit-child', 'aria-invalid'), null)
    assert.equal(await page.textContent('#estimate-total'), await guestMoney(page, 2 * 3000 + 1500, 'EUR'))
    assert.equal(await page.textContent('#estimate-detail'), '2 Adult, 1 Child: 3 people on 3 seats.')
    assert.equal(await page.getAttribute('#addon-ginjinha-tasting', 'max'), '3', 'a per-person extra follows the people the units count')
    await page.fill('#addon-illustrated-map', '1')
    const shownTotal = await page.textContent('#estimate-total')
    assert.equal(shownTotal, await guestMoney(page, 2 * 3000 + 1500 + 600, 'EUR'))
    const start = await chooseFirstOpenTime(page)
    assert.equal(availabilityMixes.at(-1), 'adult:2,child:1', 'availability is asked for the seats of the mix')

    assert.equal(await fitsWidth(page), true, 'the form with units fits 375 px')
    assert.ok(await smallestSide(page, '.stepper button, .stepper input') >= 44, 'each − count + is at least 44 px each way')
    await assertAccessible(page, 'form with units')
    await screenshot(page, 'units-2-form')

    await holdSeats(page)
    // The page's language, English, which the tour is guided in, is the one the party asks for.
    assert.deepEqual(posts.at(-1), { tour_id: TOUR, start, party: 3, units: { adult: 2, child: 1 }, addons: { 'illustrated-map': 1 }, language: 'en' })
    const api = await apiClient(started.server.origin, 'lisbon')
    const session = await guestSession(page)
    const held = (await api.get('/booking', { headers: session })).body
    assert.deepEqual(held.units.map((line: any) => [line.id, line.quantity, line.amount]), [['adult', 2, 6000], ['child', 1, 1500]])
    assert.equal(held.seats, 3)
    assert.equal(held.party, 3)
    assert.equal(shownTotal, await guestMoney(page, held.price.total, 'EUR'), 'the total shown before the hold is the server\'s')
    assert.equal(await page.textContent('.price-list .total dd'), await guestMoney(page, held.price.total, 'EUR'))
    assert.match(await page.textContent('.hold-details') ?? '', /, 2 Adult, 1 Child \(3 people\)\.$/)
    assert.deepEqual(await page.locator('.hold-panel .price-list dt').allTextContents(), ['Adult × 2', 'Child × 1', 'Illustrated Alfama map × 1', 'Total', 'Due now', 'Due on arrival'])
    assert.equal(await fitsWidth(page), true, 'the hold fits 375 px')
    await screenshot(page, 'units-3-held')

    await page.fill('#name', 'Rita Costa')
    await page.fill('#email', 'rita@example.pt')
    await page.click('#checkout-button')
    await page.locator('#confirmation-title').filter({ hasText: 'Booking confirmed' }).waitFor()
    assert.match(await page.textContent('.confirmation .facts') ?? '', /Group2 Adult, 1 Child \(3 people\)/)
    assert.equal(await page.textContent('.confirmation .price-list .total dd'), await guestMoney(page, held.price.total, 'EUR'))
    assert.equal(await fitsWidth(page), true, 'the confirmation fits 375 px')
    await assertAccessible(page, 'confirmation with units')

    // The manage page, opened again, lists them too.
    await page.reload()
    await page.locator('#confirmation-title').filter({ hasText: 'Booking confirmed' }).waitFor()
    assert.match(await page.textContent('.confirmation .facts') ?? '', /Group2 Adult, 1 Child \(3 people\)/)
    assert.deepEqual(await page.locator('.confirmation .price-list dt').allTextContents(), ['Adult × 2', 'Child × 1', 'Illustrated Alfama map × 1', 'Total', 'Due now', 'Due on arrival'])
    const booked = (await api.get('/booking', { headers: session })).body
    assert.equal(booked.status, 'confirmed')
    assert.deepEqual(booked.units.map((line: any) => [line.id, line.name, line.quantity]), [['adult', 'Adult', 2], ['child', 'Child', 1]])
    assert.equal(booked.price.total, held.price.total)
    await screenshot(page, 'units-4-manage')
    assert.deepEqual(guest.faults, [])
    assert.deepEqual(guest.consoleErrors, [])
    await guest.close()
  })

  test('at 1280 px an infant on a lap takes no seat, and a reload during the hold shows its counts again', async () => {
    const guest = await openGuestPage(started.browser)
    const { page } = guest
    await page.goto(bookingPageUrl(started.server.origin, 'lisbon', TOUR))
    await page.locator('input[name="start"]').first().waitFor({ state: 'attached' })
    await page.getByRole('button', { name: 'More Infant' }).click()
    assert.equal(await page.textContent('#estimate-detail'), '2 Adult, 1 Infant: 3 people on 2 seats; Infant on a lap: no seat.')
    await page.getByRole('button', { name: 'More Infant' }).click()
    assert.equal(await page.inputValue('#unit-infant'), '2')
    assert.equal(await page.getByRole('button', { name: 'More Infant' }).getAttribute('aria-disabled'), 'true', 'at most 2 infants')
    // A press on a + that says it does nothing (it keeps focus, so it is not disabled) does nothing.
    await page.getByRole('button', { name: 'More Infant' }).click({ force: true })
    assert.equal(await page.inputValue('#unit-infant'), '2')
    assert.equal(await fitsWidth(page), true)
    await chooseFirstOpenTime(page)
    await assertAccessible(page, 'infants at 1280 px')
    await screenshot(page, 'units-5-desktop')
    await holdSeats(page)
    const held = (await (await apiClient(started.server.origin, 'lisbon')).get('/booking', { headers: await guestSession(page) })).body
    assert.equal(held.seats, 2)
    assert.equal(held.party, 4)
    assert.equal(await page.textContent('.price-list .total dd'), await guestMoney(page, held.price.total, 'EUR'))

    await page.reload()
    await page.locator('#hold-title').filter({ hasText: 'Your seats are held' }).waitFor()
    assert.deepEqual([await page.inputValue('#unit-adult'), await page.inputValue('#unit-child'), await page.inputValue('#unit-infant')], ['2', '0', '2'])
    assert.equal(await page.textContent('#estimate-total'), await guestMoney(page, held.price.total, 'EUR'))
    assert.deepEqual(guest.faults, [])
    await guest.close()
  })
})
