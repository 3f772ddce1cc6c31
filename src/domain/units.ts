import { ApiError } from '../errors/api-error.ts'
import type { CatalogTour } from '../schemas/catalog.ts'
import type { UnitType } from '../schemas/unit-type.ts'

/**
 * Price categories (docs/units.md): seats versus people, the one rule. A booking of a mix of
 * units takes Σ quantity × seats of the departure's capacity (what every seat change, count and
 * manifest total uses) and counts Σ quantity × pax people (what the tour's party bounds,
 * per-person add-ons and the minimum to run use). Every path that books, resizes or moves a
 * booking resolves its mix here: guest holds, staff bookings, PATCH, the availability price.
 */

/** A unit with every default filled in: what the services work with. */
export interface TourUnit {
  id: string
  type: UnitType
  name: string
  description: string
  /** For one of it, minor units. */
  price: number
  seats: number
  pax: number
  min_age: number | null
  max_age: number | null
  min_quantity: number
  /** null: no bound but the party's. */
  max_quantity: number | null
  accompanied_by: string[]
}

/** The id of the one unit of a tour that lists none. */
export const IMPLICIT_UNIT_ID = 'person'

/** A booked unit, as a booking keeps it: name and amount as they were when it was made or last priced. */
export interface UnitLine {
  id: string
  type: UnitType
  name: string
  quantity: number
  /** Unit price times quantity. */
  amount: number
}

/** A resolved mix: its people, its seats and its priced lines (only units booked, in the tour's order). */
export interface UnitMix {
  party: number
  seats: number
  lines: UnitLine[]
}

/** The tour's units, in the order guests see them; a tour without any has its implicit "person" at the tour's price. */
export function unitsOf(tour: Pick<CatalogTour, 'units' | 'price'>): TourUnit[] {
  if (tour.units === undefined) {
    return [{ id: IMPLICIT_UNIT_ID, type: 'adult', name: 'Person', description: '', price: tour.price, seats: 1, pax: 1,
      min_age: null, max_age: null, min_quantity: 1, max_quantity: null, accompanied_by: [] }]
  }
  return tour.units.map((unit) => ({
    id: unit.id, type: unit.type, name: unit.name, description: unit.description ?? '', price: unit.price, seats: unit.seats ?? 1, pax: unit.pax ?? 1,
    min_age: unit.min_age ?? null, max_age: unit.max_age ?? null, min_quantity: unit.min_quantity ?? 1, max_quantity: unit.max_quantity ?? null,
    accompanied_by: unit.accompanied_by ?? [],
  }))
}

const notAllowed = (unit: TourUnit, message: string, detail: string) =>
  new ApiError('unit_not_allowed', detail, { errors: [{ field: `units.${unit.id}`, message }] })

/**
 * The mix a request books: `units` (unit id → quantity) when given, else `party` of the tour's
 * first unit (which counts one person and takes one seat, a catalog rule, so a party-only
 * request books and pays as before units existed). With both, `party` must be the people the
 * units count. Throws 422 invalid_unit, unit_not_allowed or party_mismatch, naming the field.
 * The tour's party bounds are the caller's to check, on the answer's `party`.
 */
export function unitMix(tour: Pick<CatalogTour, 'units' | 'price'>, request: { party?: number, units?: Readonly<Record<string, number>> }): UnitMix {
  const units = unitsOf(tour)
  const quantities = new Map<string, number>()
  if (request.units === undefined) {
    quantities.set(units[0].id, request.party ?? 0)
  } else {
    for (const [id, quantity] of Object.entries(request.units)) {
      if (!units.some((unit) => unit.id === id)) {
        throw new ApiError('invalid_unit', `This tour has no unit "${id}"; it has ${units.map((unit) => unit.id).join(', ')}`,
          { errors: [{ field: `units.${id}`, message: 'is not a unit of this tour' }] })
      }
      quantities.set(id, quantity)
    }
  }
  const booked = units.filter((unit) => (quantities.get(unit.id) ?? 0) > 0)
  for (const unit of booked) {
    const quantity = quantities.get(unit.id)!
    if (quantity < unit.min_quantity) throw notAllowed(unit, `must be 0 or at least ${unit.min_quantity}`, `"${unit.name}" is booked ${unit.min_quantity} or more at a time`)
    if (unit.max_quantity !== null && quantity > unit.max_quantity) {
      throw notAllowed(unit, `must be at most ${unit.max_quantity}`, `At most ${unit.max_quantity} "${unit.name}" can be booked at a time`)
    }
    if (unit.accompanied_by.length > 0 && !unit.accompanied_by.some((id) => (quantities.get(id) ?? 0) > 0)) {
      const names = unit.accompanied_by.map((id) => units.find((u) => u.id === id)?.name ?? id)
      throw notAllowed(unit, `needs at least one of ${unit.accompanied_by.join(', ')}`, `"${unit.name}" must be booked with ${names.join(' or ')}`)
    }
  }
  const party = booked.reduce((sum, unit) => sum + quantities.get(unit.id)! * unit.pax, 0)
  if (request.units !== undefined && request.party !== undefined && request.party !== party) {
    throw new ApiError('party_mismatch', `party is ${request.party} but the units count ${party} ${party === 1 ? 'person' : 'people'}`, {
      errors: [{ field: 'party', message: `must be ${party}, the people the units count (quantity × pax of each)` }],
    })
  }
  return {
    party,
    seats: booked.reduce((sum, unit) => sum + quantities.get(unit.id)! * unit.seats, 0),
    lines: booked.map((unit) => {
      const quantity = quantities.get(unit.id)!
      return { id: unit.id, type: unit.type, name: unit.name, quantity, amount: unit.price * quantity }
    }),
  }
}

/** "2 Adult, 1 Child": a booking's units as the manifest, emails and exports write them. */
export const describeUnits = (lines: readonly Pick<UnitLine, 'quantity' | 'name'>[]): string =>
  lines.map((line) => `${line.quantity} ${line.name}`).join(', ')

/**
 * Whether a booking's lines are only a tour's implicit "person" unit (a tour without units, or
 * a booking made before units existed): emails and the back office then say "Party: 2", since
 * "2 Person" says nothing the number does not.
 */
export const onlyImplicitUnit = (lines: readonly Pick<UnitLine, 'id'>[]): boolean => lines.every((line) => line.id === IMPLICIT_UNIT_ID)
