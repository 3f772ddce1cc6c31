import type { Availability } from '../../../src/schemas/availability.ts'
import type { Booking } from '../../../src/schemas/booking.ts'
import type { Tour } from '../../../src/schemas/tour.ts'
import { ApiProblem } from '../api.ts'
import { focusOn, h } from '../dom.ts'
import type { Page } from '../page.ts'
import { explainError, type Explanation } from '../problems.ts'
import { HoldForm, type HoldRequest } from './hold-form.ts'
import { HoldPanel } from './hold-panel.ts'

/** Codes after which the times on show may be stale: read availability again. */
const STALE_TIMES = new Set(['insufficient_capacity', 'slot_not_found', 'cutoff_passed'])

/**
 * Choosing a time, holding it, checking out or releasing it. Every number shown about a
 * hold (price, expiry) comes from the server's answer; every failure is explained next to
 * the field or button it concerns.
 */
export class BookingSection {
  readonly element: HTMLElement
  private readonly form: HoldForm
  private readonly panel: HoldPanel
  private booking: Booking | null = null
  private availabilityRequest = 0

  constructor(private readonly page: Page, private readonly tour: Tour, held: Booking | null) {
    this.form = new HoldForm(page.formats, tour, {
      submit: () => void this.hold(this.form.read()),
      groupChanged: () => void this.loadAvailability(this.form.firstDay()),
      page: (direction) => void this.loadAvailability(this.form.shiftedFirstDay(direction)),
    })
    this.panel = new HoldPanel(page.formats, tour, () => page.api.serverNow(), {
      checkout: () => void this.checkout(),
      release: () => void this.release(),
      holdAgain: () => void this.hold(this.form.read()),
      countdownEnded: () => void this.confirmLapse(),
    })
    this.element = h('section', { class: 'booking', 'aria-labelledby': 'book-title' },
      h('h2', { id: 'book-title' }, page.words.tour.bookThisTour),
      this.form.element, this.panel.element)
    if (held) {
      this.form.restore(held)
      this.showHold(held, false)
    }
    void this.loadAvailability(this.form.firstDay())
  }

  dispose(): void {
    this.panel.stop()
  }

  private async loadAvailability(firstDay: string | null): Promise<void> {
    const group = this.form.readGroup()
    if (group === null) return
    const request = ++this.availabilityRequest
    // With units, the API judges the seats of that very mix (an infant on a lap takes none).
    const query = new URLSearchParams({ tour: this.tour.id, days: '14',
      ...(group.units ? { units: Object.entries(group.units).map(([id, quantity]) => `${id}:${quantity}`).join(',') } : { party: String(group.party) }) })
    if (firstDay) query.set('date', firstDay)
    try {
      const availability = await this.page.api.get<Availability>(`/availability?${query}`)
      // A slower, older answer must not overwrite a newer one.
      if (request !== this.availabilityRequest) return
      this.form.message('date').clear()
      this.form.showAvailability(availability)
    } catch (err) {
      if (request === this.availabilityRequest) this.place(explainError(this.page.formats, err, this.tour), 'hold')
    }
  }

  private async hold(request: HoldRequest | null): Promise<void> {
    if (request === null || this.form.isBusy()) return
    this.form.clearMessages()
    this.panel.clearMessages()
    this.form.setBusy(true)
    try {
      const booking = await this.page.api.post<Booking>('/booking', { ...request, ...this.guidedLanguage() }, { csrf: true, idempotent: true })
      this.showHold(booking, true)
      // Seats left now count this hold; reading them again keeps "Held for you" and the counts true.
      void this.loadAvailability(this.form.firstDay())
    } catch (err) {
      const explanation = explainError(this.page.formats, err, this.tour)
      this.place(explanation, 'hold')
      if (err instanceof ApiProblem && STALE_TIMES.has(err.code)) void this.loadAvailability(this.form.firstDay())
    } finally {
      this.form.setBusy(false)
    }
  }

  /**
   * The page's language as the one to be guided in, spelt as the tour spells it, when the tour
   * is guided in it; otherwise none, and the API picks (docs/languages.md, "A booking's
   * language"): a French guest on an instance without French texts is still guided in French
   * on a tour that offers it.
   */
  private guidedLanguage(): { language?: string } {
    const language = this.tour.languages.find((tag) => tag.toLowerCase() === this.page.pageLanguage)
    return language ? { language } : {}
  }

  private showHold(booking: Booking, moveFocus: boolean): void {
    this.booking = booking
    this.page.bookings.note(booking)
    this.form.setHeld(booking)
    this.panel.show(booking, moveFocus)
  }

  private async checkout(): Promise<void> {
    const request = this.panel.read()
    if (request === null || this.panel.isBusy()) return
    this.panel.setBusy(true)
    try {
      const booking = await this.page.api.post<Booking>('/checkout', request, { idempotent: true })
      this.showConfirmation(booking)
    } catch (err) {
      // Without a live hold the checkout form goes away, so the reason is shown where it was.
      if (err instanceof ApiProblem && (err.code === 'hold_expired' || err.code === 'no_booking')) this.lapse(explainError(this.page.formats, err).text)
      else this.place(explainError(this.page.formats, err), 'checkout')
    } finally {
      this.panel.setBusy(false)
    }
  }

  private async release(): Promise<void> {
    this.panel.clearMessages()
    try {
      await this.page.api.delete<Booking>('/booking', { csrf: true })
      this.afterRelease(this.page.words.hold.released)
    } catch (err) {
      if (err instanceof ApiProblem && err.code === 'no_booking') {
        this.afterRelease(this.page.words.hold.releasedAlready)
      } else {
        this.panel.releaseMessage.show(explainError(this.page.formats, err).text)
      }
    }
  }

  private afterRelease(text: string): void {
    this.booking = null
    this.page.bookings.note(null)
    this.form.setHeld(null)
    this.panel.hide()
    const message = this.form.message('action')
    message.show(text, 'info')
    focusOn(message.element)
    void this.loadAvailability(this.form.firstDay())
  }

  /** The countdown ran out: the server decides (a slow device clock must not end a live hold). */
  private async confirmLapse(): Promise<void> {
    try {
      const booking = await this.page.api.get<Booking>('/booking')
      if (booking.status === 'held' && booking.id === this.booking?.id) {
        this.showHold(booking, false)
        return
      }
    } catch {
      // no booking, or no answer: either way the guest cannot rely on the hold any more
    }
    this.lapse(explainError(this.page.formats, new ApiProblem('hold_expired', 410)).text)
  }

  private lapse(reason: string): void {
    this.booking = null
    this.page.bookings.note(null)
    this.form.setHeld(null)
    this.panel.showLapsed(reason)
    void this.loadAvailability(this.form.firstDay())
  }

  /** Checked out: the page moves to the booking's own view, which a reload or the manage link comes back to. */
  private showConfirmation(booking: Booking): void {
    this.booking = booking
    this.panel.stop()
    this.page.showBooking(booking)
  }

  /** Shows a message next to its field; a field of the other form also gets it next to the button that was pressed. */
  private place(explanation: Explanation, action: 'hold' | 'checkout'): void {
    const checkoutField = explanation.place === 'name' || explanation.place === 'email' || explanation.place === 'phone'
    if (checkoutField) {
      this.panel.message(explanation.place).show(explanation.text)
      if (action === 'hold') this.form.message('action').show(explanation.text)
      return
    }
    if (explanation.place === 'action') {
      ;(action === 'hold' ? this.form.message('action') : this.panel.message('action')).show(explanation.text)
      return
    }
    this.form.message(explanation.place).show(explanation.text)
    if (action === 'checkout') this.panel.message('action').show(explanation.text)
  }
}
