import type { Tour } from '../../../src/schemas/tour.ts'
import { h } from '../dom.ts'
import type { Formats } from '../format.ts'

type Addon = Tour['addons'][number]

/**
 * One add-on of the hold form, asked the way a guest thinks of it: a per-person add-on as
 * "how many of you" (0 to the party size, never above its max_quantity), since its quantity
 * counts the people who take it; a per-booking add-on that can be had once as a checkbox;
 * any other per-booking add-on as a quantity from 0 to its max_quantity.
 */
export class AddonField {
  readonly input: HTMLInputElement
  readonly hint: HTMLParagraphElement
  private readonly checkbox: boolean
  private party: number

  constructor(readonly addon: Addon, private readonly formats: Formats, party: number) {
    const id = `addon-${addon.id}`
    this.party = party
    this.checkbox = addon.per === 'booking' && addon.max_quantity === 1
    this.input = this.checkbox
      ? h('input', { id, name: id, type: 'checkbox', 'aria-describedby': `${id}-hint` })
      : h('input', { id, name: id, type: 'number', min: 0, max: this.limit(), step: 1, value: 0, inputmode: 'numeric', 'aria-describedby': `${id}-hint` })
    this.hint = h('p', { class: 'hint', id: `${id}-hint` }, this.hintText())
  }

  /** The label, the hint and the control, in the order the field shows them. */
  parts(): HTMLElement[] {
    if (this.checkbox) return [h('p', { class: 'addon-check' }, this.input, h('label', { for: this.input.id }, this.addon.name)), this.hint]
    const label = this.addon.per === 'person' ? this.formats.words.addons.howMany(this.addon.name) : this.addon.name
    return [h('label', { for: this.input.id }, label), this.hint, this.input]
  }

  /** A new party size: a per-person add-on can be taken by at most that many people. */
  setParty(party: number): void {
    this.party = party
    if (this.checkbox) return
    this.input.max = String(this.limit())
    this.hint.textContent = this.hintText()
  }

  /** The quantity chosen, or a sentence saying what to enter instead. */
  read(): { quantity: number } | { problem: string } {
    if (this.checkbox) return { quantity: this.input.checked ? 1 : 0 }
    const quantity = this.input.value.trim() === '' ? 0 : Number(this.input.value)
    if (Number.isInteger(quantity) && quantity >= 0 && quantity <= this.limit()) return { quantity }
    const words = this.formats.words.addons
    return { problem: this.addon.per === 'person' ? words.enterTakers(this.limit()) : words.enterQuantity(this.limit()) }
  }

  restore(quantity: number): void {
    if (this.checkbox) this.input.checked = quantity > 0
    else this.input.value = String(quantity)
  }

  private limit(): number {
    return this.addon.per === 'person' ? Math.min(this.addon.max_quantity, this.party) : this.addon.max_quantity
  }

  private hintText(): string {
    const price = this.formats.price(this.addon.price.amount)
    const words = this.formats.words.addons
    const terms = this.checkbox ? words.perBooking(price)
      : this.addon.per === 'person' ? words.perTaker(price, this.limit()) : words.each(price, this.limit())
    return `${this.addon.description} ${terms}`
  }
}
