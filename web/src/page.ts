import type { Booking } from '../../src/schemas/booking.ts'
import { Api, ApiProblem } from './api.ts'
import { BookingMemory } from './booking-memory.ts'
import { focusOn, h } from './dom.ts'
import { Formats } from './format.ts'
import { storedLanguage, storeLanguage } from './language-memory.ts'
import { bookingLanguage, chooseLanguage, languageName, loadWords, localeFor, PAGE_LANGUAGES, type PageLanguage } from './page-language.ts'
import type { PageWords } from './words/en.ts'
import { renderManagePage } from './views/manage-page.ts'
import { renderTourList } from './views/tour-list.ts'
import { renderTourPage } from './views/tour-page.ts'

export interface View {
  element: HTMLElement
  /** Stops timers and anything else the view keeps running. */
  dispose?(): void
}

/** The last segment of the booking view's path: `<page>/manage`, where a manage link points. */
const MANAGE = /\/manage\/?$/

/**
 * The booking page of one instance: reads the instance from the data attributes of
 * `<main>`, keeps the view in the URL (`?tour=<id>` opens a tour, `?q=` a search, `manage`
 * the guest's booking) and swaps views without reloading. It speaks the browser's language
 * among PAGE_LANGUAGES, or the one chosen with its switch; a manage link opens it in the
 * booking's language (docs/languages.md).
 */
export class Page {
  readonly api: Api
  /** Whether there may be a booking to show; the views keep it up to date. */
  readonly bookings: BookingMemory
  readonly operatorName: string
  /** The page's own path, `/book/<prefix>/`, whichever view is open. */
  private readonly base: string
  private readonly browserLanguages: readonly string[]
  private readonly operatorZone: string
  private readonly currency: string
  /** The instance's languages, its default first (`data-languages` of src/web/page-shell.ts). */
  private readonly instanceLanguages: readonly string[]
  private language: PageLanguage
  private currentFormats: Formats
  private view: View | null = null

  /** The page in the guest's language, once its words are loaded. */
  static async open(root: HTMLElement): Promise<Page> {
    const browserLanguages = navigator.languages?.length ? navigator.languages : [navigator.language ?? 'en']
    const { language, words } = await loadWords(chooseLanguage(storedLanguage(), browserLanguages))
    return new Page(root, browserLanguages, language, words)
  }

  private constructor(private readonly root: HTMLElement, browserLanguages: readonly string[], language: PageLanguage, words: PageWords) {
    const { api, name, timezone, currency, languages } = root.dataset
    this.browserLanguages = browserLanguages
    this.instanceLanguages = languages!.split(' ')
    this.operatorZone = timezone!
    this.currency = currency!
    this.language = language
    this.currentFormats = this.formatsIn(language, words)
    this.api = new Api(api!, this.language)
    this.bookings = new BookingMemory(api!, () => this.api.serverNow())
    this.operatorName = name!
    const path = location.pathname.replace(MANAGE, '/')
    this.base = path.endsWith('/') ? path : `${path}/`
  }

  /** Dates, times and money in the page's language, and its words. */
  get formats(): Formats {
    return this.currentFormats
  }

  get words(): PageWords {
    return this.currentFormats.words
  }

  /** The language the page speaks now. */
  get pageLanguage(): PageLanguage {
    return this.language
  }

  /**
   * The `lang` to mark catalog texts with when they came in another language than the page's
   * (the instance lacks the page's, and the API fell back to its default), so a screen reader
   * reads them in theirs; null when they are in the page's own.
   */
  textLanguage(answered: string | null): string | null {
    return answered && answered.toLowerCase().split('-')[0] !== this.language ? answered : null
  }

  async start(): Promise<void> {
    document.documentElement.lang = this.language
    window.addEventListener('popstate', () => this.render(true))
    // The booking view reads the booking itself (from a manage link, or the session's).
    const held = this.onManagePage() ? null : await this.heldBooking()
    if (held && this.tourId() !== held.tour.id) history.replaceState(null, '', this.tourHref(held.tour.id))
    this.render(false, { held })
  }

  tourHref(id: string): string {
    return `${this.base}?tour=${encodeURIComponent(id)}`
  }

  listHref(): string {
    return this.base
  }

  manageHref(): string {
    return `${this.base}manage`
  }

  /** Follows a link inside the page; a click with a modifier key still opens a new tab. */
  follow(event: Event, href: string): void {
    const mouse = event as MouseEvent
    if (mouse.ctrlKey || mouse.metaKey || mouse.shiftKey || mouse.altKey || mouse.button > 0) return
    event.preventDefault()
    history.pushState(null, '', href)
    this.render(true)
  }

  /** After checkout: the booking view, at the address a reload comes back to, with focus on what happened. */
  showBooking(booking: Booking): void {
    this.bookings.note(booking)
    history.pushState(null, '', this.manageHref())
    this.render(false, { booking })
  }

  rememberQuery(q: string): void {
    history.replaceState(null, '', q ? `${location.pathname}?q=${encodeURIComponent(q)}` : location.pathname)
  }

  private onManagePage(): boolean {
    return MANAGE.test(location.pathname)
  }

  private tourId(): string | null {
    return new URLSearchParams(location.search).get('tour')
  }

  private render(moveFocus: boolean, shown: { held?: Booking | null, booking?: Booking } = {}): void {
    this.view?.dispose?.()
    const tourId = this.tourId()
    this.view = this.onManagePage() ? renderManagePage(this, shown.booking ?? null)
      : tourId === null ? { element: renderTourList(this, new URLSearchParams(location.search).get('q') ?? '') }
        : renderTourPage(this, tourId, shown.held ?? null)
    this.root.replaceChildren(this.languageSwitch(), this.view.element)
    const title = this.view.element.querySelector('h1')
    if (moveFocus && title) focusOn(title)
  }

  private formatsIn(language: PageLanguage, words: PageWords): Formats {
    return new Formats(localeFor(language, this.browserLanguages), this.operatorZone, this.currency, words)
  }

  /**
   * One button per language, each named in its own language (and marked so, for screen
   * readers); the current one says so with aria-current.
   */
  private languageSwitch(): HTMLElement {
    return h('nav', { class: 'language-switch', 'aria-label': this.words.languageSwitch },
      h('ul', {}, PAGE_LANGUAGES.map((language) => h('li', {},
        h('button', {
          type: 'button', id: `language-${language}`, lang: language,
          'aria-current': language === this.language ? 'true' : null,
          onclick: () => void this.switchLanguage(language),
        }, languageName(language))))))
  }

  /**
   * Remembers the guest's choice and shows the same view in that language: tour texts are
   * read again in it, and a live hold is shown again from the server.
   */
  private async switchLanguage(chosen: PageLanguage): Promise<void> {
    if (chosen === this.language) return
    const { language, words } = await loadWords(chosen)
    storeLanguage(language)
    this.speak(language, words)
    const held = this.onManagePage() ? null : await this.heldBooking()
    this.render(false, { held })
    document.getElementById(`language-${language}`)?.focus()
  }

  /**
   * A manage link's booking, found by its token, in the language its emails are written in
   * (`bookingLanguage`): when that is not the page's, the page turns to it, without storing it
   * as the guest's choice, and shows the booking read again in it, focus on it. False when the
   * page already speaks it, and the view shows the booking itself.
   */
  async speakBookingLanguage(booking: Booking): Promise<boolean> {
    const wanted = bookingLanguage(booking.language, this.instanceLanguages)
    if (wanted === null || wanted === this.language) return false
    const { language, words } = await loadWords(wanted)
    if (language === this.language) return false
    this.speak(language, words)
    // The lookup made it the session's booking: read again, its tour is named in the new language.
    this.bookings.note(booking)
    this.render(true, { booking: await this.sessionBooking() ?? booking })
    return true
  }

  private speak(language: PageLanguage, words: PageWords): void {
    this.language = language
    this.currentFormats = this.formatsIn(language, words)
    this.api.language = language
    document.documentElement.lang = language
  }

  /**
   * The visitor's live hold from an earlier visit (the `sid` cookie names the session), so
   * a reload continues where the guest was. No booking, or no session yet, is the usual case:
   * then the page does not ask at all.
   */
  private async heldBooking(): Promise<Booking | null> {
    const booking = await this.sessionBooking()
    return booking?.status === 'held' && Date.parse(booking.hold_expires_at ?? '') > this.api.serverNow() ? booking : null
  }

  /** The session's booking (GET /booking) when the page may have one, remembered for the next visit; null when there is none. */
  async sessionBooking(): Promise<Booking | null> {
    if (!this.bookings.mayHaveBooking()) return null
    try {
      const booking = await this.api.get<Booking>('/booking')
      this.bookings.note(booking)
      return booking
    } catch (err) {
      if (err instanceof ApiProblem) {
        if (err.code === 'no_booking') this.bookings.note(null)
        return null
      }
      throw err
    }
  }
}
