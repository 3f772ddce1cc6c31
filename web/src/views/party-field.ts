import type { Booking } from '../../../src/schemas/booking.ts'
import type { Tour } from '../../../src/schemas/tour.ts'
import { h, Message } from '../dom.ts'
import type { Formats } from '../format.ts'
import { ApiProblem } from '../api.ts'
import { explain, type Place } from '../problems.ts'
import { mixOf, type GroupChoice, type GroupEvents, type GroupField } from './group-choice.ts'

/**
 * The group of a tour with one unit (most often the implicit "person"): one count, "Number of
 * people", as the page asked before tours had units. POST /booking then gets only `party`.
 */
export class PartyField implements GroupField {
  readonly element: HTMLElement
  readonly input: HTMLInputElement
  private readonly message: Message

  constructor(private readonly tour: Tour, private readonly formats: Formats, events: GroupEvents) {
    const { min, max } = tour.party
    this.input = h('input', { id: 'party', name: 'party', type: 'number', min, max, step: 1, inputmode: 'numeric', value: Math.max(min, Math.min(2, max)), 'aria-describedby': 'party-hint', required: true })
    this.message = new Message('party-message', this.input)
    this.input.addEventListener('change', () => {
      if (this.read() !== null) events.settled()
    })
    this.input.addEventListener('input', () => events.changed())
    this.element = h('div', { class: 'field' },
      h('label', { for: 'party' }, formats.words.party.label),
      h('p', { class: 'hint', id: 'party-hint' }, formats.words.peopleRange(min, max)),
      this.input, this.message.element)
  }

  messages(): [Place, Message][] {
    return [['party', this.message], ['units', this.message]]
  }

  current(): GroupChoice | null {
    const choice = this.check()
    return choice instanceof ApiProblem || choice === 'out_of_range' ? null : choice
  }

  read(): GroupChoice | null {
    const choice = this.check()
    if (choice === 'out_of_range') {
      const { min, max } = this.tour.party
      this.message.show(this.formats.words.party.outOfRange(min, max))
      return null
    }
    if (choice instanceof ApiProblem) {
      // The tour's one unit may bound its count more tightly than the party does.
      this.message.show(explain(this.formats, choice, this.tour).text)
      return null
    }
    this.message.clear()
    return choice
  }

  private check(): GroupChoice | ApiProblem | 'out_of_range' {
    const { min, max } = this.tour.party
    const value = Number(this.input.value)
    if (this.input.value.trim() === '' || !Number.isInteger(value) || value < min || value > max) return 'out_of_range'
    return mixOf(this.tour, { party: value })
  }

  focusTarget(): HTMLElement {
    return this.input
  }

  restore(booking: Booking): void {
    this.input.value = String(booking.party)
  }
}
