import type { Booking } from '../../../src/schemas/booking.ts'
import type { Policies } from '../../../src/schemas/policy.ts'
import { ApiProblem } from '../api.ts'
import { focusOn, h } from '../dom.ts'
import type { Page, View } from '../page.ts'
import { explainError } from '../problems.ts'
import { BookingCard } from './booking-card.ts'
import { LookupForm } from './lookup-form.ts'

/**
 * `<page>/manage`: the guest's booking, on any device. It shows the booking just checked out,
 * or the one a manage link names (`#<token>`, looked up and then cleared from the address
 * bar), or the session's own; and a form to find a booking by its code and email.
 */
export function renderManagePage(page: Page, checkedOut: Booking | null): View {
  const words = page.words.manage
  const title = h('h1', { id: 'page-title' }, words.heading)
  const status = h('p', { class: 'list-status', 'aria-live': 'polite' })
  const policies = page.api.get<Policies>('/policies').catch(() => null)
  const card = new BookingCard(page, policies)
  const lookup = new LookupForm(page, (booking) => void show(booking))
  document.title = words.documentTitle(page.operatorName)

  /** Shows a booking; focus moves to it when the guest just found or made it. */
  async function show(booking: Booking, moveFocus = true): Promise<void> {
    lookup.setTitle(words.another)
    lookup.clearMessages()
    status.textContent = ''
    await card.show(booking, moveFocus)
  }

  /**
   * A manage link: the token after `#` is looked up, then taken out of the address bar (and so
   * out of history and screenshots); the booking is shown in its own language (Page.speakBookingLanguage).
   */
  async function openLink(token: string): Promise<void> {
    status.textContent = words.opening
    try {
      const found = await page.api.post<Booking>('/booking/lookup', { token }, { csrf: true })
      forgetToken()
      if (!await page.speakBookingLanguage(found)) await show(found)
    } catch (err) {
      status.textContent = ''
      lookup.message.show(err instanceof ApiProblem && err.code === 'no_booking' ? words.linkLapsed : explainError(page.formats, err).text)
      focusOn(lookup.message.element)
    } finally {
      forgetToken()
    }
  }

  const forgetToken = () => history.replaceState(null, '', `${location.pathname}${location.search}`)

  const onHashChange = () => {
    const token = location.hash.slice(1)
    if (token) void openLink(token)
  }
  window.addEventListener('hashchange', onHashChange)

  void (async () => {
    const token = location.hash.slice(1)
    if (checkedOut) return show(checkedOut)
    if (token) return openLink(token)
    const booking = await page.sessionBooking().catch(() => null)
    if (booking) await show(booking, false)
  })()

  const element = h('div', { class: 'view manage-view' },
    h('p', { class: 'back' }, h('a', { href: page.listHref(), onclick: (event) => page.follow(event, page.listHref()) }, page.words.allTours)),
    title, status, card.element, lookup.element)
  return { element, dispose: () => window.removeEventListener('hashchange', onHashChange) }
}
