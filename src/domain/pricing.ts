import { ApiError } from '../errors/api-error.ts'
import type { CatalogAddon, CatalogPromoCode, CatalogTour } from '../schemas/catalog.ts'
import type { UnitMix } from './units.ts'

export interface AddonLine {
  id: string
  name: string
  quantity: number
  amount: number
}

export interface PriceBreakdown {
  subtotal: number
  addons: number
  discount: number
  total: number
  lines: AddonLine[]
}

export interface AddonChoice {
  addon: CatalogAddon
  quantity: number
}

/**
 * A per-person add-on's quantity counts the people of the party who take it, so it cannot
 * exceed the party; the price of four tastings for a party of two means nothing. Every
 * priced booking (guest hold, staff booking, an operator's resize) passes through here,
 * which is why the rule is enforced here and not beside each caller's other add-on checks.
 */
function requirePerPersonWithinParty(addons: readonly AddonChoice[], party: number): void {
  for (const { addon, quantity } of addons) {
    if (addon.per === 'person' && quantity > party) {
      throw new ApiError('invalid_addon', `"${addon.name}" is per person: at most the ${party} people of the party can take it`, {
        errors: [{ field: `addons.${addon.id}`, message: `must be at most the party size, ${party}` }],
      })
    }
  }
}

/**
 * The units' prices times their quantities (src/domain/units.ts; a party-only booking is that
 * many of the tour's first unit, so its per-person price times party), plus add-ons at unit price times quantity (for a per-person
 * add-on the quantity is the number of people who take it, 1 to the party), less the promo
 * discount. A percentage is taken of subtotal plus add-ons and rounded half up to the minor
 * unit; a fixed discount never takes the total below zero. Throws invalid_addon for a
 * per-person quantity above the party.
 */
export function priceBooking(input: {
  units: UnitMix
  addons: readonly AddonChoice[]
  promo: Pick<CatalogPromoCode, 'kind' | 'value'> | null
}): PriceBreakdown {
  requirePerPersonWithinParty(input.addons, input.units.party)
  const subtotal = input.units.lines.reduce((sum, line) => sum + line.amount, 0)
  const lines = input.addons
    .filter(({ quantity }) => quantity > 0)
    .map(({ addon, quantity }) => ({ id: addon.id, name: addon.name, quantity, amount: addon.price * quantity }))
  const addons = lines.reduce((sum, line) => sum + line.amount, 0)
  const gross = subtotal + addons
  const discount = input.promo === null ? 0
    : input.promo.kind === 'percent' ? Math.floor((gross * input.promo.value + 50) / 100)
      : Math.min(gross, input.promo.value)
  return { subtotal, addons, discount, total: gross - discount, lines }
}

/** The requested add-ons of a tour with their quantities; 422 invalid_addon for one the tour has not or a quantity above its maximum. */
export function requireAddons(tour: CatalogTour, requested: Record<string, number>) {
  return Object.entries(requested).map(([id, quantity]) => {
    const addon = tour.addons.find((a) => a.id === id)
    if (!addon) {
      throw new ApiError('invalid_addon', `${tour.title} has no add-on "${id}"`, { errors: [{ field: `addons.${id}`, message: 'is not an add-on of this tour' }] })
    }
    if (quantity > addon.max_quantity) {
      throw new ApiError('invalid_addon', `At most ${addon.max_quantity} of "${addon.name}" can be booked`, {
        errors: [{ field: `addons.${id}`, message: `must be at most ${addon.max_quantity}` }],
      })
    }
    return { addon, quantity }
  })
}
