import type { Availability, Slot } from '../../../src/schemas/availability.ts'
import type { Booking } from '../../../src/schemas/booking.ts'
import type { Tour } from '../../../src/schemas/tour.ts'
import { h, Message, replaceContent } from '../dom.ts'
import type { Formats } from '../format.ts'
import type { Place } from '../problems.ts'
import { AddonField } from './addon-field.ts'
import { decoyFields } from './decoy-fields.ts'
import type { GroupChoice, GroupField } from './group-choice.ts'
import { PartyField } from './party-field.ts'
import { PriceEstimate } from './price-estimate.ts'
import { UnitCounts } from './unit-counts.ts'

/** What the guest chose, as POST /booking takes it. */
export interface HoldRequest {
  tour_id: string
  start: string
  party: number
  /** For a tour with several units, the count of each (party is then the people they count). */
  units?: Record<string, number>
  addons?: Record<string, number>
  promo_code?: string
  /** The language the party is to be guided in: one of the tour's (see BookingSection.hold). */
  language?: string
  [decoy: string]: unknown
}

export interface HoldFormEvents {
  submit(): void
  /** The group changed (and is valid): availability must be read again for it. */
  groupChanged(): void
  /** Earlier (-1) or later (+1) dates. */
  page(direction: -1 | 1): void
}

function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number)
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10)
}

const sameInstant = (a: string, b: string) => Date.parse(a) === Date.parse(b)

/**
 * Who comes (a party size, or a count per unit for a tour with several), a 14-day date strip,
 * the start times of the chosen day, add-ons and a promo code. Times that cannot be booked
 * for the group's seats are disabled radios, so they cannot be chosen with mouse or keyboard.
 */
export class HoldForm {
  readonly element: HTMLFormElement
  private readonly group: GroupField
  /** The running total, for a tour with several units (a one-unit tour's form looks as it did before units). */
  private readonly estimate: PriceEstimate | null
  private readonly dates = h('div', { class: 'date-strip' })
  private readonly times = h('div', { class: 'time-list' })
  private readonly timesLegend = h('legend')
  private readonly earlier: HTMLButtonElement
  private readonly submitButton = h('button', { type: 'submit', id: 'hold-button', class: 'primary' })
  private readonly addonFields: AddonField[] = []
  private readonly promo = h('input', { id: 'promo', name: 'promo_code', type: 'text', maxlength: 64, autocomplete: 'off', autocapitalize: 'characters', spellcheck: 'false' })
  private readonly decoys = decoyFields('hold')
  private readonly messages = new Map<Place, Message>()
  private availability: Availability | null = null
  private firstDate: string | null = null
  private today: string | null = null
  private date: string | null = null
  private start: string | null = null
  /** The guest's own hold, whose seats count as free for the guest when changing it. */
  private held: { start: string, seats: number } | null = null

  constructor(private readonly formats: Formats, private readonly tour: Tour, events: HoldFormEvents) {
    const words = formats.words.hold
    this.timesLegend.textContent = words.startTime
    this.submitButton.textContent = words.holdSeats
    const groupEvents = { changed: () => this.groupChanged(), settled: () => events.groupChanged() }
    this.group = tour.units.length > 1 ? new UnitCounts(tour, formats, groupEvents) : new PartyField(tour, formats, groupEvents)
    for (const [place, message] of this.group.messages()) this.messages.set(place, message)
    this.estimate = tour.units.length > 1 ? new PriceEstimate(formats, tour) : null
    this.earlier = h('button', { type: 'button', class: 'secondary', onclick: () => events.page(-1) }, words.earlier)
    this.promo.addEventListener('input', () => {
      this.message('promo').clear()
      this.showEstimate()
    })
    const dateSet = h('fieldset', { class: 'dates' },
      h('legend', {}, words.date), this.dates,
      h('div', { class: 'strip-nav' }, this.earlier, h('button', { type: 'button', class: 'secondary', onclick: () => events.page(1) }, words.later)),
      this.messageElement('date', 'date-message'))
    const timeSet = h('fieldset', { class: 'times', 'aria-describedby': 'zone-note' }, this.timesLegend, this.times, this.messageElement('time', 'time-message'))
    this.element = h('form', { class: 'hold-form', novalidate: true, 'aria-labelledby': 'book-title', onsubmit: (event) => { event.preventDefault(); events.submit() } },
      this.group.element,
      dateSet,
      this.zoneNote(),
      timeSet,
      this.addonsSet(),
      h('div', { class: 'field' },
        h('label', { for: 'promo' }, words.promo),
        this.promo, this.messageElement('promo', 'promo-message', this.promo)),
      this.estimate?.element,
      this.decoys.element,
      this.submitButton,
      this.messageElement('action', 'hold-message'),
    )
  }

  message(place: Place): Message {
    const group = place.startsWith('addons.') ? 'addons' : place.startsWith('units.') ? 'units' : 'action'
    return this.messages.get(place) ?? this.messages.get(group) ?? this.messages.get('action')!
  }

  clearMessages(): void {
    for (const message of this.messages.values()) message.clear()
  }

  /** Shows a fresh availability answer, keeping the chosen day and time when they are still there. */
  showAvailability(availability: Availability): void {
    this.availability = availability
    this.firstDate = availability.date
    this.today ??= availability.date
    this.earlier.disabled = availability.date <= this.today
    const days = Array.from({ length: availability.days }, (_, i) => addDays(availability.date, i))
    if (this.date === null || !days.includes(this.date)) {
      this.date = days.find((d) => this.slotsOn(d).some((s) => this.bookable(s))) ?? days.find((d) => this.slotsOn(d).length > 0) ?? days[0]
    }
    // What is held is what is shown: a chosen time on another page of dates, or one that can
    // no longer be booked (sold out, too few seats for the party), is dropped.
    const chosen = this.start === null ? undefined : availability.slots.find((s) => sameInstant(s.start, this.start!))
    if (!chosen || !this.bookable(chosen)) this.start = null
    this.renderDates(days)
    this.renderTimes()
  }

  /** Marks the guest's current hold (or none) and relabels the button to match. */
  setHeld(held: Booking | null): void {
    this.held = held ? { start: held.start, seats: held.seats } : null
    this.submitButton.textContent = this.buttonLabel()
    if (this.availability) this.renderTimes()
  }

  /** While a hold is being sent the button says so and ignores presses (it keeps focus, unlike `disabled`). */
  setBusy(busy: boolean): void {
    this.submitButton.setAttribute('aria-disabled', String(busy))
    this.submitButton.textContent = busy ? this.formats.words.hold.holding : this.buttonLabel()
  }

  isBusy(): boolean {
    return this.submitButton.getAttribute('aria-disabled') === 'true'
  }

  private buttonLabel(): string {
    return this.held ? this.formats.words.hold.updateHold : this.formats.words.hold.holdSeats
  }

  /** Puts a booking's choices back into the form (a reload during a hold). */
  restore(booking: Booking): void {
    this.group.restore(booking)
    this.fitAddonsToParty()
    for (const line of booking.addons) this.addonFields.find((field) => field.addon.id === line.id)?.restore(line.quantity)
    this.promo.value = booking.promo_code ?? ''
    this.showEstimate()
    this.start = booking.start
    this.date = this.formats.operatorDate(booking.start)
    this.firstDate = this.date
  }

  /** The first day to ask availability for: null is today. */
  firstDay(): string | null {
    return this.firstDate
  }

  shiftedFirstDay(direction: -1 | 1): string | null {
    if (!this.availability) return null
    const next = addDays(this.availability.date, direction * 14)
    return this.today !== null && next < this.today ? this.today : next
  }

  /** The group if it can be booked; otherwise says why next to its field and gives null. */
  readGroup(): GroupChoice | null {
    return this.group.read()
  }

  /** The request for POST /booking, or null after showing what is missing (the first problem gets focus). */
  read(): HoldRequest | null {
    this.clearMessages()
    const group = this.group.read()
    const problems: HTMLElement[] = group === null ? [this.group.focusTarget()] : []
    if (this.start === null) {
      this.message('time').show(this.formats.words.hold.chooseTime)
      problems.push(this.times.querySelector<HTMLElement>('input:not([disabled])') ?? this.times)
    }
    const addons: Record<string, number> = {}
    for (const field of this.addonFields) {
      const choice = field.read()
      if ('problem' in choice) {
        this.message(`addons.${field.addon.id}`).show(choice.problem)
        problems.push(field.input)
      } else if (choice.quantity > 0) {
        addons[field.addon.id] = choice.quantity
      }
    }
    if (problems.length > 0) {
      problems[0].focus()
      return null
    }
    const promo = this.promo.value.trim()
    return {
      tour_id: this.tour.id,
      start: this.start!,
      party: group!.party,
      ...(group!.units ? { units: group!.units } : {}),
      ...(Object.keys(addons).length > 0 ? { addons } : {}),
      ...(promo ? { promo_code: promo } : {}),
      ...this.decoys.values(),
    }
  }

  private messageElement(place: Place, id: string, field?: HTMLElement): HTMLElement {
    const message = new Message(id, field)
    this.messages.set(place, message)
    return message.element
  }

  private zoneNote(): HTMLElement {
    const { formats } = this
    const words = formats.words.hold
    const text = formats.zonesDiffer()
      ? words.zoneOther(formats.zoneName(formats.operatorZone), formats.operatorZone, formats.zoneName(formats.guestZone))
      : words.zoneSame(formats.operatorZone)
    return h('p', { class: 'hint zone-note', id: 'zone-note' }, text)
  }

  private addonsSet(): HTMLElement | null {
    if (this.tour.addons.length === 0) return null
    const party = this.group.current()?.party ?? this.tour.party.min
    return h('fieldset', { class: 'addons' },
      h('legend', {}, this.formats.words.hold.extras),
      this.tour.addons.map((addon) => {
        const field = new AddonField(addon, this.formats, party)
        field.input.addEventListener('input', () => this.showEstimate())
        field.input.addEventListener('change', () => this.showEstimate())
        this.addonFields.push(field)
        return h('div', { class: 'field addon' }, field.parts(), this.messageElement(`addons.${addon.id}`, `${field.input.id}-message`, field.input))
      }),
      this.messageElement('addons', 'addons-message'))
  }

  private groupChanged(): void {
    this.fitAddonsToParty()
    this.showEstimate()
  }

  /** While the group is a valid one, a per-person add-on offers up to as many as it counts people. */
  private fitAddonsToParty(): void {
    const party = this.group.current()?.party
    if (party === undefined) return
    for (const field of this.addonFields) field.setParty(party)
  }

  private showEstimate(): void {
    if (!this.estimate) return
    let extras: number | null = 0
    for (const field of this.addonFields) {
      const choice = field.read()
      extras = 'problem' in choice || extras === null ? null : extras + choice.quantity * field.addon.price.amount
    }
    this.estimate.show(this.group.current(), extras, this.promo.value.trim() !== '')
  }

  private slotsOn(date: string): Slot[] {
    return this.availability?.slots.filter((s) => s.date === date) ?? []
  }

  private isHeld(slot: Slot): boolean {
    return this.held !== null && sameInstant(this.held.start, slot.start)
  }

  /** Seats this guest could take: the guest's own held seats count as free, since a new hold replaces the old one. */
  private free(slot: Slot): number {
    return slot.remaining + (this.isHeld(slot) ? this.held!.seats : 0)
  }

  /** Capacity counts seats: an infant on a lap takes none, a family ticket may take several. */
  private bookable(slot: Slot): boolean {
    const seats = this.group.current()?.seats ?? this.tour.party.min
    return slot.status !== 'closed' && this.free(slot) >= seats
  }

  private renderDates(days: string[]): void {
    const words = this.formats.words.hold
    replaceContent(this.dates, days.map((date) => {
      const slots = this.slotsOn(date)
      const open = slots.filter((s) => this.bookable(s)).length
      const note = slots.length === 0 ? words.noTours : open === 0 ? words.full : words.times(open)
      const id = `date-${date}`
      const input = h('input', { type: 'radio', name: 'date', id, value: date, class: 'chip-input', checked: date === this.date, disabled: slots.length === 0 })
      input.addEventListener('change', () => {
        this.date = date
        // A time chosen on another day is no longer on screen, so it is not kept.
        if (this.start !== null && !this.slotsOn(date).some((s) => sameInstant(s.start, this.start!))) this.start = null
        this.renderTimes()
      })
      return h('span', { class: 'chip' }, input,
        h('label', { for: id }, h('span', { class: 'chip-main' }, this.formats.dayLines(date).map((line) => h('span', {}, line))), h('span', { class: 'chip-note' }, note)))
    }))
  }

  private renderTimes(): void {
    const slots = this.date ? this.slotsOn(this.date) : []
    const words = this.formats.words.hold
    this.timesLegend.textContent = this.date ? words.startTimeOn(this.formats.day(this.date)) : words.startTime
    if (slots.length === 0) {
      replaceContent(this.times, h('p', { class: 'hint' }, words.noDepartures))
      return
    }
    replaceContent(this.times, slots.map((slot) => {
      const id = `time-${slot.date}-${slot.time.replace(':', '')}`
      const { remaining } = slot
      const bookable = this.bookable(slot)
      const limited = remaining < slot.capacity / 2
      const note = slot.status === 'closed' ? words.closed
        : this.isHeld(slot) ? words.heldForYou
          : remaining === 0 ? words.soldOut
            : !bookable ? words.tooFew(remaining)
              : limited ? words.onlyLeft(remaining) : words.seatsLeft(remaining)
      const input = h('input', {
        type: 'radio', name: 'start', id, value: slot.start, class: 'chip-input',
        checked: this.start !== null && sameInstant(this.start, slot.start) && bookable, disabled: !bookable,
      })
      input.addEventListener('change', () => {
        this.start = slot.start
        this.message('time').clear()
      })
      return h('span', { class: `chip${bookable ? (limited ? ' limited' : '') : ' unavailable'}` }, input,
        h('label', { for: id }, h('span', { class: 'chip-main' }, this.formats.time(slot.start)), h('span', { class: 'chip-note' }, note)))
    }))
  }
}
