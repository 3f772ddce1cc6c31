import type { Booking } from '../../../src/schemas/booking.ts'
import { h } from '../dom.ts'
import type { Formats } from '../format.ts'

function row(term: string, amount: string, className?: string): HTMLElement {
  return h('div', { class: className }, h('dt', {}, term), h('dd', {}, amount))
}

/** A booking's price exactly as the server computed it: nothing here is recalculated. */
export function priceList(formats: Formats, booking: Booking): HTMLElement {
  const { price } = booking
  return h('dl', { class: 'price-list' },
    row(`Tour, ${booking.party} ${booking.party === 1 ? 'person' : 'people'}`, formats.price(price.subtotal)),
    booking.addons.map((line) => row(`${line.name} × ${line.quantity}`, formats.price(line.amount))),
    price.discount > 0 ? row(`Promo code ${booking.promo_code ?? ''}`.trim(), `−${formats.price(price.discount)}`) : null,
    row('Total', formats.price(price.total), 'total'),
    row('Due now', formats.price(price.due_now)),
    row('Due on arrival', formats.price(price.due_on_arrival), 'due'),
  )
}
