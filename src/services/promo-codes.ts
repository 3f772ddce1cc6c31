import { Temporal } from 'temporal-polyfill'
import { todayIn } from '../domain/instant-format.ts'
import { ApiError } from '../errors/api-error.ts'
import type { CatalogPromoCode } from '../schemas/catalog.ts'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'

/**
 * The promo code as the catalog defines it, if it may be used for this tour today (in the
 * operator's zone) and still has uses left; 422 invalid_promo_code otherwise.
 */
export function requireUsablePromo(catalog: InstanceCatalog, code: string, tourId: string, now: Temporal.Instant, usesSoFar: number): CatalogPromoCode {
  const promo = catalog.instance.promo_codes.find((p) => p.code === code.trim().toUpperCase())
  const today = todayIn(now, catalog.instance.timezone).toString()
  const invalid = (why: string) => new ApiError('invalid_promo_code', why, { errors: [{ field: 'promo_code', message: why }] })
  if (!promo) throw invalid('This promo code does not exist')
  if (today < promo.valid_from || today > promo.valid_until) throw invalid(`This promo code is valid from ${promo.valid_from} to ${promo.valid_until}`)
  if (promo.tour_ids && !promo.tour_ids.includes(tourId)) throw invalid('This promo code does not apply to this tour')
  if (promo.max_uses !== undefined && usesSoFar >= promo.max_uses) throw invalid('This promo code has been used up')
  return promo
}
