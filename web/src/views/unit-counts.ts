import type { Booking } from '../../../src/schemas/booking.ts'
import type { Tour } from '../../../src/schemas/tour.ts'
import { ApiProblem } from '../api.ts'
import { h, Message } from '../dom.ts'
import type { Formats } from '../format.ts'
import { explain, unitRules, type Place } from '../problems.ts'
import type { PageWords } from '../words/en.ts'
import { mixOf, partyProblem, type GroupChoice, type GroupEvents, type GroupField } from './group-choice.ts'

type Unit = Tour['units'][number]

/** "4–12 years", "13 years and over", "up to 3 years", or null when the unit gives no ages. */
export function ageRange(words: PageWords, unit: Unit): string | null {
  const { min_age: min, max_age: max } = unit
  if (min !== null && max !== null) return words.units.years(min, max)
  if (min !== null) return words.units.yearsAndOver(min)
  if (max !== null) return words.units.upToYears(max)
  return null
}

/** One unit's count: a labelled number input between a − and a + button. */
class UnitCount {
  readonly input: HTMLInputElement
  readonly message: Message
  readonly element: HTMLElement
  private readonly fewer: HTMLButtonElement
  private readonly more: HTMLButtonElement

  constructor(readonly unit: Unit, units: readonly Unit[], formats: Formats, readonly max: number, quantity: number, step: (count: UnitCount, by: -1 | 1) => void) {
    const id = `unit-${unit.id}`
    const { words } = formats
    const rules = unitRules(formats, unit, units)
    const facts = [
      ageRange(words, unit),
      unit.price.amount === 0 ? words.free : words.units.each(formats.price(unit.price.amount)),
      unit.seats === 0 ? words.units.onLap : unit.seats > 1 ? words.units.takesSeats(unit.seats) : null,
      unit.pax > 1 ? words.units.forPeople(unit.pax) : null,
    ].filter(Boolean) as string[]
    const describedBy = [`${id}-hint`, rules.length > 0 ? `${id}-rule` : null].filter(Boolean).join(' ')
    this.input = h('input', { id, name: id, type: 'number', min: 0, max, step: 1, value: quantity, inputmode: 'numeric', 'aria-describedby': describedBy })
    this.message = new Message(`${id}-message`, this.input)
    this.fewer = h('button', { type: 'button', class: 'secondary step', 'aria-label': words.units.fewer(unit.name), 'aria-controls': id, onclick: () => step(this, -1) }, '−')
    this.more = h('button', { type: 'button', class: 'secondary step', 'aria-label': words.units.more(unit.name), 'aria-controls': id, onclick: () => step(this, 1) }, '+')
    this.element = h('div', { class: 'unit' },
      h('div', { class: 'unit-text' },
        h('label', { for: id }, unit.name),
        h('p', { class: 'hint', id: `${id}-hint` }, facts.join(' · ')),
        unit.description ? h('p', { class: 'hint' }, unit.description) : null,
        // Said before the guest breaks it, not only after: "Child: only together with at least one Adult."
        rules.length > 0 ? h('p', { class: 'hint unit-rule', id: `${id}-rule` }, `${rules.join('; ')}.`.replace(/^./, (c) => c.toLocaleUpperCase(formats.locale))) : null),
      h('div', { class: 'stepper' }, this.fewer, this.input, this.more),
      this.message.element)
  }

  /** The count typed, or null when it is not a whole number from 0 to the most this unit allows. */
  quantity(): number | null {
    const text = this.input.value.trim()
    const value = text === '' ? 0 : Number(text)
    return Number.isInteger(value) && value >= 0 && value <= this.max ? value : null
  }

  /** − and + say when they would do nothing; they keep focus (aria-disabled, not disabled) so a keyboard user is not thrown out. */
  setBounds(canLower: boolean, canRaise: boolean): void {
    this.fewer.setAttribute('aria-disabled', String(!canLower))
    this.more.setAttribute('aria-disabled', String(!canRaise))
  }
}

/**
 * The group of a tour with several units: a count per unit (name, age range, price, its rules),
 * bounded by the unit's own quantities and by the tour's party, which counts people. The mix
 * is checked by the same rule the API applies as the counts change, so a child booked alone is
 * said at once, and a mix the API would refuse is never sent.
 */
export class UnitCounts implements GroupField {
  readonly element: HTMLElement
  private readonly counts: UnitCount[]
  private readonly message = new Message('units-message')

  constructor(private readonly tour: Tour, private readonly formats: Formats, private readonly events: GroupEvents) {
    const { min, max } = tour.party
    const [first] = tour.units
    const firstCount = Math.max(min, Math.min(2, max, first.max_quantity ?? max))
    this.counts = tour.units.map((unit, i) => new UnitCount(unit, tour.units, formats,
      Math.min(unit.max_quantity ?? max, Math.floor(max / unit.pax)), i === 0 ? firstCount : 0,
      (count, by) => this.step(count, by)))
    for (const count of this.counts) {
      count.input.addEventListener('input', () => this.changed())
      count.input.addEventListener('change', () => {
        if (this.current() !== null) events.settled()
      })
    }
    this.element = h('fieldset', { class: 'units', 'aria-describedby': 'units-hint units-message' },
      h('legend', {}, formats.words.units.legend),
      h('p', { class: 'hint', id: 'units-hint' }, formats.words.units.perBooking(min, max)),
      this.counts.map((count) => count.element),
      this.message.element)
    this.updateBounds()
  }

  messages(): [Place, Message][] {
    return [['units', this.message], ['party', this.message], ...this.counts.map((count): [Place, Message] => [`units.${count.unit.id}`, count.message])]
  }

  current(): GroupChoice | null {
    const choice = this.check()
    return 'problem' in choice ? null : choice
  }

  read(): GroupChoice | null {
    this.clear()
    const choice = this.check()
    if (!('problem' in choice)) return choice
    this.show(choice.problem, choice.count)
    return null
  }

  focusTarget(): HTMLElement {
    return this.counts.find((count) => count.input.getAttribute('aria-invalid') === 'true')?.input ?? this.counts[0].input
  }

  restore(booking: Booking): void {
    for (const count of this.counts) count.input.value = String(booking.units.find((line) => line.id === count.unit.id)?.quantity ?? 0)
    this.changed()
  }

  /** The mix, or what is wrong with it and at which count. */
  private check(): GroupChoice | { problem: ApiProblem | string, count?: UnitCount } {
    const units: Record<string, number> = {}
    for (const count of this.counts) {
      const quantity = count.quantity()
      if (quantity === null) return { problem: this.formats.words.units.wholeNumber(count.max), count }
      if (quantity > 0) units[count.unit.id] = quantity
    }
    if (Object.keys(units).length === 0) return { problem: this.formats.words.units.atLeastOne }
    const mix = mixOf(this.tour, { units })
    if (mix instanceof ApiProblem) return { problem: mix, count: this.counts.find((count) => `units.${count.unit.id}` === mix.errors[0]?.field) }
    const tooMany = partyProblem(this.tour, mix.party)
    if (tooMany) return { problem: tooMany }
    return { ...mix, units }
  }

  private show(problem: ApiProblem | string, count?: UnitCount): void {
    const text = typeof problem === 'string' ? problem : explain(this.formats, problem, this.tour).text
    ;(count?.message ?? this.message).show(text)
  }

  private clear(): void {
    this.message.clear()
    for (const count of this.counts) count.message.clear()
  }

  /** Every change is checked at once: a rule broken is said next to its count before the guest presses Hold. */
  private changed(): void {
    this.clear()
    const choice = this.check()
    if ('problem' in choice) this.show(choice.problem, choice.count)
    this.updateBounds()
    this.events.changed()
  }

  /** + from 0 jumps to the unit's fewest; − from its fewest goes back to 0 (0 is always allowed: not booked). */
  private step(count: UnitCount, by: -1 | 1): void {
    const now = count.quantity() ?? 0
    const next = by > 0 ? Math.max(now + 1, count.unit.min_quantity) : now <= count.unit.min_quantity ? 0 : now - 1
    if (next === now || next > count.max || (by > 0 && this.people() - now * count.unit.pax + next * count.unit.pax > this.tour.party.max)) return
    count.input.value = String(next)
    this.changed()
    if (this.current() !== null) this.events.settled()
  }

  /** The people the counts typed so far add up to, counting what cannot be read as none. */
  private people(): number {
    return this.counts.reduce((sum, count) => sum + (count.quantity() ?? 0) * count.unit.pax, 0)
  }

  private updateBounds(): void {
    const people = this.people()
    for (const count of this.counts) {
      const now = count.quantity() ?? 0
      const next = Math.max(now + 1, count.unit.min_quantity)
      count.setBounds(now > 0, next <= count.max && people - now * count.unit.pax + next * count.unit.pax <= this.tour.party.max)
    }
  }
}
