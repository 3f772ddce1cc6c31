import type { Booking } from '../../src/schemas/booking.ts'
import { Api, ApiProblem } from './api.ts'
import { focusOn } from './dom.ts'
import { Formats } from './format.ts'
import { HoldMemory } from './hold-memory.ts'
import { renderTourList } from './views/tour-list.ts'
import { renderTourPage } from './views/tour-page.ts'

export interface View {
  element: HTMLElement
  /** Stops timers and anything else the view keeps running. */
  dispose?(): void
}

/**
 * The booking page of one instance: reads the instance from the data attributes of
 * `<main>`, keeps the view in the URL (`?tour=<id>` opens a tour, `?q=` a search) and swaps
 * views without reloading.
 */
export class Page {
  readonly api: Api
  /** Whether there may be a hold to resume; the booking section keeps it up to date. */
  readonly holds: HoldMemory
  readonly formats: Formats
  readonly operatorName: string
  private view: View | null = null

  constructor(private readonly root: HTMLElement) {
    const { api, name, timezone, currency } = root.dataset
    this.api = new Api(api!)
    this.holds = new HoldMemory(api!, () => this.api.serverNow())
    this.operatorName = name!
    this.formats = new Formats(navigator.languages?.[0] ?? navigator.language ?? 'en', timezone!, currency!)
  }

  async start(): Promise<void> {
    window.addEventListener('popstate', () => this.render(true))
    const held = await this.heldBooking()
    if (held && this.tourId() !== held.tour.id) history.replaceState(null, '', this.tourHref(held.tour.id))
    this.render(false, held)
  }

  tourHref(id: string): string {
    return `${location.pathname}?tour=${encodeURIComponent(id)}`
  }

  listHref(): string {
    return location.pathname
  }

  /** Follows a link inside the page; a click with a modifier key still opens a new tab. */
  follow(event: Event, tourId: string | null): void {
    const mouse = event as MouseEvent
    if (mouse.ctrlKey || mouse.metaKey || mouse.shiftKey || mouse.altKey || mouse.button > 0) return
    event.preventDefault()
    history.pushState(null, '', tourId === null ? this.listHref() : this.tourHref(tourId))
    this.render(true)
  }

  rememberQuery(q: string): void {
    history.replaceState(null, '', q ? `${location.pathname}?q=${encodeURIComponent(q)}` : location.pathname)
  }

  private tourId(): string | null {
    return new URLSearchParams(location.search).get('tour')
  }

  private render(moveFocus: boolean, held: Booking | null = null): void {
    this.view?.dispose?.()
    const tourId = this.tourId()
    this.view = tourId === null
      ? { element: renderTourList(this, new URLSearchParams(location.search).get('q') ?? '') }
      : renderTourPage(this, tourId, held)
    this.root.replaceChildren(this.view.element)
    const title = this.view.element.querySelector('h1')
    if (moveFocus && title) focusOn(title)
  }

  /**
   * The visitor's live hold from an earlier visit (the `sid` cookie names the session), so
   * a reload continues where the guest was. No hold, or no session yet, is the usual case:
   * then the page does not ask at all.
   */
  private async heldBooking(): Promise<Booking | null> {
    if (!this.holds.mayHoldSeats()) return null
    try {
      const booking = await this.api.get<Booking>('/booking')
      const live = booking.status === 'held' && Date.parse(booking.hold_expires_at ?? '') > this.api.serverNow()
      this.holds.note(live ? booking : null)
      return live ? booking : null
    } catch (err) {
      if (err instanceof ApiProblem) {
        if (err.code === 'no_booking') this.holds.note(null)
        return null
      }
      throw err
    }
  }
}
