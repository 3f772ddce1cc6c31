import { describeUnits, onlyImplicitUnit } from '../../../src/domain/units.ts'
import { isOneOf, OWES_ITS_TOTAL } from '../../../src/schemas/booking-status.ts'
import type { Booking } from '../../../src/schemas/booking.ts'
import type { Tour } from '../../../src/schemas/tour.ts'
import { h } from '../dom.ts'
import type { Formats } from '../format.ts'
import type { PageWords } from '../words/en.ts'

function row(term: string, amount: string, className?: string): HTMLElement {
  return h('div', { class: className }, h('dt', {}, term), h('dd', {}, amount))
}

/** A booking of the implicit unit alone reads as before units: "3 people", not "3 Person". */
const byParty = (booking: Booking) => onlyImplicitUnit(booking.units)

/**
 * A booking's unit and add-on lines named as the tour names them in the page's language: the
 * API keeps the names they were booked under, in the instance's default language
 * (docs/languages.md). A line the tour no longer has keeps its booked name.
 */
export function namedInTour(booking: Booking, tour: Tour | null): Booking {
  if (!tour) return booking
  const rename = <Line extends { id: string, name: string }>(line: Line, named: readonly { id: string, name: string }[]): Line =>
    ({ ...line, name: named.find((item) => item.id === line.id)?.name ?? line.name })
  return {
    ...booking,
    units: booking.units.map((line) => rename(line, tour.units)),
    addons: booking.addons.map((line) => rename(line, tour.addons)),
  }
}

/** Who a booking is for: "3 people", or its units "2 Adult, 1 Child (3 people)". */
export function bookedGroup(words: PageWords, booking: Booking): string {
  return byParty(booking) ? words.people(booking.party) : `${describeUnits(booking.units)} (${words.people(booking.party)})`
}

/**
 * A booking's price exactly as the server computed it: nothing here is recalculated. What is
 * due shows only while the booking owes its total (OWES_ITS_TOTAL): a declined, cancelled or
 * expired booking owes none of it, and a cancellation fee is stated by the booking card as such.
 */
export function priceList(formats: Formats, booking: Booking): HTMLElement {
  const { price } = booking
  const { words } = formats
  return h('dl', { class: 'price-list' },
    byParty(booking)
      ? row(words.price.tourParty(words.people(booking.party)), formats.price(price.subtotal))
      : booking.units.map((line) => row(`${line.name} × ${line.quantity}`, formats.price(line.amount))),
    booking.addons.map((line) => row(`${line.name} × ${line.quantity}`, formats.price(line.amount))),
    price.discount > 0 ? row(words.price.promo(booking.promo_code ?? ''), `−${formats.price(price.discount)}`) : null,
    row(words.total, formats.price(price.total), 'total'),
    isOneOf(OWES_ITS_TOTAL, booking.status)
      ? [row(words.price.dueNow, formats.price(price.due_now)), row(words.price.dueOnArrival, formats.price(price.due_on_arrival), 'due')]
      : null,
  )
}
