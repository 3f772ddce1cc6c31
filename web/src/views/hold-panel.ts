import type { Booking } from '../../../src/schemas/booking.ts'
import type { Tour } from '../../../src/schemas/tour.ts'
import { focusOn, h, Message, replaceContent } from '../dom.ts'
import type { Formats } from '../format.ts'
import type { Place } from '../problems.ts'
import { decoyFields } from './decoy-fields.ts'
import { bookedGroup, namedInTour, priceList } from './price-list.ts'

export interface CheckoutRequest {
  name: string
  email: string
  phone?: string
  [decoy: string]: unknown
}

export interface HoldPanelEvents {
  checkout(): void
  release(): void
  holdAgain(): void
  /** The countdown reached zero: the server is asked whether the hold really lapsed. */
  countdownEnded(): void
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

function clock(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000))
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`
}

/**
 * The held booking: what is held and until when (a live countdown), its price as the
 * server computed it, the checkout form and the release button; and, once the hold has
 * lapsed, a way to hold the same time again.
 */
export class HoldPanel {
  readonly element: HTMLElement
  private readonly heading = h('h2', { id: 'hold-title' })
  private readonly details = h('p', { class: 'hold-details' })
  private readonly countdown = h('p', { class: 'countdown', role: 'timer', 'aria-atomic': 'true' })
  private readonly announcer = h('p', { class: 'visually-hidden', 'aria-live': 'polite' })
  private readonly price = h('div', { class: 'price' })
  private readonly live = h('div', { class: 'hold-live' })
  private readonly lapsed = h('div', { class: 'hold-lapsed', hidden: true })
  private readonly lapsedText = h('p', { class: 'message', 'data-tone': 'error', id: 'lapsed-message', role: 'alert' })
  private readonly name = h('input', { id: 'name', name: 'name', type: 'text', autocomplete: 'name', maxlength: 200, required: true })
  private readonly email = h('input', { id: 'email', name: 'email', type: 'email', autocomplete: 'email', maxlength: 254, required: true })
  private readonly phone = h('input', { id: 'phone', name: 'phone', type: 'tel', autocomplete: 'tel', maxlength: 40, 'aria-describedby': 'phone-hint' })
  private readonly checkoutButton: HTMLButtonElement
  private readonly decoys = decoyFields('checkout')
  private readonly messages = new Map<Place, Message>()
  readonly releaseMessage = new Message('release-message')
  private timer: number | undefined
  private expiresAt = 0
  private announcedLastMinute = false

  constructor(private readonly formats: Formats, private readonly tour: Tour, private readonly now: () => number, private readonly events: HoldPanelEvents) {
    const words = formats.words.panel
    this.checkoutButton = h('button', { type: 'submit', id: 'checkout-button', class: 'primary' },
      tour.confirmation === 'instant' ? words.bookNow : words.sendRequest)
    const checkout = h('form', { class: 'checkout-form', novalidate: true, 'aria-labelledby': 'checkout-title', onsubmit: (event) => { event.preventDefault(); events.checkout() } },
      h('h3', { id: 'checkout-title' }, words.details),
      this.field('name', words.name, this.name),
      this.field('email', words.email, this.email),
      this.field('phone', words.phone, this.phone, words.phoneHint),
      this.decoys.element,
      this.checkoutButton,
      this.messageElement('action', 'checkout-message'),
    )
    const release = h('button', { type: 'button', id: 'release-button', class: 'secondary', onclick: () => events.release() }, words.release)
    this.live.append(checkout, h('div', { class: 'release' }, release, this.releaseMessage.element))
    this.lapsed.append(this.lapsedText, h('button', { type: 'button', id: 'hold-again-button', class: 'primary', onclick: () => events.holdAgain() }, words.holdAgain))
    this.element = h('section', { class: 'hold-panel', 'aria-labelledby': 'hold-title', hidden: true },
      this.heading, this.details, this.countdown, this.announcer, this.price, this.lapsed, this.live)
  }

  /** The message next to a checkout field, or next to the checkout button for anything else. */
  message(place: Place): Message {
    return this.messages.get(place) ?? this.messages.get('action')!
  }

  clearMessages(): void {
    for (const message of this.messages.values()) message.clear()
    this.releaseMessage.clear()
  }

  /** Shows a live hold and restarts the countdown; focus moves to the heading when the guest just held it. */
  show(held: Booking, moveFocus: boolean): void {
    const booking = namedInTour(held, this.tour)
    this.stop()
    this.element.hidden = false
    this.live.hidden = false
    this.lapsed.hidden = true
    this.countdown.hidden = false
    this.clearMessages()
    const { words } = this.formats
    this.heading.textContent = words.panel.held
    this.details.textContent = `${booking.tour.title}, ${this.formats.dateTime(booking.start)}, ${bookedGroup(words, booking)}.`
    replaceContent(this.price, priceList(this.formats, booking))
    this.expiresAt = Date.parse(booking.hold_expires_at!)
    this.announcedLastMinute = false
    this.announcer.textContent = words.panel.announceHeld(this.formats.price(booking.price.total))
    this.tick()
    this.timer = window.setInterval(() => this.tick(), 1000)
    if (moveFocus) focusOn(this.heading)
  }

  /** The hold ran out (or is gone): say why, and offer to hold the time again. */
  showLapsed(reason: string): void {
    this.stop()
    this.element.hidden = false
    this.live.hidden = true
    this.countdown.hidden = true
    this.lapsed.hidden = false
    this.heading.textContent = this.formats.words.panel.lapsed
    this.lapsedText.textContent = reason
  }

  hide(): void {
    this.stop()
    this.element.hidden = true
  }

  stop(): void {
    window.clearInterval(this.timer)
    this.timer = undefined
  }

  setBusy(busy: boolean): void {
    this.checkoutButton.setAttribute('aria-disabled', String(busy))
  }

  isBusy(): boolean {
    return this.checkoutButton.getAttribute('aria-disabled') === 'true'
  }

  /** The checkout request, or null after showing what is missing (the first problem gets focus). */
  read(): CheckoutRequest | null {
    this.clearMessages()
    const name = this.name.value.trim()
    const email = this.email.value.trim()
    const phone = this.phone.value.trim()
    const problems: HTMLElement[] = []
    const { words } = this.formats
    if (name === '') {
      this.message('name').show(words.panel.enterName)
      problems.push(this.name)
    }
    if (!EMAIL.test(email)) {
      this.message('email').show(email === '' ? words.panel.enterEmail : words.validEmail)
      problems.push(this.email)
    }
    if (problems.length > 0) {
      problems[0].focus()
      return null
    }
    return { name, email, ...(phone ? { phone } : {}), ...this.decoys.values() }
  }

  private tick(): void {
    const left = this.expiresAt - this.now()
    this.countdown.textContent = this.formats.words.panel.heldFor(clock(left))
    if (left <= 60_000 && left > 0 && !this.announcedLastMinute) {
      this.announcedLastMinute = true
      this.announcer.textContent = this.formats.words.panel.lastMinute
    }
    if (left <= 0) {
      this.stop()
      this.events.countdownEnded()
    }
  }

  private field(place: Place, label: string, input: HTMLInputElement, hint?: string): HTMLElement {
    return h('div', { class: 'field' },
      h('label', { for: input.id }, label),
      hint ? h('p', { class: 'hint', id: `${input.id}-hint` }, hint) : null,
      input, this.messageElement(place, `${input.id}-message`, input))
  }

  private messageElement(place: Place, id: string, field?: HTMLElement): HTMLElement {
    const message = new Message(id, field)
    this.messages.set(place, message)
    return message.element
  }
}
