import type { Booking } from '../../../src/schemas/booking.ts'
import type { Policies } from '../../../src/schemas/policy.ts'
import type { Tour } from '../../../src/schemas/tour.ts'
import { ApiProblem } from '../api.ts'
import { focusOn, h, Message, replaceContent } from '../dom.ts'
import type { Formats } from '../format.ts'
import type { Page } from '../page.ts'
import { explainError } from '../problems.ts'
import { bookedGroup, namedInTour, priceList } from './price-list.ts'

/** An instant in the operator's zone, always with the zone named (dateTime names it only when it is not the guest's). */
function when(formats: Formats, instant: string): string {
  const text = formats.dateTime(instant)
  return formats.zonesDiffer() ? text : formats.words.booking.withZone(text, formats.zoneName(formats.operatorZone))
}

function fact(term: string, ...detail: (Node | string)[]): HTMLElement {
  return h('div', {}, h('dt', {}, term), h('dd', {}, ...detail))
}

/** What the fee as of now means for the guest, e.g. "Cancelling now costs €19.00 (50% of the total)." */
function feeSentence(formats: Formats, booking: Booking): string {
  const { fee, fee_percent: percent } = booking.cancellation_now
  const words = formats.words.booking
  if (booking.status === 'requested') return words.withdrawFree
  return fee === 0 || fee === null ? words.cancelFree : words.cancelCosts(formats.price(fee), formats.percent(percent ?? 0))
}

/**
 * One booking as the guest sees it after checkout, on any device: its status and code, when
 * and where to meet, what is due on arrival, what cancelling would cost now, the manage
 * link, and cancelling itself, with the fee stated before the guest confirms.
 */
export class BookingCard {
  readonly element = h('section', { class: 'confirmation booking-card', 'aria-labelledby': 'confirmation-title', hidden: true })
  private booking: Booking | null = null
  private readonly cancelMessage = new Message('cancel-message')
  private readonly copyMessage = new Message('copy-message')
  /** Each booked tour as read in the page's language, for the names of its units and add-ons; null when it cannot be read. */
  private readonly tours = new Map<string, Promise<Tour | null>>()

  constructor(private readonly page: Page, private readonly policies: Promise<Policies | null>) {}

  /** Shows the booking; focus moves to its heading when it is the result of what the guest just did. */
  async show(booking: Booking, moveFocus: boolean): Promise<void> {
    const policies = await this.policies
    const tourId = booking.tour.id
    if (!this.tours.has(tourId)) this.tours.set(tourId, this.page.api.get<Tour>(`/tours/${encodeURIComponent(tourId)}`).catch(() => null))
    const tour = await this.tours.get(tourId)!
    this.booking = booking
    this.page.bookings.note(booking)
    this.cancelMessage.clear()
    this.copyMessage.clear()
    this.element.hidden = false
    const heading = h('h2', { id: 'confirmation-title' }, this.page.words.booking.status[booking.status])
    replaceContent(this.element, heading, ...this.parts(namedInTour(booking, tour), policies))
    if (moveFocus) focusOn(heading)
  }

  private parts(booking: Booking, policies: Policies | null): (HTMLElement | null)[] {
    const { formats, words } = this.page
    const point = booking.meeting_point
    const active = booking.status === 'requested' || booking.status === 'confirmed'
    const methods = policies ? formats.paymentMethods(policies.payment.methods) : ''
    return [
      booking.code ? h('p', { class: 'booking-code' }, words.booking.code, h('strong', { id: 'booking-code' }, booking.code)) : null,
      h('p', { class: 'next-step' }, this.nextStep(booking)),
      h('dl', { class: 'facts' },
        fact(words.booking.tour, booking.tour.title),
        fact(words.booking.when, when(formats, booking.start)),
        fact(words.booking.group, bookedGroup(words, booking)),
        point ? fact(words.meetingPoint, `${point.name}, ${point.address} `,
          h('a', { href: `https://www.openstreetmap.org/?mlat=${point.lat}&mlon=${point.lng}#map=18/${point.lat}/${point.lng}` }, words.booking.map)) : null,
        booking.contact ? fact(words.booking.name, booking.contact.name) : null,
      ),
      priceList(formats, booking),
      active ? h('p', { class: 'payment' }, words.booking.pay(formats.price(booking.price.due_on_arrival), methods)) : null,
      active ? this.cancelSection(booking) : null,
      this.cancelMessage.element,
      booking.manage_url ? this.manageLinkSection(booking.manage_url) : null,
      h('p', {}, h('a', { href: this.page.listHref(), onclick: (event) => this.page.follow(event, this.page.listHref()) }, words.booking.another)),
    ]
  }

  private nextStep(booking: Booking): (Node | string)[] {
    const { formats, operatorName } = this.page
    const words = this.page.words.booking
    const tourLink = (text: string) => h('a', { href: this.page.tourHref(booking.tour.id), onclick: (event) => this.page.follow(event, this.page.tourHref(booking.tour.id)) }, text)
    switch (booking.status) {
      case 'requested':
        return [words.requested(operatorName, booking.contact?.email ?? words.yourEmail)]
      case 'confirmed':
        return [words.confirmed]
      case 'cancelled': {
        const fee = booking.cancellation?.fee ?? 0
        const charge = fee > 0 ? words.feeApplies(formats.price(fee), formats.percent(booking.cancellation!.fee_percent)) : words.noFee
        return [words.cancelled(when(formats, booking.cancellation?.cancelled_at ?? booking.updated_at), charge)]
      }
      case 'declined':
        return [words.declined(operatorName)]
      case 'completed':
        return [words.completed]
      case 'no_show':
        return [words.noShow(operatorName)]
      case 'held':
        return [words.heldNotBooked, tourLink(words.finishBooking), '.']
      default:
        return [words.notReserved, tourLink(words.chooseAgain), '.']
    }
  }

  /** The cancellation terms as of now and the button; a closed window says whom to ask instead. */
  private cancelSection(booking: Booking): HTMLElement {
    const { formats, operatorName } = this.page
    const words = this.page.words.booking
    const section = h('div', { class: 'cancelling' }, h('h3', { id: 'cancelling-title' }, words.cancelling))
    if (!booking.cancellation_now.allowed) {
      section.append(h('p', {}, words.cancelClosed(when(formats, booking.cancellable_until), operatorName)))
      return section
    }
    const confirm = h('div', { class: 'cancel-confirm', role: 'group', 'aria-labelledby': 'cancel-confirm-title', hidden: true })
    const cancelButton = h('button', { type: 'button', id: 'cancel-button', class: 'secondary', 'aria-describedby': 'cancel-fee-now' }, words.cancelButton)
    cancelButton.addEventListener('click', () => void this.askToCancel(cancelButton, confirm))
    section.append(
      h('p', { id: 'cancel-fee-now' }, `${words.cancelUntil(when(formats, booking.cancellable_until))} ${feeSentence(formats, booking)}`),
      cancelButton, confirm)
    return section
  }

  /** Reads the booking again, so the fee stated is the fee as of now, and asks the guest to confirm. */
  private async askToCancel(cancelButton: HTMLButtonElement, confirm: HTMLElement): Promise<void> {
    if (cancelButton.getAttribute('aria-disabled') === 'true') return
    this.cancelMessage.clear()
    cancelButton.setAttribute('aria-disabled', 'true')
    let current: Booking
    try {
      current = await this.page.api.get<Booking>('/booking')
    } catch (err) {
      this.cancelMessage.show(explainError(this.page.formats, err).text)
      return
    } finally {
      cancelButton.removeAttribute('aria-disabled')
    }
    if (current.id !== this.booking?.id || !current.cancellation_now.allowed) {
      // Changed meanwhile (the operator, or another device): show it as it is now.
      await this.show(current, true)
      return
    }
    this.booking = current
    const { formats } = this.page
    const words = this.page.words.booking
    const yes = h('button', { type: 'button', id: 'confirm-cancel-button', class: 'primary' }, words.confirmYes)
    const keep = h('button', { type: 'button', id: 'keep-booking-button', class: 'secondary' }, words.confirmKeep)
    const title = h('h3', { id: 'cancel-confirm-title' }, words.confirmTitle)
    yes.addEventListener('click', () => void this.cancel(yes))
    keep.addEventListener('click', () => {
      confirm.hidden = true
      cancelButton.hidden = false
      cancelButton.focus()
    })
    replaceContent(confirm, title,
      h('p', { id: 'cancel-fee' }, `${feeSentence(formats, current)} ${words.seatsGivenBack}`),
      h('div', { class: 'actions' }, yes, keep))
    confirm.hidden = false
    cancelButton.hidden = true
    focusOn(title)
  }

  private async cancel(button: HTMLButtonElement): Promise<void> {
    if (button.getAttribute('aria-disabled') === 'true') return
    button.setAttribute('aria-disabled', 'true')
    button.textContent = this.page.words.booking.cancellingNow
    this.cancelMessage.clear()
    try {
      const cancelled = await this.page.api.delete<Booking>('/booking', { csrf: true })
      await this.show(cancelled, true)
    } catch (err) {
      button.removeAttribute('aria-disabled')
      button.textContent = this.page.words.booking.confirmYes
      if (err instanceof ApiProblem && (err.code === 'cancellation_not_allowed' || err.code === 'no_booking')) {
        // The window closed, or it was cancelled elsewhere: the booking as it is now says which.
        const current = await this.page.api.get<Booking>('/booking').catch(() => null)
        if (current) await this.show(current, false)
      }
      this.cancelMessage.show(explainError(this.page.formats, err).text)
      focusOn(this.cancelMessage.element)
    }
  }

  /** The link that opens this booking on any device, to copy or bookmark. */
  private manageLinkSection(url: string): HTMLElement {
    const input = h('input', { id: 'manage-link', type: 'text', readonly: true, value: url, 'aria-describedby': 'manage-link-hint', spellcheck: 'false' })
    input.addEventListener('focus', () => input.select())
    const words = this.page.words.booking
    const copy = h('button', { type: 'button', id: 'copy-link-button', class: 'secondary' }, words.copyLink)
    copy.addEventListener('click', () => void this.copy(input))
    return h('div', { class: 'manage-link' },
      h('h3', {}, words.anyDevice),
      h('div', { class: 'field' },
        h('label', { for: 'manage-link' }, words.manageLink),
        h('p', { class: 'hint', id: 'manage-link-hint' }, words.manageLinkHint),
        input),
      copy, this.copyMessage.element)
  }

  private async copy(input: HTMLInputElement): Promise<void> {
    try {
      await navigator.clipboard.writeText(input.value)
      this.copyMessage.show(this.page.words.booking.copied, 'info')
    } catch {
      input.focus()
      this.copyMessage.show(this.page.words.booking.copyBlocked, 'info')
    }
  }
}
