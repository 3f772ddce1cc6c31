import type { CatalogTour } from '../schemas/catalog.ts'
import { statement, type Plan } from './write-plan.ts'

/** The rows of the catalog tables read back as the catalog file writes them, for src/store/catalog.ts. */

const parse = <T>(text: string): T => JSON.parse(text) as T

/** One tour in the catalog file's format, from its row and its schedule rules' and add-ons' rows. */
export function tourOf(t: any, rules: readonly any[], addons: readonly any[]): CatalogTour {
  return {
    id: t.id,
    title: t.title,
    summary: t.summary,
    description: t.description,
    duration_minutes: Number(t.duration_minutes),
    meeting_point: parse(t.meeting_point),
    languages: parse(t.languages),
    tags: parse(t.tags),
    price: Number(t.price),
    ...(t.units === null || t.units === undefined ? {} : { units: parse(t.units) }),
    party: { min: Number(t.party_min), max: Number(t.party_max) },
    capacity: Number(t.capacity),
    cutoff_minutes: Number(t.cutoff_minutes),
    confirmation: t.confirmation,
    addons: addons.map((a) => ({
      id: a.id, name: a.name, description: a.description, price: Number(a.price), per: a.per, max_quantity: Number(a.max_quantity),
    })),
    schedule: rules.map((r) => ({ from: r.valid_from, until: r.valid_until, weekdays: parse(r.weekdays), times: parse(r.times) })),
    blackouts: parse(t.blackouts),
    ...(t.min_participants === null ? {} : { min_participants: Number(t.min_participants) }),
    ...(t.min_participants_deadline_hours === null ? {} : { min_participants_deadline_hours: Number(t.min_participants_deadline_hours) }),
    ...(Number(t.archived) === 1 ? { archived: true } : {}),
    ...(t.translations === null || t.translations === undefined ? {} : { translations: parse(t.translations) }),
  }
}

/** One statement for all of `rows` (none for no rows). */
export function* insertRows(table: string, columns: readonly string[], rows: readonly unknown[][]): Plan<void> {
  if (rows.length === 0) return
  const values = rows.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ')
  yield* statement(`insert into ${table} (${columns.join(', ')}) values ${values}`, rows.flat())
}

export function groupByTour<R extends { tour_id: string }>(rows: R[]): Map<string, R[]> {
  const groups = new Map<string, R[]>()
  for (const row of rows) {
    const group = groups.get(row.tour_id)
    if (group) group.push(row)
    else groups.set(row.tour_id, [row])
  }
  return groups
}

