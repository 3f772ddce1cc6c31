import type { CatalogAddon, CatalogPromoCode } from '../schemas/catalog.ts'

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

/**
 * Per-person price times party, plus add-ons (per booking, or per person and so times the
 * party), less the promo discount. A percentage is taken of subtotal plus add-ons and
 * rounded half up to the minor unit; a fixed discount never takes the total below zero.
 */
export function priceBooking(input: {
  pricePerPerson: number
  party: number
  addons: { addon: CatalogAddon, quantity: number }[]
  promo: Pick<CatalogPromoCode, 'kind' | 'value'> | null
}): PriceBreakdown {
  const subtotal = input.pricePerPerson * input.party
  const lines = input.addons
    .filter(({ quantity }) => quantity > 0)
    .map(({ addon, quantity }) => ({
      id: addon.id,
      name: addon.name,
      quantity,
      amount: addon.price * quantity * (addon.per === 'person' ? input.party : 1),
    }))
  const addons = lines.reduce((sum, line) => sum + line.amount, 0)
  const gross = subtotal + addons
  const discount = input.promo === null ? 0
    : input.promo.kind === 'percent' ? Math.floor((gross * input.promo.value + 50) / 100)
      : Math.min(gross, input.promo.value)
  return { subtotal, addons, discount, total: gross - discount, lines }
}
