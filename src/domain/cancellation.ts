import { Temporal } from 'temporal-polyfill'
import { isOneOf, LIVE_CHECKED_OUT, OWES_ITS_TOTAL } from '../schemas/booking-status.ts'
import type { CatalogPolicy } from '../schemas/catalog.ts'

type TieredPolicy = Pick<CatalogPolicy, 'tiers'>

/** The terms a booking keeps from the policy in force when it was made; later policy versions never change them. */
export type BookingPolicy = Pick<CatalogPolicy, 'id' | 'version' | 'tiers' | 'no_show_fee_percent'>

export function bookingPolicyOf(policy: CatalogPolicy): BookingPolicy {
  return { id: policy.id, version: policy.version, tiers: policy.tiers, no_show_fee_percent: policy.no_show_fee_percent }
}

/** Cancellation is open until the start less the smallest notice any tier names. */
export function cancellableUntil(policy: TieredPolicy, start: Temporal.Instant): Temporal.Instant {
  const smallestNotice = Math.min(...policy.tiers.map((t) => t.hours_before_start))
  return start.subtract({ hours: smallestNotice })
}

/** The fee percent of the tier with the most notice that the cancellation still gives. */
export function cancellationFeePercent(policy: TieredPolicy, start: Temporal.Instant, at: Temporal.Instant): number {
  const hoursNotice = start.since(at, { largestUnit: 'hours' }).total('hours')
  const met = policy.tiers
    .filter((t) => hoursNotice >= t.hours_before_start)
    .sort((a, b) => b.hours_before_start - a.hours_before_start)
  return met.length > 0 ? met[0].fee_percent : 100
}

export function cancellationFee(total: number, feePercent: number): number {
  return Math.floor((total * feePercent + 50) / 100)
}

/**
 * What a booking in `status` owes on arrival: its total while it stands (OWES_ITS_TOTAL), else
 * nothing; a reseller's booking owes nothing at all, since its guest paid the reseller, which
 * owes the operator its net (docs/resellers.md, "On the operator's side").
 */
export function dueOnArrival(booking: { status: string, total: number, reseller_key_id?: string | null }): number {
  // Rows an event kept before migration 026 (src/store/migrations/resellers.ts) have no reseller field.
  return (booking.reseller_key_id ?? null) === null && isOneOf(OWES_ITS_TOTAL, booking.status) ? booking.total : 0
}

/** What a guest's DELETE /booking would do: release or cancel, with the fee owed; or nothing. */
export type GuestCancellation = { allowed: true, feePercent: number, fee: number } | { allowed: false }

/**
 * What a guest's DELETE /booking does to a booking at `at`: a hold is released free of charge;
 * a requested or confirmed one is cancelled while `cancellableUntil` is still ahead: a request
 * free of charge, since nobody has accepted it yet, and a confirmed booking with the fee of the
 * tier its notice falls in; any other booking cannot be.
 */
export function guestCancellation(booking: { status: string, total: number, start: Temporal.Instant, cancellableUntil: Temporal.Instant },
  policy: TieredPolicy, at: Temporal.Instant): GuestCancellation {
  if (booking.status === 'held') return { allowed: true, feePercent: 0, fee: 0 }
  if (!isOneOf(LIVE_CHECKED_OUT, booking.status)) return { allowed: false }
  if (Temporal.Instant.compare(booking.cancellableUntil, at) <= 0) return { allowed: false }
  if (booking.status === 'requested') return { allowed: true, feePercent: 0, fee: 0 }
  const feePercent = cancellationFeePercent(policy, booking.start, at)
  return { allowed: true, feePercent, fee: cancellationFee(booking.total, feePercent) }
}

/**
 * A policy's tiers as moments for one start, earliest first: until each `until`, cancelling
 * costs its `feePercent` (the same rule as cancellationFeePercent); after the last one,
 * cancellableUntil, a booking cannot be cancelled.
 */
export function cancellationSteps(policy: TieredPolicy, start: Temporal.Instant): Array<{ until: Temporal.Instant, feePercent: number }> {
  return [...policy.tiers]
    .sort((a, b) => b.hours_before_start - a.hours_before_start)
    .map((tier) => ({ until: start.subtract({ hours: tier.hours_before_start }), feePercent: tier.fee_percent }))
}
