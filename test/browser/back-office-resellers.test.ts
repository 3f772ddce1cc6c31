import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { backOfficeSuite } from '../helpers/back-office.ts'
import { assertAccessible, browserSkipReason, screenshot } from '../helpers/browser.ts'
import { OctoClient } from '../octo/octo-client.ts'

// Reseller keys and a reseller's booking in the back office (docs/resellers.md, "On the
// operator's side") in Chromium, on the real app and database, clocks held at DEFAULT_NOW
// (Monday 1 June 2026, 09:00 in Lisbon).

declare const document: { activeElement: { tagName: string } | null }

describe('reseller keys and bookings in the back office, in Chromium', { skip: browserSkipReason(), timeout: 300_000 }, () => {
  const started = backOfficeSuite()
  const { officePage, signInAs, follow } = started

  test('a manager makes a reseller key for one tour at a commission, sees its secret once; its booking shows the reseller and the net, and nothing to collect', async () => {
    const office = await officePage()
    const { page } = office
    await signInAs(page, 'manager')
    await follow(page.getByRole('link', { name: 'Settings' }))
    await page.getByRole('heading', { level: 1, name: /^Settings/ }).waitFor()
    await follow(page.getByRole('link', { name: 'Reseller keys' }))
    await page.getByRole('heading', { level: 1, name: 'Reseller keys' }).waitFor()
    assert.match(await page.locator('main .hint').first().textContent() ?? '', new RegExp(`${started.service.origin}/octo/lisbon`), 'the OCTo address to give the reseller')

    // Nothing chosen under "only these tours": said next to the choice, nothing made.
    await page.getByLabel('Reseller', { exact: true }).fill('Lisbon OTA')
    await page.getByLabel('Commission, in percent').fill('20')
    await page.getByLabel('Only the tours chosen here').check()
    await page.getByRole('button', { name: 'Make reseller key' }).click()
    await page.locator('#reseller-products-error', { hasText: 'Choose at least one tour' }).waitFor()
    await assertAccessible(page, 'reseller key form with an error')
    await page.getByLabel('Alfama & Mouraria Walking Tour').check()
    await page.getByRole('button', { name: 'Make reseller key' }).click()
    const secretField = page.getByLabel('Secret key')
    await secretField.waitFor()
    const secret = await secretField.inputValue()
    assert.match(secret, /^tdk_[A-Za-z0-9]{32,}$/)
    await page.waitForFunction(() => document.activeElement?.tagName === 'H2')
    const card = page.locator('.api-key', { hasText: 'Lisbon OTA' })
    assert.match(await card.textContent() ?? '', /20% commission · sells Alfama & Mouraria Walking Tour/)
    await assertAccessible(page, 'reseller key secret shown once')
    await screenshot(page, 'back-office-reseller-keys')

    const catalog = started.service.context.catalogs.get('lisbon')!
    const [key] = (await started.service.context.store.staff.listKeys(catalog.instance.ref)).filter((k) => k.role === 'reseller')
    assert.deepEqual([key.name, JSON.parse(key.products!), key.commission_basis_points], ['Lisbon OTA', ['alfama-walk'], 2000])
    // The key sells through OCTo: a reservation, confirmed, for two.
    const octo = new OctoClient(started.service, 'lisbon', secret)
    const uuid = '5e1f0c2a-0001-4d7e-9b00-000000000001'
    const reserved = await octo.request('POST', '/bookings', '/bookings/', {
      uuid, productId: 'alfama-walk', optionId: 'DEFAULT', availabilityId: '2026-06-02T09:30:00+01:00', unitItems: [{ unitId: 'person' }, { unitId: 'person' }], resellerReference: 'OTA-77',
    })
    assert.equal(reserved.status, 200, JSON.stringify(reserved.body))
    const confirmed = await octo.request('POST', `/bookings/${uuid}/confirm`, '/bookings/{uuid}/confirm', { contact: { fullName: 'Mia Berg', emailAddress: 'mia@example.se' } })
    const code = confirmed.body.supplierReference as string

    await follow(page.getByRole('link', { name: 'Bookings' }))
    await page.getByRole('heading', { level: 1, name: 'Bookings' }).waitFor()
    await page.getByLabel('Channel').selectOption({ label: 'Resellers (OCTo)' })
    await page.getByLabel('Departures from').fill('')
    await page.getByRole('button', { name: 'Search' }).click()
    // The list from before the search (every booking from today) may still show this booking:
    // wait for the search's own answer, which the page announces.
    await page.locator('.status-line', { hasText: '1 booking found.' }).waitFor()
    const row = page.locator('.booking-row', { hasText: code })
    assert.equal(await page.locator('.booking-row').count(), 1, 'only the reseller booking')
    assert.match(await row.textContent() ?? '', /Sold by Lisbon OTA \(ref\. OTA-77\) · net €30\.40/)
    await assertAccessible(page, 'bookings filtered by channel')

    await follow(row.getByRole('link'))
    await page.getByRole('heading', { level: 1, name: new RegExp(code) }).waitFor()
    const details = await page.locator('main dl').first().textContent() ?? ''
    assert.match(details, /ResellerLisbon OTA · ref\. OTA-77 · 20% commission · net €30\.40 owed by the reseller/)
    assert.match(details, /€38\.00 total, paid via Lisbon OTA: nothing due on arrival/)
    await assertAccessible(page, "a reseller's booking")
    await screenshot(page, 'back-office-reseller-booking')
    await office.close()
  })
})
