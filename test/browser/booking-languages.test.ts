import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { Page } from 'playwright-core'
import { assertAccessible, browserSkipReason, openGuestPage, screenshot } from '../helpers/browser.ts'
import type { ApiClient } from '../helpers/client.ts'
import { apiClient, bookingPageSuite, bookingPageUrl, chooseFirstOpenTime, guestMoney, guestSession } from '../helpers/booking-page.ts'
import { demoCatalog } from '../helpers/build.ts'

// The callbacks given to page.evaluate run in the browser; these names exist there, not in Node.
declare const document: any
declare const localStorage: any

const ALFAMA_PT = {
  title: 'Passeio a pé por Alfama e Mouraria',
  description: 'Começamos no Miradouro de Santa Luzia, com Alfama e o rio a nossos pés, e descemos pelos becos e escadinhas do antigo bairro mouro até à Mouraria. Ruas íngremes de calçada: traga sapatos confortáveis.',
  ginjinha: 'Prova de ginjinha',
  ginjinhaDescription: 'Um copinho do licor de ginja de Lisboa, num copo de chocolate, numa tasca familiar da Rua de São Miguel.',
}

/** A booking of the first open Alfama walk for two, made through the API (another device) and guided in `language`. */
async function bookedIn(api: ApiClient, language: string, contact: { name: string, email: string }) {
  const session = await api.session()
  const slot = (await api.get('/availability?tour=alfama-walk&days=14&party=2')).body.slots.find((s: { bookable: boolean }) => s.bookable)
  assert.ok(slot, 'an alfama-walk departure is open in the next two weeks')
  const held = await api.post('/booking', { tour_id: 'alfama-walk', start: slot.start, party: 2, language }, { headers: session.headers })
  assert.equal(held.status, 200, held.text)
  const booked = await api.post('/checkout', contact, { headers: { 'x-session': session.session } })
  assert.equal(booked.status, 200, booked.text)
  assert.equal(booked.body.language, language)
  return booked.body
}

/** Text of the page as the guest reads it, without the language switch (which names every language in itself). */
function readText(page: Page, selector: string): Promise<string> {
  return page.evaluate((s) => {
    const element = document.querySelector(s).cloneNode(true)
    element.querySelector('.language-switch')?.remove()
    return element.textContent as string
  }, selector)
}

/**
 * The demo, its Alfama walk translated into Portuguese whole (the demo leaves the description
 * and the add-ons' descriptions in English, which test/api/languages.test.ts reads as its fallback).
 */
function alfamaAllInPortuguese(): any {
  const catalog = demoCatalog()
  const walk = catalog.instances[0].tours.find((tour: { id: string }) => tour.id === 'alfama-walk')
  walk.translations.pt.description = ALFAMA_PT.description
  walk.translations.pt.addons['ginjinha-tasting'].description = ALFAMA_PT.ginjinhaDescription
  walk.translations.pt.addons['illustrated-map'].description = 'Um mapa desenhado à mão de Alfama e da Mouraria, com as tascas preferidas do guia.'
  return catalog
}

describe('the booking page in the guest\'s language, in Chromium', { skip: browserSkipReason(), timeout: 180_000 }, () => {
  const started = bookingPageSuite({ catalog: alfamaAllInPortuguese })

  test('a Portuguese browser books the Alfama walk in Portuguese throughout, then switches to English, which is remembered', async () => {
    const guest = await openGuestPage(started.browser, { locale: 'pt-PT' })
    const { page } = guest
    const asked: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/api/lisbon/tours')) asked.push(request.headers()['accept-language'])
    })
    await page.goto(bookingPageUrl(started.server.origin, 'lisbon'))
    await page.locator('.tour-card').first().waitFor()

    // The list: page words and tour texts in Portuguese, the switch saying which language is on.
    assert.equal(await page.getAttribute('html', 'lang'), 'pt')
    assert.equal(await page.textContent('h1'), 'Reserve um passeio com Alfama & Tejo Tours')
    assert.equal(await page.title(), 'Reservar um passeio · Alfama & Tejo Tours')
    assert.equal(await page.textContent('#list-status'), '7 passeios')
    assert.ok(await page.locator('.tour-card h2', { hasText: ALFAMA_PT.title }).count() === 1)
    assert.match(await page.textContent('.tour-card') ?? '', /Desde.*por pessoa.*Duração.*Idiomas/)
    assert.equal(await page.getAttribute('nav.language-switch', 'aria-label'), 'Idioma')
    assert.equal(await page.getAttribute('#language-pt', 'aria-current'), 'true')
    assert.equal(await page.getAttribute('#language-pt', 'lang'), 'pt')
    assert.deepEqual(await page.locator('.language-switch button').allTextContents(), ['English', 'Português', 'Español', 'Français', 'Deutsch'])
    assert.deepEqual(asked, ['pt'], 'the tours are asked in the page\'s language')
    assert.equal(await page.locator('.tour-card [lang]').count(), 0, 'the tour texts came in Portuguese: nothing to mark')
    await assertAccessible(page, 'tour list in Portuguese')
    await screenshot(page, 'languages-1-list-pt')

    // The tour: its texts, facts, policy, dates and money.
    await page.click(`a:has-text("${ALFAMA_PT.title}")`)
    await page.locator('h1').filter({ hasText: ALFAMA_PT.title }).waitFor()
    await page.locator('.policy').waitFor()
    assert.equal(await page.textContent('.description'), ALFAMA_PT.description)
    assert.equal(await page.getAttribute('.description', 'lang'), null, 'in the page\'s own language: not marked')
    const facts = await page.textContent('.facts') ?? ''
    assert.match(facts, /Preço.*por pessoa/)
    assert.match(facts, /Duração2\shoras e 30\sminutos/)
    assert.match(facts, /Idiomasinglês, português e espanhol/)
    assert.match(facts, /Tamanho do grupoDe 1 a \d+ pessoas/)
    assert.match(facts, /Confirmada assim que reservar/)
    const policy = await page.textContent('.policy') ?? ''
    assert.match(policy, /Cancelamento e pagamento/)
    assert.match(policy, /Cancelamento gratuito até 48 horas antes do início/, 'the policy summary, translated by the catalog')
    assert.match(policy, /Cancelar com 48 horas ou mais de antecedência: sem custos\./)
    assert.match(policy, /paga à chegada \(numerário e cartão\)/)
    assert.match(await page.textContent('label[for="addon-ginjinha-tasting"]') ?? '', /Prova de ginjinha: quantos de vós\?/)
    assert.match(await page.textContent('#addon-ginjinha-tasting-hint') ?? '', new RegExp(`^${ALFAMA_PT.ginjinhaDescription}.*por pessoa que o escolher`))
    assert.equal(await page.textContent('label[for="party"]'), 'Número de pessoas')
    assert.match(await page.textContent('#zone-note') ?? '', /^As horas são as do local do passeio \(Europe\/Lisbon\)\.$/)
    await page.fill('#party', '2')
    await page.locator('#party').blur()
    const start = await chooseFirstOpenTime(page)
    // Dates in Portuguese words, the time on a 24-hour clock.
    const day = await page.evaluate((s) => new Intl.DateTimeFormat('pt-PT', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Lisbon' }).format(new Date(s)), start)
    assert.equal(await page.textContent('.times legend'), `Hora de início em ${day}`)
    assert.match(await page.textContent('.time-list label') ?? '', /^\d{1,2}:\d\d\d+ lugares livres$/)
    await page.fill('#addon-ginjinha-tasting', '1')
    await assertAccessible(page, 'tour in Portuguese')
    await screenshot(page, 'languages-2-tour-pt')

    await page.click('#hold-button')
    await page.locator('#hold-title').filter({ hasText: 'Os seus lugares estão reservados' }).waitFor()
    await page.locator('.countdown').filter({ hasText: /^Reservado por mais \d+:\d\d$/ }).waitFor()
    const api = await apiClient(started.server.origin, 'lisbon')
    const session = await guestSession(page)
    const held = (await api.get('/booking', { headers: session })).body
    assert.equal(held.party, 2)
    assert.match(await page.textContent('.hold-details') ?? '', new RegExp(`^${ALFAMA_PT.title}, .*2 pessoas\\.$`))
    const total = await guestMoney(page, held.price.total, 'EUR')
    assert.match(total, /^\d+,\d\d\s€$/, 'pt-PT writes euros after the amount, with a decimal comma')
    assert.equal(await page.textContent('.price-list .total dd'), total)
    assert.match(await page.textContent('.price-list') ?? '', /Passeio, 2 pessoas.*Prova de ginjinha × 1.*Total.*A pagar à chegada/)
    await assertAccessible(page, 'seats held in Portuguese')

    await page.fill('#name', 'Ana Silva')
    await page.fill('#email', 'ana@example.pt')
    await page.click('#checkout-button')
    await page.locator('#confirmation-title').filter({ hasText: 'Reserva confirmada' }).waitFor()
    const card = await readText(page, '.booking-card')
    assert.match(card, /O seu código de reserva: [A-Z0-9]{6}/)
    assert.match(card, new RegExp(`Passeio${ALFAMA_PT.title}`))
    assert.match(card, /Quando.*\(hora de Lisbon\)/)
    assert.match(card, new RegExp(`Pague ${total.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} à chegada \\(numerário e cartão\\); nada foi cobrado\\.`))
    assert.match(card, /Pode cancelar online até .*\. Cancelar agora (não tem custos|custa .* \(\d+\s?% do total\), segundo as condições de cancelamento)\./)
    const booking = (await api.get('/booking', { headers: session })).body
    assert.equal(booking.status, 'confirmed')
    assert.equal(booking.tour.id, 'alfama-walk')
    assert.equal(booking.language, 'pt', 'guided in the page\'s language, which the walk offers')
    await assertAccessible(page, 'booking confirmed in Portuguese')
    await screenshot(page, 'languages-3-confirmed-pt')

    // The switch: the same booking, in English words, English tour texts and English money.
    await page.click('#language-en')
    await page.locator('#confirmation-title').filter({ hasText: 'Booking confirmed' }).waitFor()
    assert.equal(await page.getAttribute('html', 'lang'), 'en')
    assert.equal(await page.getAttribute('#language-en', 'aria-current'), 'true')
    assert.equal(await page.getAttribute('#language-pt', 'aria-current'), null)
    assert.equal(await page.evaluate(() => document.activeElement.id), 'language-en', 'focus stays on the switch')
    const english = await readText(page, '.booking-card')
    assert.match(english, /TourAlfama & Mouraria Walking Tour/)
    const englishTotal = await guestMoney(page, booking.price.total, 'EUR')
    assert.match(englishTotal, /^€\d+\.\d\d$/)
    assert.match(english, new RegExp(`Pay ${englishTotal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} on arrival \\(cash and card\\)`))
    assert.doesNotMatch(english, /Passeio|Reserva|Pague/)
    assert.equal(await page.evaluate(() => localStorage.getItem('tourdesk.page-language')), 'en')
    await assertAccessible(page, 'booking confirmed in English')
    await screenshot(page, 'languages-4-confirmed-en')

    // Remembered: the list, on the next visit, is English though the browser speaks Portuguese.
    await page.goto(bookingPageUrl(started.server.origin, 'lisbon'))
    await page.locator('.tour-card').first().waitFor()
    assert.equal(await page.getAttribute('html', 'lang'), 'en')
    assert.equal(await page.textContent('h1'), 'Book a tour with Alfama & Tejo Tours')
    assert.equal(await page.locator('.tour-card h2', { hasText: 'Alfama & Mouraria Walking Tour' }).count(), 1)
    assert.equal(asked.at(-1), 'en')
    await assertAccessible(page, 'tour list in English')
    assert.deepEqual(guest.faults, [])
    assert.deepEqual(guest.consoleErrors, [])
    await guest.close()
  })

  test('in a language the instance lacks, the page speaks it, the tours read in the instance\'s default, and a tour guided in it is booked in it', async () => {
    const guest = await openGuestPage(started.browser, { locale: 'fr-FR' })
    const { page } = guest
    await page.goto(bookingPageUrl(started.server.origin, 'lisbon', 'alfama-walk'))
    await page.locator('h1').filter({ hasText: 'Alfama & Mouraria Walking Tour' }).waitFor()
    await page.locator('.policy').waitFor()
    assert.equal(await page.getAttribute('html', 'lang'), 'fr')
    assert.match(await page.textContent('.facts') ?? '', /Durée2\sheures et 30\sminutes/)
    assert.equal(await page.textContent('#book-title'), 'Réserver cette visite')
    // The tour's texts came in English: marked so, for a screen reader to read them in English.
    assert.equal(await page.getAttribute('h1', 'lang'), 'en')
    assert.equal(await page.getAttribute('.summary', 'lang'), 'en')
    assert.equal(await page.getAttribute('.description', 'lang'), 'en')
    assert.equal(await page.getAttribute('.policy p', 'lang'), 'en')
    assert.equal(await page.getAttribute('#book-title', 'lang'), null)
    await assertAccessible(page, 'tour in French')

    // The walk is not guided in French: the page names no language and the API picks the one it answered in.
    const api = await apiClient(started.server.origin, 'lisbon')
    await chooseFirstOpenTime(page)
    await page.click('#hold-button')
    await page.locator('#hold-title').filter({ hasText: 'Vos places sont bloquées' }).waitFor()
    const session = await guestSession(page)
    assert.equal((await api.get('/booking', { headers: session })).body.language, 'en')

    // The sail is guided in French: a hold of it is.
    await page.click('#release-button')
    await page.locator('#hold-message').filter({ hasText: 'Vos places ont été libérées' }).waitFor()
    await page.goto(bookingPageUrl(started.server.origin, 'lisbon', 'tagus-sunset-sail'))
    await page.locator('fieldset.units legend').filter({ hasText: 'Billets' }).waitFor()
    await chooseFirstOpenTime(page)
    await page.click('#hold-button')
    await page.locator('#hold-title').filter({ hasText: 'Vos places sont bloquées' }).waitFor()
    const sail = (await api.get('/booking', { headers: session })).body
    assert.equal(sail.tour.id, 'tagus-sunset-sail')
    assert.equal(sail.language, 'fr')
    assert.deepEqual(guest.faults, [])
    await guest.close()
  })

  test('a manage link opens in the booking\'s language whatever the browser speaks; the switch still works there', async () => {
    const api = await apiClient(started.server.origin, 'lisbon')
    const pt = await bookedIn(api, 'pt', { name: 'Ana Silva', email: 'ana.link@example.pt' })

    // An English browser opens the Portuguese booking's link: the page turns Portuguese, not stored as a choice.
    const english = await openGuestPage(started.browser, { locale: 'en-US' })
    await english.page.goto(pt.manage_url)
    await english.page.locator('#confirmation-title').filter({ hasText: 'Reserva confirmada' }).waitFor()
    assert.equal(await english.page.getAttribute('html', 'lang'), 'pt')
    assert.equal(await english.page.textContent('h1'), 'A sua reserva')
    assert.equal(await english.page.textContent('#booking-code'), pt.code)
    assert.equal(await english.page.getAttribute('#language-pt', 'aria-current'), 'true')
    assert.match(await readText(english.page, '.booking-card'), new RegExp(`Passeio${ALFAMA_PT.title}`), 'the tour is read again in Portuguese')
    assert.equal(new URL(english.page.url()).hash, '', 'the token is out of the address bar')
    assert.equal(await english.page.evaluate(() => localStorage.getItem('tourdesk.page-language')), null, 'the booking\'s language is not the guest\'s choice')
    await assertAccessible(english.page, 'a Portuguese booking\'s manage link in an English browser')
    await screenshot(english.page, 'languages-5-manage-link-pt')

    // The switch: English, remembered as any switch is.
    await english.page.click('#language-en')
    await english.page.locator('#confirmation-title').filter({ hasText: 'Booking confirmed' }).waitFor()
    assert.equal(await english.page.getAttribute('html', 'lang'), 'en')
    assert.match(await readText(english.page, '.booking-card'), /TourAlfama & Mouraria Walking Tour/)
    assert.equal(await english.page.evaluate(() => localStorage.getItem('tourdesk.page-language')), 'en')
    assert.deepEqual(english.faults, [])
    assert.deepEqual(english.consoleErrors, [])
    await english.close()

    // A Portuguese browser opens an English booking's link: English.
    const en = await bookedIn(api, 'en', { name: 'John Smith', email: 'john.link@example.com' })
    const portuguese = await openGuestPage(started.browser, { locale: 'pt-PT' })
    await portuguese.page.goto(en.manage_url)
    await portuguese.page.locator('#confirmation-title').filter({ hasText: 'Booking confirmed' }).waitFor()
    assert.equal(await portuguese.page.getAttribute('html', 'lang'), 'en')
    assert.equal(await portuguese.page.textContent('h1'), 'Your booking')
    assert.match(await readText(portuguese.page, '.booking-card'), /TourAlfama & Mouraria Walking Tour/)
    await assertAccessible(portuguese.page, 'an English booking\'s manage link in a Portuguese browser')
    assert.deepEqual(portuguese.faults, [])
    await portuguese.close()
  })

  test('a manage link of a booking guided in a language the instance does not read opens in the instance\'s default', async () => {
    const api = await apiClient(started.server.origin, 'lisbon')
    const session = await api.session()
    const slot = (await api.get('/availability?tour=tagus-sunset-sail&days=14&party=2')).body.slots.find((s: { bookable: boolean }) => s.bookable)
    assert.ok(slot, 'a sail is open in the next two weeks')
    const held = await api.post('/booking', { tour_id: 'tagus-sunset-sail', start: slot.start, party: 2, language: 'fr' }, { headers: session.headers })
    assert.equal(held.status, 200, held.text)
    const booked = await api.post('/checkout', { name: 'Jean Dupont', email: 'jean@example.fr' }, { headers: { 'x-session': session.session } })
    assert.equal(booked.status, 200, booked.text)
    const guest = await openGuestPage(started.browser, { locale: 'de-DE' })
    await guest.page.goto(booked.body.manage_url)
    await guest.page.locator('#booking-code').filter({ hasText: booked.body.code }).waitFor()
    assert.equal(await guest.page.getAttribute('html', 'lang'), 'en', 'French is not the Lisbon instance\'s: its default, English, as the emails')
    assert.deepEqual(guest.faults, [])
    await guest.close()
  })
})
