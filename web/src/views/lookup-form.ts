import type { Booking } from '../../../src/schemas/booking.ts'
import { ApiProblem } from '../api.ts'
import { focusOn, h, Message } from '../dom.ts'
import type { Page } from '../page.ts'
import { explainError } from '../problems.ts'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** "Manage my booking": the booking code and the email address given at checkout, as POST /booking/lookup takes them. */
export class LookupForm {
  readonly element: HTMLElement
  private readonly title = h('h2', { id: 'lookup-title' }, 'Find your booking')
  private readonly code = h('input', {
    id: 'lookup-code', name: 'code', type: 'text', maxlength: 64, autocomplete: 'off', autocapitalize: 'characters', spellcheck: 'false',
    'aria-describedby': 'lookup-code-hint', required: true,
  })
  private readonly email = h('input', { id: 'lookup-email', name: 'email', type: 'email', maxlength: 254, autocomplete: 'email', required: true })
  private readonly button = h('button', { type: 'submit', id: 'lookup-button', class: 'primary' }, 'Find my booking')
  private readonly codeMessage = new Message('lookup-code-message', this.code)
  private readonly emailMessage = new Message('lookup-email-message', this.email)
  readonly message = new Message('lookup-message')

  constructor(private readonly page: Page, private readonly found: (booking: Booking) => void) {
    this.element = h('section', { class: 'lookup', 'aria-labelledby': 'lookup-title' },
      this.title,
      h('form', { novalidate: true, 'aria-labelledby': 'lookup-title', onsubmit: (event) => { event.preventDefault(); void this.submit() } },
        h('div', { class: 'field' },
          h('label', { for: 'lookup-code' }, 'Booking code'),
          h('p', { class: 'hint', id: 'lookup-code-hint' }, 'Six letters and digits, from your confirmation'),
          this.code, this.codeMessage.element),
        h('div', { class: 'field' },
          h('label', { for: 'lookup-email' }, 'Email address you booked with'),
          this.email, this.emailMessage.element),
        this.button,
        this.message.element))
  }

  /** Once a booking is on show, the form is for another one. */
  setTitle(text: string): void {
    this.title.textContent = text
  }

  clearMessages(): void {
    this.codeMessage.clear()
    this.emailMessage.clear()
    this.message.clear()
  }

  private async submit(): Promise<void> {
    if (this.button.getAttribute('aria-disabled') === 'true') return
    this.clearMessages()
    const code = this.code.value.trim()
    const email = this.email.value.trim()
    const problems: HTMLElement[] = []
    if (code === '') {
      this.codeMessage.show('Please enter the booking code from your confirmation.')
      problems.push(this.code)
    }
    if (!EMAIL.test(email)) {
      this.emailMessage.show(email === '' ? 'Please enter the email address you booked with.' : 'Please enter a valid email address, such as ana@example.com.')
      problems.push(this.email)
    }
    if (problems.length > 0) {
      problems[0].focus()
      return
    }
    this.button.setAttribute('aria-disabled', 'true')
    this.button.textContent = 'Looking for your booking…'
    try {
      this.found(await this.page.api.post<Booking>('/booking/lookup', { code, email }, { csrf: true }))
    } catch (err) {
      this.showProblem(err)
    } finally {
      this.button.removeAttribute('aria-disabled')
      this.button.textContent = 'Find my booking'
    }
  }

  /** A failed lookup, next to the field it concerns; a code and email that match no booking are told apart from neither. */
  private showProblem(err: unknown): void {
    if (err instanceof ApiProblem && err.code === 'no_booking') {
      this.codeMessage.show('No booking has this code and email address. Please check both against your confirmation.')
      this.email.setAttribute('aria-invalid', 'true')
      focusOn(this.code)
      return
    }
    const explanation = explainError(err)
    const message = explanation.place === 'code' ? this.codeMessage : explanation.place === 'email' ? this.emailMessage : this.message
    message.show(explanation.text)
    if (message === this.message) focusOn(message.element)
    else (message === this.codeMessage ? this.code : this.email).focus()
  }
}
