import type { CatalogUnit } from '../../../src/schemas/catalog.ts'
import { MAX_UNITS, UNIT_TYPES } from '../../../src/schemas/unit-type-list.ts'
import { integerOf, rowKey, type DraftProblem } from './catalog-drafts.ts'
import type { Money } from './catalog-model.ts'

/**
 * A tour's price categories (units, docs/catalog.md "Units") as the catalog editor holds
 * them: every value as typed, and the conversions to and from the catalog file's format. An
 * optional field left empty is left out, so a tour read back through the form is the tour as
 * loaded, and only what the manager changed is sent.
 */

export { MAX_UNITS, UNIT_TYPES }
export type UnitTypeName = typeof UNIT_TYPES[number]

export interface UnitDraft {
  key: number
  id: string
  type: UnitTypeName
  name: string
  description: string
  price: string
  seats: string
  pax: string
  min_age: string
  max_age: string
  min_quantity: string
  max_quantity: string
  accompanied_by: string[]
}

const text = (value: number | undefined) => (value === undefined ? '' : String(value))

export function unitDraft(unit: CatalogUnit, money: Money): UnitDraft {
  return {
    key: rowKey(), id: unit.id, type: unit.type, name: unit.name, description: unit.description ?? '', price: money.text(unit.price),
    seats: text(unit.seats), pax: text(unit.pax), min_age: text(unit.min_age), max_age: text(unit.max_age),
    min_quantity: text(unit.min_quantity), max_quantity: text(unit.max_quantity), accompanied_by: [...unit.accompanied_by ?? []],
  }
}

/** A new, empty unit; the first a tour gets is its adult, at the price guests pay today. */
export function newUnitDraft(first: boolean, price: string): UnitDraft {
  return {
    key: rowKey(), id: first ? 'adult' : '', type: first ? 'adult' : 'child', name: first ? 'Adult' : '', description: '', price: first ? price : '',
    seats: '', pax: '', min_age: '', max_age: '', min_quantity: '', max_quantity: '', accompanied_by: [],
  }
}

/** A unit id from its name, as a manager would write it: "Child (4–12)" → "child-4-12". */
export const unitIdOf = (name: string) =>
  name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40)

/**
 * The units a draft describes, in the API's format (null: none, the tour's implicit "person"),
 * and the amounts that could not be read. Everything else is sent as typed, for the API to check.
 */
export function unitsOf(drafts: readonly UnitDraft[], money: Money): { units: Record<string, unknown>[] | null, problems: DraftProblem[] } {
  const problems: DraftProblem[] = []
  if (drafts.length === 0) return { units: null, problems }
  const units = drafts.map((draft, i) => {
    const price = money.parse(draft.price)
    if (price === null) problems.push({ field: `units.${i}.price`, message: `Write an amount in ${money.currency}, such as ${money.text(Math.round(19.5 * 10 ** money.digits))}.` })
    const unit: Record<string, unknown> = { id: draft.id.trim(), type: draft.type, name: draft.name.trim() }
    if (draft.description.trim()) unit.description = draft.description.trim()
    unit.price = price
    for (const field of ['seats', 'pax', 'min_age', 'max_age', 'min_quantity', 'max_quantity'] as const) {
      const value = integerOf(draft[field])
      if (value !== null) unit[field] = value
    }
    if (draft.accompanied_by.length > 0) unit.accompanied_by = draft.accompanied_by
    return unit
  })
  return { units, problems }
}

/** The draft with unit `index` moved one place up (-1) or down (+1). */
export function moved(drafts: readonly UnitDraft[], index: number, by: -1 | 1): UnitDraft[] {
  const next = drafts.slice()
  const [unit] = next.splice(index, 1)
  next.splice(index + by, 0, unit)
  return next
}

/** Words for a unit type, as the type select shows them. */
export const UNIT_TYPE_LABELS: Record<UnitTypeName, string> = {
  adult: 'Adult', youth: 'Youth', child: 'Child', infant: 'Infant', senior: 'Senior', student: 'Student', military: 'Military', family: 'Family', other: 'Other',
}
