import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { assertAccessible, browserSkipReason, focused, openGuestPage, screenshot } from '../helpers/browser.ts'
import { apiClient, bookingPageSuite, bookingPageUrl, chooseFirstOpenTime, fitsWidth, guestMoney, guestSession, holdSeats } from '../helpers/booking-page.ts'
import type { ApiClient } from '../helpers/client.ts'

// The guest's booking after checkout (issue 14, "The booking page keeps the booking"): a
// reload shows it, the manage link opens it on another device, the code and email find it
// on a phone, and cancelling states the fee before the guest confirms. The demo runs on the
// real clock, so each test books among the departures open from now on.

/** Money in a regular expression, as the page writes it for the guest's locale. */
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** A booking made through the API by a guest on some other device: the first open alfama-walk departure for two. */
async function bookedThroughApi(api: ApiClient, contact: { name: string, email: string }) {
  const session = await api.session()
  const availability = (await api.get('/availability?tour=alfama-walk&days=14&party=2')).body
  const slot = availability.slots.find((s: { bookable: boolean }) => s.bookable)
  assert.ok(slot, 'an alfama-walk departure is open in the next two weeks')
  const held = await api.post('/booking', { tour_id: 'alfama-walk', start: slot.start, party: 2 }, { headers: session.headers })
  assert.equal(held.status, 200, held.text)
  const booked = await api.post('/checkout', contact, { headers: { 'x-session': session.session } })
  assert.equal(booked.status, 200, booked.text)
  return booked.body
}

describe('managing a booking in Chromium', { skip: browserSkipReason(), timeout: 180_000 }, () => {
  const started = bookingPageSuite()

  test('a guest books, reloads and still sees the booking; on another device the manage link opens it, states the fee, and cancels it', async () => {
    const laptop = await openGuestPage(started.browser)
    const api = await apiClient(started.server.origin, 'lisbon')
    await laptop.page.goto(bookingPageUrl(started.server.origin, 'lisbon', 'alfama-walk'))
    await chooseFirstOpenTime(laptop.page)
    await holdSeats(laptop.page)
    await laptop.page.fill('#name', 'Ana Silva')
    await laptop.page.fill('#email', 'ana@example.pt')
    await laptop.page.click('#checkout-button')
    await laptop.page.locator('#confirmation-title').filter({ hasText: 'Booking confirmed' }).waitFor()
    assert.equal((await focused(laptop.page)).id, 'confirmation-title', 'focus moves to the result')
    assert.match(laptop.page.url(), /\/book\/lisbon\/manage$/, 'the confirmation has an address a reload comes back to')
    const booking = (await api.get('/booking', { headers: await guestSession(laptop.page) })).body
    const manageUrl: string = booking.manage_url
    assert.equal(await laptop.page.inputValue('#manage-link'), manageUrl, 'the page after checkout offers the manage link')
    await assertAccessible(laptop.page, 'confirmation with the manage link')

    // A reload shows the booking: status, code, meeting point, the time with its zone, what is due, the fee as of now.
    await laptop.page.reload()
    await laptop.page.locator('#confirmation-title').filter({ hasText: 'Booking confirmed' }).waitFor()
    const card = await laptop.page.textContent('.booking-card') ?? ''
    assert.equal(await laptop.page.textContent('#booking-code'), booking.code)
    assert.ok(card.includes('Miradouro de Santa Luzia, Largo Santa Luzia, 1100-487 Lisboa, Portugal'), card)
    assert.ok(card.includes('(Lisbon time)'), `the time names the operator's zone: ${card}`)
    assert.match(card, new RegExp(`Pay ${literally(await guestMoney(laptop.page, booking.price.due_on_arrival, 'EUR'))} on arrival`))
    const fee: number = booking.cancellation_now.fee
    const feeText = fee === 0 ? 'Cancelling now is free of charge.' : `Cancelling now costs ${await guestMoney(laptop.page, fee, 'EUR')}`
    assert.ok(card.includes(feeText), `the fee as of now is stated: ${card}`)
    await screenshot(laptop.page, 'manage-1-reloaded')
    assert.deepEqual(laptop.faults, [])
    await laptop.close()

    // Another device: a fresh profile, no cookie, only the link.
    const phone = await openGuestPage(started.browser)
    const { page } = phone
    await page.goto(manageUrl)
    await page.locator('#confirmation-title').filter({ hasText: 'Booking confirmed' }).waitFor()
    assert.equal(await page.textContent('#booking-code'), booking.code)
    await page.waitForFunction(() => (globalThis as any).location.hash === '')
    assert.equal(new URL(page.url()).hash, '', 'the token is taken out of the address bar')
    assert.equal(await guestSessionBooking(api, await guestSession(page)), booking.id, "the booking is this device's session's booking")
    assert.ok((await page.textContent('#cancel-fee-now'))?.includes(feeText))
    await assertAccessible(page, 'booking opened from the manage link')

    await page.click('#cancel-button')
    await page.locator('#cancel-confirm-title').waitFor()
    assert.equal((await focused(page)).id, 'cancel-confirm-title', 'focus moves to the question')
    assert.ok((await page.textContent('#cancel-fee'))?.includes(feeText), 'the fee is stated before the guest confirms')
    assert.equal((await api.get('/booking', { headers: await guestSession(page) })).body.status, 'confirmed', 'nothing happens before the guest confirms')
    await assertAccessible(page, 'asked to confirm the cancellation')
    await screenshot(page, 'manage-2-confirm-cancel')

    await page.click('#confirm-cancel-button')
    await page.locator('#confirmation-title').filter({ hasText: 'Booking cancelled' }).waitFor()
    assert.equal((await focused(page)).id, 'confirmation-title')
    const cancelled = (await api.get('/booking', { headers: await guestSession(page) })).body
    assert.equal(cancelled.status, 'cancelled')
    assert.equal(cancelled.cancellation.fee, fee, 'the fee recorded is the fee the page stated')
    assert.equal(await page.locator('#cancel-button').count(), 0)
    const cancelledCard = await page.textContent('.booking-card') ?? ''
    assert.doesNotMatch(cancelledCard, /on arrival/i, 'a cancelled booking shows nothing due on arrival')
    if (fee > 0) assert.match(cancelledCard, new RegExp(`cancellation fee of ${literally(await guestMoney(page, fee, 'EUR'))}`), 'the fee is stated as the fee')
    await assertAccessible(page, 'booking cancelled')
    await screenshot(page, 'manage-3-cancelled')
    assert.deepEqual(phone.faults, [])
    await phone.close()
  })

  test('a request nobody has accepted says it is free to withdraw, whatever its start (issue 25, item 3)', async () => {
    const api = await apiClient(started.server.origin, 'lisbon')
    const session = await api.session()
    const availability = (await api.get('/availability?tour=fado-night&days=14&party=2')).body
    const slot = availability.slots.find((s: { bookable: boolean }) => s.bookable)
    assert.ok(slot, 'a fado-night departure is open in the next two weeks')
    assert.equal((await api.post('/booking', { tour_id: 'fado-night', start: slot.start, party: 2 }, { headers: session.headers })).status, 200)
    const booked = (await api.post('/checkout', { name: 'Rui Costa', email: 'rui@example.pt' }, { headers: { 'x-session': session.session } })).body
    assert.equal(booked.status, 'requested')
    const guest = await openGuestPage(started.browser)
    await guest.page.goto(booked.manage_url)
    await guest.page.locator('#cancel-fee-now').waitFor()
    assert.match(await guest.page.textContent('#cancel-fee-now') ?? '', /Withdrawing this request is free of charge/)
    assert.doesNotMatch(await guest.page.textContent('#cancel-fee-now') ?? '', /costs/)
    assert.deepEqual(guest.faults, [])
    await guest.close()
  })

  test('on a 375 px phone a guest finds the booking by code and email: a wrong email is told next to the field, the right one shows it', async () => {
    const api = await apiClient(started.server.origin, 'lisbon')
    const booking = await bookedThroughApi(api, { name: 'Kim Lee', email: 'Kim.Lee@example.com' })
    const guest = await openGuestPage(started.browser, { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true })
    const { page } = guest
    await page.goto(bookingPageUrl(started.server.origin, 'lisbon'))
    await page.click('a:has-text("Manage my booking")')
    await page.locator('#lookup-title').filter({ hasText: 'Find your booking' }).waitFor()
    assert.equal(await fitsWidth(page), true, 'the form fits 375 px')
    await assertAccessible(page, 'lookup form')

    await page.click('#lookup-button')
    assert.equal(await page.textContent('#lookup-code-message'), 'Please enter the booking code from your confirmation.')
    assert.equal((await focused(page)).id, 'lookup-code')

    await page.fill('#lookup-code', booking.code.toLowerCase())
    await page.fill('#lookup-email', 'someone.else@example.com')
    await page.click('#lookup-button')
    await page.locator('#lookup-code-message').filter({ hasText: 'No booking has this code and email address' }).waitFor()
    assert.equal(await page.getAttribute('#lookup-code', 'aria-invalid'), 'true')
    assert.equal(await page.getAttribute('#lookup-email', 'aria-invalid'), 'true')
    assert.match(await page.getAttribute('#lookup-code', 'aria-describedby') ?? '', /lookup-code-message/)
    await assertAccessible(page, 'lookup refused')
    await screenshot(page, 'manage-4-lookup-refused-375')

    await page.fill('#lookup-email', 'kim.lee@EXAMPLE.com')
    await page.click('#lookup-button')
    await page.locator('#confirmation-title').filter({ hasText: 'Booking confirmed' }).waitFor()
    assert.equal((await focused(page)).id, 'confirmation-title')
    assert.equal(await page.textContent('#booking-code'), booking.code)
    assert.equal(await page.textContent('#lookup-title'), 'Manage another booking')
    assert.equal(await page.getAttribute('#lookup-code', 'aria-invalid'), null, 'the earlier complaint is gone')
    assert.equal(await fitsWidth(page), true, 'the booking fits 375 px')
    await assertAccessible(page, 'booking found on a phone')
    await screenshot(page, 'manage-5-found-375')

    // The session now has the booking: a reload shows it without asking again.
    await page.reload()
    await page.locator('#confirmation-title').filter({ hasText: 'Booking confirmed' }).waitFor()
    assert.equal(await guestSessionBooking(api, await guestSession(page)), booking.id)
    assert.deepEqual(guest.faults, [])
    await guest.close()
  })
})

async function guestSessionBooking(api: ApiClient, session: Record<string, string>): Promise<string> {
  return (await api.get('/booking', { headers: session })).body.id
}
