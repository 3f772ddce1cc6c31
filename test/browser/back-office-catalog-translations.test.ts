import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { Page } from 'playwright-core'
import { backOfficeSuite } from '../helpers/back-office.ts'
import { assertAccessible, browserSkipReason, focusReaches, screenshot } from '../helpers/browser.ts'
import { demoCatalog } from '../helpers/build.ts'

// The back office's languages and translations (issue 29 item 6, docs/languages.md) in
// Chromium, on the real app and database: the demo lists en, pt and es; a manager translates
// texts beside their default, sees what is missing, and guests reading Portuguese get the words.

/**
 * The demo with the sail's Portuguese title left out, so that a manager has it to write, and
 * Portuguese words kept for a unit the sail does not have (docs/languages.md), which the
 * editor does not show and must send back as they came.
 */
function catalogWithoutSailTitle(): any {
  const catalog = demoCatalog()
  const sail = catalog.instances[0].tours.find((tour: any) => tour.id === 'tagus-sunset-sail')
  delete sail.translations.pt.title
  sail.translations.pt.units = { senior: { name: 'Sénior' } }
  return catalog
}

/** Elements of the page that stick out of the viewport sideways. */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = (globalThis as any).document.documentElement.clientWidth
    return [...(globalThis as any).document.querySelectorAll('body *')]
      .filter((e: any) => e.getBoundingClientRect().right > width + 0.5)
      .map((e: any) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}`)
  })
}

describe('languages and translations in the back office catalog editor, in Chromium', { skip: browserSkipReason(), timeout: 300_000 }, () => {
  const started = backOfficeSuite({ catalog: catalogWithoutSailTitle() })
  const { officeUrl, officePage, signInAs, follow } = started
  const guestSail = async (language: string) => (await started.service.client().get('/tours/tagus-sunset-sail', { headers: { 'accept-language': language } })).body
  const missingFor = async (page: Page, language: string) => Number(await page.locator(`.translation-counts li[data-language="${language}"]`).getAttribute('data-missing'))

  test('a manager adds a Portuguese title and unit name beside the English; the markers go, guests reading pt get them, and a refusal sits at its field', async () => {
    // A browser that speaks Portuguese: the back office and its catalog texts stay in English.
    const office = await officePage({ locale: 'pt-PT' })
    const { page } = office
    await signInAs(page, 'manager')
    await page.getByRole('link', { name: 'Alfama & Mouraria Walking Tour' }).first().waitFor()
    await page.goto(officeUrl('catalog'))
    const card = page.locator('.catalog-tour', { hasText: 'Tagus Sunset Sail' })
    await card.waitFor()
    // The sail's 13 texts: title, summary, description, meeting point, three units' names, two of
    // their descriptions, two add-ons' names and descriptions; pt gives summary, meeting point and add-on names.
    assert.match(await card.locator('.translation-line').textContent() ?? '', /Portuguese \(pt\) 9 of 13 texts missing · Spanish \(es\) 8 of 13 texts missing/)

    await follow(card.getByRole('link', { name: 'Translations' }))
    await page.getByRole('heading', { level: 1, name: /Translations/ }).waitFor()
    assert.equal(await missingFor(page, 'pt'), 9)
    const title = page.locator('#tr-translations-pt-title')
    const unit = page.locator('#tr-translations-pt-units-child-name')
    assert.equal(await title.inputValue(), '')
    assert.match(await page.locator('#tr-translations-pt-title-hint').textContent() ?? '', /Missing/, 'the empty translation is marked')
    assert.equal(await page.locator('#tr-translations-pt-summary').inputValue(), 'Duas horas à vela no Tejo, pela ponte 25 de Abril, o Padrão dos Descobrimentos e a Torre de Belém, à hora do pôr do sol.')
    assert.equal(await title.getAttribute('lang'), 'pt')
    const titleGroup = page.getByRole('group', { name: /^Title/ })
    assert.match(await titleGroup.locator('.source-text').textContent() ?? '', /^Tagus Sunset Sail$/, 'the English beside it')
    await assertAccessible(page, 'translations')

    await title.fill('Veleiro ao pôr do sol no Tejo')
    await unit.fill('Criança')
    assert.equal(await page.locator('#tr-translations-pt-title-hint').count(), 0, 'the marker goes once the text is written')
    assert.equal(await page.locator('#tr-translations-pt-units-child-name-hint').count(), 0)
    assert.equal(await missingFor(page, 'pt'), 7)
    await screenshot(page, 'back-office-translations')
    await page.getByRole('button', { name: 'Save the translations' }).click()
    await page.locator('.catalog-saved', { hasText: 'Translations saved' }).waitFor()

    const pt = (await started.manager.get('/tours/tagus-sunset-sail')).body.translations.pt
    assert.equal(pt.title, 'Veleiro ao pôr do sol no Tejo')
    assert.deepEqual(pt.units, { senior: { name: 'Sénior' }, child: { name: 'Criança' } }, 'the words for a unit the sail has not are kept')
    assert.equal(pt.meeting_point.name, 'Doca de Santo Amaro, pontão B', 'the texts not touched are kept')
    const guest = await guestSail('pt')
    assert.equal(guest.title, 'Veleiro ao pôr do sol no Tejo')
    assert.deepEqual(guest.units.map((u: any) => u.name), ['Adult', 'Criança', 'Infant'], 'units not translated read in English')
    assert.equal((await guestSail('en')).title, 'Tagus Sunset Sail')

    // A title over 200 characters: refused at its own input, which takes the focus; nothing changes.
    await title.fill('Veleiro '.repeat(30))
    await page.getByRole('button', { name: 'Save the translations' }).click()
    await page.locator('#tr-translations-pt-title-error').waitFor()
    assert.equal(await page.locator('#tr-translations-pt-title-error').textContent(), 'Is longer than 200 characters', 'the cause alone, not the union\'s "must be null"')
    await focusReaches(page, 'tr-translations-pt-title')
    await assertAccessible(page, 'translations with an error')
    assert.equal((await started.manager.get('/tours/tagus-sunset-sail')).body.translations.pt.title, 'Veleiro ao pôr do sol no Tejo', 'nothing changed')
    await page.getByRole('button', { name: 'Undo my changes' }).click()
    assert.equal(await title.inputValue(), 'Veleiro ao pôr do sol no Tejo')

    await page.goto(officeUrl('catalog'))
    await card.waitFor()
    assert.match(await card.locator('.translation-line').textContent() ?? '', /Portuguese \(pt\) 7 of 13 texts missing/)
    await office.close()
  })

  test('on a phone, each text and its translations stack in one column', async () => {
    const office = await officePage({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true })
    const { page } = office
    await signInAs(page, 'manager', { path: 'catalog/tours/alfama-walk/translations', heading: /Translations/ })
    await page.locator('#tr-translations-es-units-person-name').waitFor()
    assert.equal(await page.locator('#tr-translations-pt-units-person-name').inputValue(), 'Pessoa', 'the implicit unit of a tour without units')
    assert.deepEqual(await overflowing(page), [], 'nothing sticks out sideways at 375 px')
    await assertAccessible(page, 'translations on a phone')
    await screenshot(page, 'back-office-translations-phone')
    await office.close()
  })

  test('a manager adds French to the languages, finds every text missing in it, translates the policy, and cannot remove a language tours are translated into', async () => {
    const office = await officePage()
    const { page } = office
    await signInAs(page, 'manager')
    await page.goto(officeUrl('catalog/languages'))
    await page.getByRole('heading', { level: 1, name: 'Languages' }).waitFor()
    const field = page.locator('#settings-languages')
    assert.equal(await field.inputValue(), 'en, pt, es')
    assert.match(await page.locator('.language-order').textContent() ?? '', /English \(en\) as the default, Portuguese \(pt\),? and Spanish \(es\)/)
    const gaps = page.getByRole('table', { name: /Texts left to translate/ })
    assert.match(await gaps.locator('tr[data-tour="alfama-walk"]').textContent() ?? '', /Alfama & Mouraria Walking Tour/)
    assert.equal(await gaps.locator('tr[data-policy] td[data-missing="0"]').count(), 2, 'the policy is translated into both')
    await assertAccessible(page, 'languages')

    await field.fill('en, pt, es, fr')
    await page.getByRole('button', { name: 'Save the languages' }).click()
    await page.locator('.catalog-saved', { hasText: 'French (fr)' }).waitFor()
    assert.deepEqual((await started.manager.get('/settings')).body.languages, ['en', 'pt', 'es', 'fr'])
    await gaps.getByRole('columnheader', { name: 'French (fr)' }).waitFor()
    const alfamaFrench = gaps.locator('tr[data-tour="alfama-walk"] td').nth(2)
    assert.match(await alfamaFrench.textContent() ?? '', /^(\d+) of \1 texts missing$/, 'nothing is in French yet')
    assert.equal(await gaps.locator('tr[data-policy] td').nth(2).getAttribute('data-missing'), '1')
    await screenshot(page, 'back-office-languages')

    // Dropping Portuguese, which tours are translated into, is refused at the field; nothing changes.
    await field.fill('en, es, fr')
    await page.getByRole('button', { name: 'Save the languages' }).click()
    await page.locator('#settings-languages-error', { hasText: '"pt"' }).waitFor()
    await focusReaches(page, 'settings-languages')
    await assertAccessible(page, 'languages with an error')
    assert.deepEqual((await started.manager.get('/settings')).body.languages, ['en', 'pt', 'es', 'fr'])

    // The policy's summary in French, beside its English; publishing keeps the other translations.
    await follow(page.getByRole('navigation', { name: 'Catalog' }).getByRole('link', { name: 'Cancellation policy' }))
    const french = page.locator('#policy-translations-fr-summary')
    await french.waitFor()
    assert.match(await page.locator('#policy-translations-fr-summary-hint').textContent() ?? '', /Missing/)
    assert.match(await page.locator('#policy-translations-pt-summary').inputValue(), /^Cancelamento gratuito/)
    await assertAccessible(page, 'policy with translations')
    await french.fill('Annulation gratuite jusqu\'à 48 heures avant le départ.')
    await page.getByRole('button', { name: 'Publish as a new version' }).click()
    await page.locator('.catalog-saved', { hasText: 'Version 4 published' }).waitFor()
    const policies = async (language: string) => (await started.service.client().get(`/policies?lang=${language}`)).body.cancellation.summary
    assert.equal(await policies('fr'), 'Annulation gratuite jusqu\'à 48 heures avant le départ.')
    assert.match(await policies('pt'), /^Cancelamento gratuito/, 'the Portuguese summary is published with the new version')
    assert.match(await policies('es'), /^Cancelación gratuita/)
    await office.close()
  })
})
