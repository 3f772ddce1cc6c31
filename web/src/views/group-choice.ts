import { ApiError } from '../../../src/errors/api-error.ts'
import type { Booking } from '../../../src/schemas/booking.ts'
import type { Tour } from '../../../src/schemas/tour.ts'
import { unitMix, type UnitMix } from '../../../src/domain/units.ts'
import { ApiProblem, type FieldProblem } from '../api.ts'
import type { Message } from '../dom.ts'
import type { Place } from '../problems.ts'

/** Who comes, as the hold form sends it: the people, and for a tour with units the count of each. */
export interface GroupChoice extends UnitMix {
  /** Unit id to count, for a tour with several units; absent when only party is sent. */
  units?: Record<string, number>
}

export interface GroupEvents {
  /** A count changed (maybe half typed): the total and the add-ons' bounds follow it. */
  changed(): void
  /** A count was committed and the group is valid: availability must be read again for it. */
  settled(): void
}

/** How the hold form asks who comes: one party count (PartyField) or a count per unit (UnitCounts). */
export interface GroupField {
  readonly element: HTMLElement
  /** Where each message of the group is shown, by the place problems.ts gives it. */
  messages(): [Place, Message][]
  /** The group as it stands, or null while it cannot be booked; shows nothing. */
  current(): GroupChoice | null
  /** Like current, but says next to the field what is wrong. */
  read(): GroupChoice | null
  /** The field to focus when the group is wrong. */
  focusTarget(): HTMLElement
  /** Puts a booking's group back (a reload during a hold). */
  restore(booking: Booking): void
}

/**
 * The mix a request books, by the one rule the API applies (src/domain/units.ts), or the
 * refusal the API would answer: the page says it before the guest sends anything.
 */
export function mixOf(tour: Tour, request: { party?: number, units?: Record<string, number> }): UnitMix | ApiProblem {
  const units = tour.units.map((unit) => ({
    ...unit, price: unit.price.amount, min_age: unit.min_age ?? undefined, max_age: unit.max_age ?? undefined, max_quantity: unit.max_quantity ?? undefined,
  }))
  try {
    return unitMix({ price: tour.price.amount, units }, request)
  } catch (err) {
    if (!(err instanceof ApiError)) throw err
    return new ApiProblem(err.code, err.status, (err.extra.errors ?? []) as FieldProblem[])
  }
}

/** The tour's party bounds, counted in people, as the refusal the API would answer. */
export function partyProblem(tour: Tour, party: number): ApiProblem | null {
  const { min, max } = tour.party
  return party < min || party > max ? new ApiProblem('party_out_of_range', 422, [{ field: 'party', message: `must be ${min} to ${max}` }], { min, max }) : null
}
