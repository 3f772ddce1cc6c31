import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { Page } from 'playwright-core'
import { backOfficeSuite } from '../helpers/back-office.ts'
import { assertAccessible, browserSkipReason, screenshot } from '../helpers/browser.ts'
import { demoCatalog } from '../helpers/build.ts'

// The back office's booking forms with price categories (issue 27, item 7; docs/units.md) in
// Chromium, on the real app and database: a count per unit, the detail's units and seats, and
// a change of the mix. Both clocks are held at DEFAULT_NOW (Monday 1 June 2026, 09:00 in Lisbon).

/** The demo's Alfama walk with an adult, a child and an infant on a lap, each child or infant with an adult. */
function catalogWithUnits() {
  const catalog = demoCatalog()
  const walk = catalog.instances.find((i: { prefix: string }) => i.prefix === 'lisbon').tours.find((t: { id: string }) => t.id === 'alfama-walk')
  walk.units = [
    { id: 'adult', type: 'adult', name: 'Adult', price: walk.price, min_age: 13 },
    { id: 'child', type: 'child', name: 'Child', price: 950, min_age: 4, max_age: 12, accompanied_by: ['adult'] },
    { id: 'infant', type: 'infant', name: 'Infant', price: 0, seats: 0, max_age: 3, accompanied_by: ['adult'] },
  ]
  return catalog
}

const linesOf = (booking: { units: Array<{ id: string, quantity: number, amount: number }> }) => booking.units.map((u) => [u.id, u.quantity, u.amount])

describe('the booking forms with units in Chromium', { skip: browserSkipReason(), timeout: 300_000 }, () => {
  const started = backOfficeSuite({ catalog: catalogWithUnits() })
  const { follow, officePage, officeUrl, signInAs } = started
  const result = (page: Page, text: RegExp) => page.locator('.booking-result', { hasText: text }).waitFor()

  test('staff book 2 adults and an infant on a lap, see the units and seats in the detail, add a child, then move it to a tour without units', async () => {
    const office = await officePage()
    const { page } = office
    await signInAs(page, 'staff', { path: 'bookings/new', heading: 'New booking' })
    await page.getByLabel('Tour').selectOption('alfama-walk')
    const guests = page.getByRole('group', { name: 'Guests' })
    assert.equal(await page.getByLabel('Guests', { exact: true }).count(), 0, 'one count per unit, no party field')
    await guests.getByLabel(/^Child €9\.50 each, ages 4–12, with Adult/).waitFor()
    await guests.getByLabel(/^Infant free, up to age 3, no seat, with Adult/).waitFor()
    await page.getByRole('button', { name: 'Day after' }).click()
    await guests.getByLabel(/^Adult/).fill('2')
    await guests.getByLabel(/^Infant/).fill('1')
    await guests.getByText('3 guests on 2 seats').waitFor()
    await page.locator('.departure-options label', { hasText: '17:30' }).click()
    await page.getByLabel('Name').fill('Family Ferreira')
    await page.getByLabel('Phone', { exact: true }).fill('912 345 678')
    await page.getByText(/Total, due on arrival: €38\.00/).waitFor()
    await assertAccessible(page, 'new booking form with units')
    await screenshot(page, 'back-office-booking-new-units')
    await page.getByRole('button', { name: 'Make booking' }).click()
    await page.getByRole('heading', { level: 1, name: /Family Ferreira/ }).waitFor()

    const code = /\/bookings\/([A-Z0-9]+)$/.exec(new URL(page.url()).pathname)?.[1]
    assert.ok(code, page.url())
    let made = (await started.manager.get(`/bookings/${code}`)).body
    assert.deepEqual([made.party, made.seats, made.price.subtotal], [3, 2, 3800])
    assert.deepEqual(linesOf(made), [['adult', 2, 3800], ['infant', 1, 0]])
    const facts = page.locator('.booking-facts')
    await facts.locator('div', { hasText: /^Units/ }).getByText('2 × Adult (€38.00) and 1 × Infant (free)').waitFor()
    assert.equal(await facts.locator('div', { hasText: /^Seats/ }).locator('dd').textContent(), '2')

    // The change form starts from the booking's own counts; a child joins.
    await page.getByRole('button', { name: 'Change party or add-ons…' }).click()
    const change = page.getByRole('region', { name: 'Change party and add-ons' })
    assert.equal(await change.getByLabel(/^Adult/).inputValue(), '2')
    assert.equal(await change.getByLabel(/^Infant/).inputValue(), '1')
    await change.getByLabel(/^Child/).fill('1')
    await change.getByText(/New total before any promo code: €47\.50/).waitFor()
    await assertAccessible(page, 'change form with units')
    await change.getByRole('button', { name: 'Save changes' }).click()
    await result(page, /^Now 4 guests \(2 Adult, 1 Child, 1 Infant\); the total is €47\.50/)
    made = (await started.manager.get(`/bookings/${code}`)).body
    assert.deepEqual([made.party, made.seats, made.price.subtotal], [4, 3, 4750])
    assert.deepEqual(linesOf(made), [['adult', 2, 3800], ['child', 1, 950], ['infant', 1, 0]])
    assert.equal(await facts.locator('div', { hasText: /^Seats/ }).locator('dd').textContent(), '3')

    // The manifest says who each booking is and the seats it takes, and totals each unit for the guide.
    await follow(facts.getByRole('link', { name: 'Manifest' }))
    await page.locator('.guest', { hasText: 'Family Ferreira' }).getByText('4 guests · 2 Adult, 1 Child, 1 Infant · 3 seats').waitFor()
    const summary = page.getByRole('region', { name: 'Departure' })
    await summary.getByText('Units: 2 Adult, 1 Child, 1 Infant').waitFor()
    await summary.getByText(/4 guests expected on 3 seats/).waitFor()
    await assertAccessible(page, 'manifest with units')
    await screenshot(page, 'back-office-manifest-units')
    // The bookings list says who the party is too.
    await page.goto(officeUrl('bookings'))
    await page.locator('.booking-row', { hasText: 'Family Ferreira' }).getByText(/^4 guests \(2 Adult, 1 Child, 1 Infant\) · €47\.50/).waitFor()
    await page.goto(officeUrl(`bookings/${code}`))
    await page.getByRole('heading', { level: 1, name: /Family Ferreira/ }).waitFor()

    // A child without an adult: the server's rule (src/domain/units.ts) refuses it at the child's count.
    await page.getByRole('button', { name: 'Change party or add-ons…' }).click()
    await change.getByLabel(/^Adult/).fill('0')
    await change.getByLabel(/^Infant/).fill('0')
    await change.getByRole('button', { name: 'Save changes' }).click()
    await change.locator('#party-unit-child-error').waitFor()
    assert.equal(await change.getByLabel(/^Child/).getAttribute('aria-invalid'), 'true')
    assert.equal((await started.manager.get(`/bookings/${code}`)).body.seats, 3, 'nothing changed')

    // Moved to a tour without units, the party becomes that many of its one unit, "Person".
    await page.getByRole('button', { name: 'Move…' }).click()
    const move = page.getByRole('region', { name: 'Move to another departure' })
    await move.getByLabel('Tour').selectOption('belem-bike')
    await move.getByText(/the party is 4 × Person/).waitFor()
    await move.locator('.departure-options label', { hasText: '14:00' }).click()
    await move.getByRole('button', { name: 'Move booking' }).click()
    await result(page, /^Moved to /)
    made = (await started.manager.get(`/bookings/${code}`)).body
    assert.deepEqual([made.tour.id, made.party, made.seats], ['belem-bike', 4, 4])
    assert.deepEqual(linesOf(made).map(([id, quantity]) => [id, quantity]), [['person', 4]])
    assert.equal(await facts.locator('div', { hasText: /^Units/ }).count(), 0, 'the implicit unit is not listed: the party says it')
    await office.close()
  })
})
