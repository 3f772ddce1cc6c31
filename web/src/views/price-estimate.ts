import { describeUnits } from '../../../src/domain/units.ts'
import type { Tour } from '../../../src/schemas/tour.ts'
import { h } from '../dom.ts'
import type { Formats } from '../format.ts'
import type { GroupChoice } from './group-choice.ts'

/**
 * The total of the counts and extras chosen, updated as they change, before anything is sent:
 * the units' subtotal (Σ count × unit price) plus the extras. It is what the hold will cost
 * without a promo code; the held booking then shows the server's own price.
 */
export class PriceEstimate {
  readonly element: HTMLElement
  private readonly total = h('strong', { id: 'estimate-total' })
  private readonly detail = h('p', { class: 'hint', id: 'estimate-detail' })

  constructor(private readonly formats: Formats, private readonly tour: Tour) {
    this.element = h('div', { class: 'estimate', 'aria-live': 'polite', 'aria-atomic': 'true' },
      h('p', { class: 'estimate-total' }, formats.words.total, ' ', this.total), this.detail)
  }

  /** The group (null while it cannot be booked) and the extras' amount (null while one cannot be read); `promo` when a code is typed. */
  show(group: GroupChoice | null, extras: number | null, promo: boolean): void {
    const words = this.formats.words
    if (group === null || extras === null) {
      this.total.textContent = '—'
      this.detail.textContent = group === null ? words.units.estimateChoose : words.units.estimateCheckExtras
      return
    }
    const subtotal = group.lines.reduce((sum, line) => sum + line.amount, 0)
    this.total.textContent = this.formats.price(subtotal + extras)
    const onLap = group.lines.filter((line) => this.tour.units.find((unit) => unit.id === line.id)?.seats === 0).map((line) => line.name)
    const people = words.units.estimateSeats(words.people(group.party), group.seats)
    const lap = onLap.length > 0 ? words.units.estimateOnLap(this.formats.list(onLap)) : ''
    this.detail.textContent = [
      `${describeUnits(group.lines)}${extras > 0 ? words.units.withExtras : ''}: ${people}${lap}.`,
      promo ? words.units.promoLater : '',
    ].filter(Boolean).join(' ')
  }
}
