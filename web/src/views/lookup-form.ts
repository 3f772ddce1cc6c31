import type { Booking } from '../../../src/schemas/booking.ts'
import { ApiProblem } from '../api.ts'
import { focusOn, h, Message } from '../dom.ts'
import type { Page } from '../page.ts'
import { explainError } from '../problems.ts'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** "Manage my booking": the booking code and the email address given at checkout, as POST /booking/lookup takes them. */
export class LookupForm {
  readonly element: HTMLElement
  private readonly title = h('h2', { id: 'lookup-title' })
  private readonly code = h('input', {
    id: 'lookup-code', name: 'code', type: 'text', maxlength: 64, autocomplete: 'off', autocapitalize: 'characters', spellcheck: 'false',
    'aria-describedby': 'lookup-code-hint', required: true,
  })
  private readonly email = h('input', { id: 'lookup-email', name: 'email', type: 'email', maxlength: 254, autocomplete: 'email', required: true })
  private readonly button = h('button', { type: 'submit', id: 'lookup-button', class: 'primary' })
  private readonly codeMessage = new Message('lookup-code-message', this.code)
  private readonly emailMessage = new Message('lookup-email-message', this.email)
  readonly message = new Message('lookup-message')

  constructor(private readonly page: Page, private readonly found: (booking: Booking) => void) {
    const words = page.words.manage
    this.title.textContent = words.find
    this.button.textContent = words.findButton
    this.element = h('section', { class: 'lookup', 'aria-labelledby': 'lookup-title' },
      this.title,
      h('form', { novalidate: true, 'aria-labelledby': 'lookup-title', onsubmit: (event) => { event.preventDefault(); void this.submit() } },
        h('div', { class: 'field' },
          h('label', { for: 'lookup-code' }, words.code),
          h('p', { class: 'hint', id: 'lookup-code-hint' }, words.codeHint),
          this.code, this.codeMessage.element),
        h('div', { class: 'field' },
          h('label', { for: 'lookup-email' }, words.email),
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
    const { words } = this.page
    if (code === '') {
      this.codeMessage.show(words.manage.enterCode)
      problems.push(this.code)
    }
    if (!EMAIL.test(email)) {
      this.emailMessage.show(email === '' ? words.manage.enterEmail : words.validEmail)
      problems.push(this.email)
    }
    if (problems.length > 0) {
      problems[0].focus()
      return
    }
    this.button.setAttribute('aria-disabled', 'true')
    this.button.textContent = words.manage.looking
    try {
      this.found(await this.page.api.post<Booking>('/booking/lookup', { code, email }, { csrf: true }))
    } catch (err) {
      this.showProblem(err)
    } finally {
      this.button.removeAttribute('aria-disabled')
      this.button.textContent = words.manage.findButton
    }
  }

  /** A failed lookup, next to the field it concerns; a code and email that match no booking are told apart from neither. */
  private showProblem(err: unknown): void {
    if (err instanceof ApiProblem && err.code === 'no_booking') {
      this.codeMessage.show(this.page.words.manage.noMatch)
      this.email.setAttribute('aria-invalid', 'true')
      focusOn(this.code)
      return
    }
    const explanation = explainError(this.page.formats, err)
    const message = explanation.place === 'code' ? this.codeMessage : explanation.place === 'email' ? this.emailMessage : this.message
    message.show(explanation.text)
    if (message === this.message) focusOn(message.element)
    else (message === this.codeMessage ? this.code : this.email).focus()
  }
}
