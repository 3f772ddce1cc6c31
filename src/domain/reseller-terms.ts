import { ApiError, type FieldError } from '../errors/api-error.ts'
import type { KeyRole } from './roles.ts'

/** What a reseller key sells, as stored with it (src/store/migrations/resellers.ts). */
export interface ResellerTerms {
  /** The tour ids it may sell; null: every tour, tours added later included. */
  products: string[] | null
  /** Its commission in basis points (20 % = 2000). */
  commissionBasisPoints: number
}

/**
 * The terms a new key is created with: `products` and `commission_percent` belong to a
 * reseller key only; products must be tours of the instance (archived ones too: a tour may
 * come back), commission 0–100 with at most two decimals (kept as basis points). A key of
 * another role has none (null).
 */
export function resellerTermsOf(input: { role: KeyRole, products?: readonly string[], commission_percent?: number },
  tourIds: ReadonlySet<string>): ResellerTerms | null {
  const errors: FieldError[] = []
  if (input.role !== 'reseller') {
    if (input.products !== undefined) errors.push({ field: 'products', message: 'is only for a reseller key' })
    if (input.commission_percent !== undefined) errors.push({ field: 'commission_percent', message: 'is only for a reseller key' })
    if (errors.length > 0) throw new ApiError('validation_failed', 'products and commission_percent are only for role reseller', { errors })
    return null
  }
  const products = input.products === undefined ? null : [...new Set(input.products)]
  products?.forEach((id, index) => {
    if (!tourIds.has(id)) errors.push({ field: `products.${index}`, message: `is not a tour of this instance ("${id}")` })
  })
  const percent = input.commission_percent ?? 0
  const basisPoints = Math.round(percent * 100)
  if (Math.abs(percent * 100 - basisPoints) > 1e-6 || basisPoints < 0 || basisPoints > 10_000) {
    errors.push({ field: 'commission_percent', message: 'must be 0 to 100 with at most two decimals' })
  }
  if (errors.length > 0) throw new ApiError('validation_failed', errors.map((e) => `${e.field} ${e.message}`).join('; '), { errors })
  return { products, commissionBasisPoints: basisPoints }
}

/** Whether a reseller key may sell this tour. */
export const resellerSells = (terms: Pick<ResellerTerms, 'products'>, tourId: string): boolean =>
  terms.products === null || terms.products.includes(tourId)

/**
 * What the operator is owed of a reseller's sale (OCTo's `net`), in minor units: the amount
 * less the commission, rounded half up to a whole minor unit (2500 at 12.5 % is 2187.5 → 2188).
 * Integer arithmetic: amounts are minor units, the commission basis points.
 */
export const netOf = (amount: number, commissionBasisPoints: number): number =>
  Math.floor((amount * (10_000 - commissionBasisPoints) + 5_000) / 10_000)
