import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { backOfficeSuite } from '../helpers/back-office.ts'
import { assertAccessible, browserSkipReason, focusReaches, screenshot } from '../helpers/browser.ts'
import { demoCatalog } from '../helpers/build.ts'

// The tour editor's "Price categories" (issue 27 item 7) in Chromium, on the real app and
// database: a manager adds a child unit to a tour that had none, guests see it, and the API's
// refusals land at the unit's own fields.

/**
 * The demo with the walk's translations of its implicit "person" unit left out: these tests give
 * the walk units of their own, which translations naming "person" would refuse (a translated
 * unit must be one of the tour's).
 */
function catalogForUnits(): any {
  const catalog = demoCatalog()
  const walk = catalog.instances[0].tours.find((tour: any) => tour.id === 'alfama-walk')
  for (const texts of Object.values(walk.translations ?? {}) as any[]) delete texts.units
  return catalog
}

describe('price categories in the back office catalog editor, in Chromium', { skip: browserSkipReason(), timeout: 300_000 }, () => {
  const started = backOfficeSuite({ catalog: catalogForUnits() })
  const { officeUrl, officePage, signInAs } = started

  test('a manager adds a child unit to a tour; the guest API lists it; a broken rule is shown at the unit\'s field and changes nothing', async () => {
    const office = await officePage()
    const { page } = office
    await signInAs(page, 'manager')
    await page.goto(officeUrl('catalog/tours/alfama-walk'))
    await page.getByRole('heading', { level: 1, name: /Alfama & Mouraria Walking Tour/ }).waitFor()
    const section = page.getByRole('region', { name: 'Price categories' })
    assert.match(await section.textContent() ?? '', /every guest pays the price per person/)

    // The first category a tour gets is its adult at today's price; focus goes to the new one's name.
    await page.getByRole('button', { name: 'Add a price category' }).click()
    await focusReaches(page, 'tour-units-1-name')
    assert.deepEqual([await page.locator('#tour-units-0-name').inputValue(), await page.locator('#tour-units-0-price').inputValue()], ['Adult', '19.00'])
    await page.locator('#tour-units-1-name').fill('Child')
    assert.equal(await page.locator('#tour-units-1-id').inputValue(), 'child', 'the id follows the name')
    await page.locator('#tour-units-1-type').selectOption('child')
    await page.locator('#tour-units-1-price').fill('9.00')
    await page.locator('#tour-units-1-min-age').fill('4')
    await page.locator('#tour-units-1-max-age').fill('12')
    await page.getByRole('group', { name: 'Comes with' }).last().getByLabel('Adult').check()
    await assertAccessible(page, 'price categories')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.locator('.catalog-saved', { hasText: 'Saved price categories' }).waitFor()

    const units = [
      { id: 'adult', type: 'adult', name: 'Adult', price: 1900 },
      { id: 'child', type: 'child', name: 'Child', price: 900, min_age: 4, max_age: 12, accompanied_by: ['adult'] },
    ]
    const saved = (await started.manager.get('/tours/alfama-walk')).body
    assert.deepEqual([saved.units, saved.price], [units, 1900], 'only what was typed, and the tour\'s price is the adult\'s')
    const guestTour = (await started.service.client().get('/tours/alfama-walk')).body
    assert.deepEqual(guestTour.units.map((u: any) => [u.id, u.name, u.price.amount, u.min_age, u.max_age, u.accompanied_by]),
      [['adult', 'Adult', 1900, null, null, []], ['child', 'Child', 900, 4, 12, ['adult']]])
    await screenshot(page, 'back-office-price-categories')

    // The tour's price follows the first category's: it is not typed twice.
    const price = page.locator('#tour-price')
    assert.equal(await price.getAttribute('readonly'), '')
    await page.locator('#tour-units-0-price').fill('21.00')
    assert.equal(await price.inputValue(), '21.00')

    // Moved up, the child becomes the default category, which the catalog rules refuse: the error sits under its "Comes with".
    await page.getByRole('button', { name: 'Move category 2 up' }).click()
    await focusReaches(page, 'unit-0-down', 'focus stays with the moved category (its up button is disabled at the top)')
    assert.equal(await page.locator('#tour-units-0-name').inputValue(), 'Child')
    await page.getByRole('button', { name: 'Save changes' }).click()
    const error = page.locator('#tour-units-0-accompanied-by-error')
    await error.waitFor()
    assert.match(await error.textContent() ?? '', /^Must be empty: the first unit is booked on its own/)
    assert.match(await page.locator('.catalog-errors').textContent() ?? '', /catalog rule; nothing was saved/)
    await assertAccessible(page, 'price categories with an error')
    assert.deepEqual((await started.manager.get('/tours/alfama-walk')).body.units, units, 'nothing changed')

    // Two categories with one id: named at the second's id.
    await page.getByRole('button', { name: 'Move category 1 down' }).click()
    await page.getByRole('button', { name: 'Add a price category' }).click()
    await focusReaches(page, 'tour-units-2-name')
    await page.locator('#tour-units-2-name').fill('Kid')
    await page.locator('#tour-units-2-id').fill('child')
    await page.locator('#tour-units-2-price').fill('5.00')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.locator('#tour-units-2-id-error', { hasText: 'used twice' }).waitFor()
    await focusReaches(page, 'tour-units-2-id')

    // Removing the extra one and saving changes the adult's price, and the tour's with it.
    await page.getByRole('button', { name: 'Remove category 3' }).click()
    await focusReaches(page, 'add-unit')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.locator('.catalog-saved', { hasText: 'adult: price' }).waitFor()
    const repriced = (await started.manager.get('/tours/alfama-walk')).body
    assert.deepEqual([repriced.price, repriced.units[0].price, repriced.units.length], [2100, 2100, 2])
    assert.equal((await started.service.client().get('/tours/alfama-walk')).body.price.amount, 2100)

    // The catalog's list says each category's price where a tour has them (the demo's sail has three).
    await page.goto(officeUrl('catalog'))
    const sail = page.locator('.catalog-tour', { hasText: 'Tagus Sunset Sail' })
    await sail.waitFor()
    assert.match(await sail.textContent() ?? '', /Adult €65\.00, Child €35\.00, Infant €0\.00 · 12 seats/)
    assert.match(await page.locator('.catalog-tour', { hasText: 'Alfama & Mouraria Walking Tour' }).textContent() ?? '', /Adult €21\.00, Child €9\.00 · 16 seats/)
    assert.deepEqual(office.faults, [])
    await office.close()
  })
})
