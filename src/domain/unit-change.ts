import { ApiError } from '../errors/api-error.ts'
import type { CatalogTour } from '../schemas/catalog.ts'
import { unitLinesOf, type BookingRecord } from './booking.ts'
import { IMPLICIT_UNIT_ID, unitMix, unitsOf, type UnitMix } from './units.ts'

type UnitsOfTour = Pick<CatalogTour, 'units' | 'price'>

/**
 * Whether a booking is just its party of its tour's first unit (or of the implicit "person" of
 * a tour that listed no units when it was made): then its party alone says its mix, as it did
 * before units existed (src/domain/units.ts).
 */
function isPartyOfFirstUnit(row: Pick<BookingRecord, 'units'>, bookedTour: UnitsOfTour | undefined): boolean {
  const lines = unitLinesOf(row)
  if (lines.length === 0) return true
  if (lines.length > 1) return false
  return lines[0].id === IMPLICIT_UNIT_ID || (bookedTour !== undefined && lines[0].id === unitsOf(bookedTour)[0].id)
}

/**
 * The mix a staff change (PATCH /bookings/{code}, docs/units.md "Operator side") gives a
 * booking on `tour` (where it is, or where it moves), re-priced from the current catalog:
 * - `units` given: that mix (with `party`, they must agree: 422 party_mismatch);
 * - else, a booking that is just its party of the first unit: `party` (or its own) of the
 *   target tour's first unit, as a resize was before units;
 * - else the booking keeps its units; a `party` other than its own would silently turn the
 *   mix into the first unit, so it is 422 units_required naming `units`.
 */
export function changedMix(row: Pick<BookingRecord, 'units' | 'party'>, bookedTour: UnitsOfTour | undefined, tour: UnitsOfTour,
  input: { party?: number, units?: Readonly<Record<string, number>> }): UnitMix {
  if (input.units !== undefined) return unitMix(tour, { party: input.party, units: input.units })
  if (isPartyOfFirstUnit(row, bookedTour)) return unitMix(tour, { party: input.party ?? row.party })
  if (input.party !== undefined && input.party !== row.party) {
    throw new ApiError('units_required', 'This booking has units other than the first: say the new mix in units (party alone would make it that many of the first unit)', {
      errors: [{ field: 'units', message: 'is required to change the party of a booking with several units' }],
    })
  }
  return unitMix(tour, { units: Object.fromEntries(unitLinesOf(row).map((line) => [line.id, line.quantity])) })
}
