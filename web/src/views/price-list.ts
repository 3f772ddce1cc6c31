import { describeUnits, onlyImplicitUnit } from '../../../src/domain/units.ts'
import { isOneOf, OWES_ITS_TOTAL } from '../../../src/schemas/booking-status.ts'
import type { Booking } from '../../../src/schemas/booking.ts'
import { h } from '../dom.ts'
import type { Formats } from '../format.ts'

function row(term: string, amount: string, className?: string): HTMLElement {
  return h('div', { class: className }, h('dt', {}, term), h('dd', {}, amount))
}

const people = (n: number) => `${n} ${n === 1 ? 'person' : 'people'}`

/** A booking of the implicit unit alone reads as before units: "3 people", not "3 Person". */
const byParty = (booking: Booking) => onlyImplicitUnit(booking.units)

/** Who a booking is for: "3 people", or its units "2 Adult, 1 Child (3 people)". */
export function bookedGroup(booking: Booking): string {
  return byParty(booking) ? people(booking.party) : `${describeUnits(booking.units)} (${people(booking.party)})`
}

/**
 * A booking's price exactly as the server computed it: nothing here is recalculated. What is
 * due shows only while the booking owes its total (OWES_ITS_TOTAL): a declined, cancelled or
 * expired booking owes none of it, and a cancellation fee is stated by the booking card as such.
 */
export function priceList(formats: Formats, booking: Booking): HTMLElement {
  const { price } = booking
  return h('dl', { class: 'price-list' },
    byParty(booking)
      ? row(`Tour, ${people(booking.party)}`, formats.price(price.subtotal))
      : booking.units.map((line) => row(`${line.name} × ${line.quantity}`, formats.price(line.amount))),
    booking.addons.map((line) => row(`${line.name} × ${line.quantity}`, formats.price(line.amount))),
    price.discount > 0 ? row(`Promo code ${booking.promo_code ?? ''}`.trim(), `−${formats.price(price.discount)}`) : null,
    row('Total', formats.price(price.total), 'total'),
    isOneOf(OWES_ITS_TOTAL, booking.status) ? [row('Due now', formats.price(price.due_now)), row('Due on arrival', formats.price(price.due_on_arrival), 'due')] : null,
  )
}
