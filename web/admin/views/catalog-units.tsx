import { Choices, SelectField, TextField } from './catalog-fields.tsx'
import type { Money, TourDraft } from './catalog-model.ts'
import { MAX_UNITS, moved, newUnitDraft, UNIT_TYPE_LABELS, UNIT_TYPES, unitIdOf, type UnitDraft } from './catalog-units-model.ts'

/**
 * The tour editor's "Price categories" (units, docs/catalog.md "Units"): add, order, edit and
 * remove them, each field a labelled input the API's errors name (`units.1.accompanied_by`).
 * The tour's price follows the first category's: the catalog rule that they are equal is kept
 * here, so a manager never meets it.
 */
export function UnitsEditor({ draft, onChange, money }: { draft: TourDraft, onChange: (change: (current: TourDraft) => TourDraft) => void, money: Money }) {
  const units = draft.units
  const setUnits = (change: (units: UnitDraft[]) => UnitDraft[]) => onChange((current) => {
    const next = change(current.units)
    // Back to no categories: the tour keeps the price guests paid as its first category's.
    return { ...current, units: next, price: next.length === 0 && current.units.length > 0 ? current.units[0].price : current.price }
  })
  const setUnit = (index: number, change: Partial<UnitDraft>) => setUnits((all) => all.map((unit, i) => (i === index ? { ...unit, ...change } : unit)))
  const focusLater = (selector: string) => requestAnimationFrame(() => document.querySelector<HTMLElement>(selector)?.focus())

  const add = () => {
    // A tour without categories gets its adult first, at the price guests pay today, then the new one.
    const first = units.length === 0
    setUnits((all) => [...(all.length === 0 ? [newUnitDraft(true, draft.price)] : all), newUnitDraft(false, '')])
    const index = first ? 1 : units.length
    focusLater(`#tour-units-${index}-name`)
  }
  const remove = (index: number) => {
    setUnits((all) => all.filter((_, i) => i !== index))
    focusLater('#add-unit')
  }
  const move = (index: number, by: -1 | 1) => {
    setUnits((all) => moved(all, index, by))
    const to = index + by
    // Focus follows the moved unit, on the button pressed; at an end of the list (where that one is disabled), on the other.
    const pressedStillEnabled = by === -1 ? to > 0 : to < units.length - 1
    const button = (by === -1) === pressedStillEnabled ? 'up' : 'down'
    focusLater(`#unit-${to}-${button}`)
  }
  const typeOptions = UNIT_TYPES.map((type) => ({ value: type, label: UNIT_TYPE_LABELS[type] }))

  return (
    <section class="card catalog-section" aria-labelledby="tour-units">
      <h2 id="tour-units">Price categories</h2>
      <p class="hint">
        {units.length === 0
          ? 'None: every guest pays the price per person. Add categories to price adults, children, infants or a family ticket apart.'
          : 'Guests see them in this order. The first is the default (one person on one seat, booked on its own) and its price is the tour\'s price.'}
      </p>
      <ol class="rows">
        {units.map((unit, i) => {
          const others = units.filter((other, j) => j !== i && other.id.trim() !== '')
          return (
            <li class="row unit" key={unit.key}>
              <h3>Category {i + 1}{unit.name && `: ${unit.name}`}</h3>
              <div class="field-pair">
                <TextField path={`units.${i}.name`} label="Name" value={unit.name}
                  onInput={(name) => setUnit(i, { name, ...(unit.id === '' || unit.id === unitIdOf(unit.name) ? { id: unitIdOf(name) } : {}) })} hint="What guests read, e.g. Child" />
                <TextField path={`units.${i}.id`} label="Category id" value={unit.id} onInput={(id) => setUnit(i, { id })}
                  hint="Lowercase letters, digits and hyphens; bookings and resellers name it" />
              </div>
              <div class="field-pair">
                <SelectField path={`units.${i}.type`} label="Kind" value={unit.type} options={typeOptions}
                  onChange={(type) => setUnit(i, { type: type as UnitDraft['type'] })} />
                <TextField path={`units.${i}.price`} label={`Price (${money.currency})`} prefix={money.symbol} inputMode="decimal" value={unit.price}
                  onInput={(price) => setUnit(i, { price })} hint={i === 0 ? 'Also the tour\'s price, the one guests see first' : undefined} />
              </div>
              <TextField path={`units.${i}.description`} label="Description" value={unit.description} onInput={(description) => setUnit(i, { description })}
                hint="Optional, e.g. On an adult's lap, without a seat" />
              <div class="field-pair">
                <TextField path={`units.${i}.seats`} label="Seats each" type="number" inputMode="numeric" value={unit.seats} onInput={(seats) => setUnit(i, { seats })}
                  hint="Empty: 1; 0 for a child on a lap" />
                <TextField path={`units.${i}.pax`} label="People each" type="number" inputMode="numeric" value={unit.pax} onInput={(pax) => setUnit(i, { pax })}
                  hint="Empty: 1; 4 for a family ticket of four" />
              </div>
              <div class="field-pair">
                <TextField path={`units.${i}.min_age`} label="Youngest age" type="number" inputMode="numeric" value={unit.min_age} onInput={(min_age) => setUnit(i, { min_age })} hint="Shown to guests" />
                <TextField path={`units.${i}.max_age`} label="Oldest age" type="number" inputMode="numeric" value={unit.max_age} onInput={(max_age) => setUnit(i, { max_age })} hint="Shown to guests" />
              </div>
              <div class="field-pair">
                <TextField path={`units.${i}.min_quantity`} label="Fewest per booking" type="number" inputMode="numeric" value={unit.min_quantity}
                  onInput={(min_quantity) => setUnit(i, { min_quantity })} hint="When booked at all; empty: 1" />
                <TextField path={`units.${i}.max_quantity`} label="Most per booking" type="number" inputMode="numeric" value={unit.max_quantity}
                  onInput={(max_quantity) => setUnit(i, { max_quantity })} hint="Empty: as many as the party allows" />
              </div>
              <Choices path={`units.${i}.accompanied_by`} legend="Comes with" kind="checkbox" selected={unit.accompanied_by}
                options={others.map((other) => ({ value: other.id.trim(), label: other.name || other.id }))}
                onChange={(accompanied_by) => setUnit(i, { accompanied_by })}
                hint={others.length === 0 ? 'No other category to come with.' : 'At least one of these must be booked too (a child comes with an adult); none: booked on its own'} />
              <div class="unit-actions">
                <button type="button" class="button quiet" id={`unit-${i}-up`} disabled={i === 0} onClick={() => move(i, -1)}>Move category {i + 1} up</button>
                <button type="button" class="button quiet" id={`unit-${i}-down`} disabled={i === units.length - 1} onClick={() => move(i, 1)}>Move category {i + 1} down</button>
                <button type="button" class="button quiet" onClick={() => remove(i)}>Remove category {i + 1}</button>
              </div>
            </li>
          )
        })}
      </ol>
      <button type="button" class="button quiet" id="add-unit" disabled={units.length >= MAX_UNITS} onClick={add}>Add a price category</button>
    </section>
  )
}
