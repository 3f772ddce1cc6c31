import { describeUnits, onlyImplicitUnit } from '../../../src/domain/units.ts'
import { useOffice } from '../session.tsx'
import { FieldError, invalid } from './booking-shared.tsx'
import type { BookingDetail, TourInfo } from './booking-types.ts'

/**
 * The back office's booking forms take a count per unit (docs/units.md, "Emails and back
 * office") when the tour has more than one; a tour with one unit (its implicit "person", or a
 * single category) keeps the one "Guests" field, a party of that unit. The server resolves and
 * checks every mix (src/domain/units.ts); the sums here only preview it.
 */
export const countsPerUnit = (tour: TourInfo): boolean => tour.units.length > 1

/** "4 guests (2 Adult, 1 Child, 1 Infant)", or "2 guests" for a booking of only the implicit person unit. */
export const guestsInWords = (booking: Pick<BookingDetail, 'party' | 'units'>): string =>
  `${booking.party} ${booking.party === 1 ? 'guest' : 'guests'}${onlyImplicitUnit(booking.units) ? '' : ` (${describeUnits(booking.units)})`}`

/** The quantity of each unit a form books: its counts, or a party of the first unit. */
export function quantitiesOf(tour: TourInfo, party: number, counts: Record<string, number>): Record<string, number> {
  return countsPerUnit(tour) ? counts : { [tour.units[0].id]: party }
}

/** People, seats and the units' price of a mix, as src/domain/units.ts unitMix sums them. */
export function mixOf(tour: TourInfo, quantities: Record<string, number>): { people: number, seats: number, subtotal: number } {
  return tour.units.reduce((sum, unit) => {
    const quantity = quantities[unit.id] ?? 0
    return { people: sum.people + quantity * unit.pax, seats: sum.seats + quantity * unit.seats, subtotal: sum.subtotal + quantity * unit.price.amount }
  }, { people: 0, seats: 0, subtotal: 0 })
}

/** The counts a form starts with on a tour: a booking's own lines, else `party` of the first unit. */
export function startingCounts(tour: TourInfo, party: number, booking?: BookingDetail): Record<string, number> {
  if (booking) return Object.fromEntries(tour.units.map((unit) => [unit.id, booking.units.find((line) => line.id === unit.id)?.quantity ?? 0]))
  return Object.fromEntries(tour.units.map((unit, i) => [unit.id, i === 0 ? party : 0]))
}

/** "ages 4-12, with an Adult": what a unit's count needs said beside its price. */
function unitHint(tour: TourInfo, unit: TourInfo['units'][number]): string {
  const ages = unit.min_age !== null && unit.max_age !== null ? `ages ${unit.min_age}–${unit.max_age}`
    : unit.min_age !== null ? `ages ${unit.min_age}+` : unit.max_age !== null ? `up to age ${unit.max_age}` : null
  const company = unit.accompanied_by.map((id) => tour.units.find((u) => u.id === id)?.name ?? id)
  return [ages, unit.seats === 0 ? 'no seat' : null, unit.pax > 1 ? `${unit.pax} people` : null,
    company.length > 0 ? `with ${company.join(' or ')}` : null].filter(Boolean).join(', ')
}

/** One labelled count per unit of the tour, each with its price and rules; a refusal shows at `units.<id>`, or at `party`. */
export function UnitFields({ prefix, tour, values, onChange, errors }: {
  prefix: string
  tour: TourInfo
  values: Record<string, number>
  onChange: (values: Record<string, number>) => void
  errors: Record<string, string>
}) {
  const { formats } = useOffice()
  const mix = mixOf(tour, values)
  const partyError = errors.party
  return (
    <fieldset class="unit-fields" data-invalid={partyError ? 'true' : undefined} aria-describedby={`${prefix}-units-hint${partyError ? ` ${prefix}-party-error` : ''}`}>
      <legend>Guests</legend>
      {tour.units.map((unit) => {
        const id = `${prefix}-unit-${unit.id}`
        const text = errors[`units.${unit.id}`]
        const hint = unitHint(tour, unit)
        return (
          <div class="unit-field" key={unit.id}>
            <label for={id}>{unit.name} <span class="hint-inline">{unit.price.amount === 0 ? 'free' : `${formats.price(unit.price.amount)} each`}{hint && `, ${hint}`}</span></label>
            <input id={id} type="number" inputMode="numeric" min={0} max={unit.max_quantity ?? tour.party.max} value={values[unit.id] ?? 0}
              {...invalid(`${id}-error`, text)} onInput={(event) => onChange({ ...values, [unit.id]: Math.max(0, Number(event.currentTarget.value) || 0) })} />
            <FieldError id={`${id}-error`} text={text} />
          </div>
        )
      })}
      <p class="hint-after" id={`${prefix}-units-hint`} aria-live="polite">
        {mix.people} {mix.people === 1 ? 'guest' : 'guests'} on {mix.seats} {mix.seats === 1 ? 'seat' : 'seats'}; {tour.title} takes {tour.party.min} to {tour.party.max} guests.
      </p>
      <FieldError id={`${prefix}-party-error`} text={partyError} />
    </fieldset>
  )
}
