import { describe, test } from 'node:test'
import { backOfficeSuite } from '../helpers/back-office.ts'
import { assertAccessible, browserSkipReason } from '../helpers/browser.ts'
import assert from 'node:assert/strict'

// The back office's manifest of a group guided in two languages (docs/languages.md, "A
// booking's language"), in Chromium on the Lisbon demo: the guests per language under the
// totals, each guest's language on their card, and a booking's language in its detail and
// history. Clocks at DEFAULT_NOW (Monday 1 June 2026).

/** alfama-walk 09:30 on Tuesday 2 June (Lisbon, +01:00). */
const ALFAMA_TUE = '2026-06-02T08:30:00Z'

describe('the manifest by language in Chromium', { skip: browserSkipReason(), timeout: 300_000 }, () => {
  const started = backOfficeSuite()
  const { officePage, officeUrl, signInAs } = started

  test('a guide reads how many guests each language has, and which language each guest is guided in', async () => {
    const book = async (name: string, party: number, language?: string) => {
      const made = await started.manager.post('/bookings', { tour_id: 'alfama-walk', start: ALFAMA_TUE, party, contact: { name, phone: '+351912345678' }, language })
      assert.equal(made.status, 201, made.text)
      return made.body.code as string
    }
    const ana = await book('Ana Silva', 2)
    await book('Bruno Sousa', 3, 'pt')
    const office = await officePage()
    const { page } = office
    await signInAs(page, 'staff', { path: `departures/alfama-walk/${encodeURIComponent(ALFAMA_TUE)}`, heading: /^Alfama/ })
    const summary = page.getByRole('region', { name: 'Departure' })
    await summary.getByText('Guided in: 2 English (en) and 3 Portuguese (pt)').waitFor()
    await page.locator('.guest', { hasText: 'Bruno Sousa' }).getByText(/· Portuguese \(pt\)$/).waitFor()
    await page.locator('.guest', { hasText: 'Ana Silva' }).getByText(/· English \(en\)$/).waitFor()
    await assertAccessible(page, 'manifest by language')

    // The booking's detail says the language, and its history the change of it.
    assert.equal((await started.manager.patch(`/bookings/${ana}`, { language: 'es' })).status, 200)
    await page.goto(officeUrl(`bookings/${ana}`))
    await page.getByRole('heading', { level: 1, name: /Ana Silva/ }).waitFor()
    assert.equal(await page.locator('.booking-facts div', { hasText: /^Guided in/ }).locator('dd').textContent(), 'Spanish (es)')
    await page.getByText(/Guided in: en → es/).waitFor()

    // A booking staff make in the back office is guided in the language chosen, of the tour's.
    await page.goto(officeUrl('bookings/new'))
    await page.getByRole('heading', { level: 1, name: 'New booking' }).waitFor()
    await page.getByLabel('Tour').selectOption('alfama-walk')
    await page.getByRole('button', { name: 'Day after' }).click()
    await page.locator('.departure-options label', { hasText: '14:00' }).click()
    await page.getByLabel('Guests').fill('2')
    assert.deepEqual(await page.getByLabel('Guided in').locator('option').allTextContents(), ['English (en)', 'Portuguese (pt)', 'Spanish (es)'])
    await page.getByLabel('Guided in').selectOption('pt')
    await page.getByLabel('Name').fill('Carla Dias')
    await page.getByLabel('Phone', { exact: true }).fill('+351 912 000 222')
    await assertAccessible(page, 'new booking with its language')
    await page.getByRole('button', { name: 'Make booking' }).click()
    await page.getByRole('heading', { level: 1, name: /Carla Dias/ }).waitFor()
    assert.equal(await page.locator('.booking-facts div', { hasText: /^Guided in/ }).locator('dd').textContent(), 'Portuguese (pt)')
    const made = (await started.manager.get('/bookings?language=pt&tour=alfama-walk')).body.bookings.map((b: { contact: { name: string } }) => b.contact.name)
    assert.deepEqual(made.sort(), ['Bruno Sousa', 'Carla Dias'])

    // The change form changes the language too, among the tour's, and says so.
    await page.getByRole('button', { name: 'Change party or add-ons…' }).click()
    const change = page.getByRole('region', { name: 'Change party and add-ons' })
    const guidedIn = change.getByLabel('Guided in')
    assert.equal(await guidedIn.inputValue(), 'pt', 'the booking\'s language, chosen')
    assert.deepEqual(await guidedIn.locator('option').allTextContents(), ['English (en)', 'Portuguese (pt)', 'Spanish (es)'])
    await guidedIn.selectOption('es')
    await assertAccessible(page, 'change form with the language')
    await change.getByRole('button', { name: 'Save changes' }).click()
    await page.locator('.booking-result', { hasText: /^Now 2 guests, guided in Spanish \(es\); the total is/ }).waitFor()
    assert.equal(await page.locator('.booking-facts div', { hasText: /^Guided in/ }).locator('dd').textContent(), 'Spanish (es)')
    await page.getByText(/Guided in: pt → es/).waitFor()
    const carla = (await started.manager.get('/bookings?tour=alfama-walk&language=es')).body.bookings.map((b: { contact: { name: string } }) => b.contact.name)
    assert.deepEqual(carla.sort(), ['Ana Silva', 'Carla Dias'])
    await office.close()
  })
})
