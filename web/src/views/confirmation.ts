import type { Booking } from '../../../src/schemas/booking.ts'
import type { Policies } from '../../../src/schemas/policy.ts'
import { h } from '../dom.ts'
import type { Page } from '../page.ts'
import { priceList } from './price-list.ts'

/** After checkout: the booking code, what is due on arrival, and whether the operator still has to confirm. */
export function confirmation(page: Page, booking: Booking, policies: Policies): HTMLElement {
  const { formats } = page
  const requested = booking.status === 'requested'
  return h('section', { class: 'confirmation', 'aria-labelledby': 'confirmation-title' },
    h('h2', { id: 'confirmation-title' }, requested ? 'Booking requested' : 'Booking confirmed'),
    h('p', { class: 'booking-code' }, 'Your booking code: ', h('strong', { id: 'booking-code' }, booking.code ?? '')),
    h('p', { class: 'next-step' }, requested
      ? `${page.operatorName} still has to confirm this booking and will get back to you at ${booking.contact?.email ?? 'your email address'}. Keep your booking code.`
      : 'Your seats are booked. Keep your booking code and show it when you arrive.'),
    h('dl', { class: 'facts' },
      h('div', {}, h('dt', {}, 'Tour'), h('dd', {}, booking.tour.title)),
      h('div', {}, h('dt', {}, 'When'), h('dd', {}, formats.dateTime(booking.start))),
      h('div', {}, h('dt', {}, 'Group'), h('dd', {}, `${booking.party} ${booking.party === 1 ? 'person' : 'people'}`)),
      h('div', {}, h('dt', {}, 'Name'), h('dd', {}, booking.contact?.name ?? '')),
    ),
    priceList(formats, booking),
    h('p', {}, `Pay ${formats.price(booking.price.due_on_arrival)} on arrival (${formats.list(policies.payment.methods)}); nothing has been charged.`),
    h('p', {}, `You can cancel until ${formats.dateTime(booking.cancellable_until)}, under the cancellation terms above.`),
    h('p', {}, h('a', { href: page.listHref(), onclick: (event) => page.follow(event, null) }, 'Book another tour')),
  )
}
