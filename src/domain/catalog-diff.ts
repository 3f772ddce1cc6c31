import type { CatalogInstance, CatalogPolicy, CatalogPromoCode, CatalogTour, CatalogUnit } from '../schemas/catalog.ts'
import { jsonEqual } from './json-equal.ts'
import { IMPLICIT_UNIT_ID } from './units.ts'

export type CatalogTargetType = 'instance' | 'policy' | 'tour' | 'promo_code'

/** One change a new version of an instance's catalog makes, with the fields it changes (before and after). */
export interface CatalogChange {
  action: string
  target: { type: CatalogTargetType, id: string }
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
}

/** Equal as canonicalJson texts, told without writing them (a catalog of thousands of tours is compared field by field). */
const same = jsonEqual

/** The top-level fields of `after` that differ from `before` (absent counts as a value), each side holding only those. */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): { before: Record<string, unknown>, after: Record<string, unknown> } | null {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((name) => !same(before[name] ?? null, after[name] ?? null))
  if (names.length === 0) return null
  return {
    before: Object.fromEntries(names.map((name) => [name, before[name] ?? null])),
    after: Object.fromEntries(names.map((name) => [name, after[name] ?? null])),
  }
}

type InstanceFields = Omit<CatalogInstance, 'tours' | 'promo_codes' | 'cancellation_policy'>

function instanceFields(instance: CatalogInstance): InstanceFields {
  const { tours: _t, promo_codes: _p, cancellation_policy: _c, ...fields } = instance
  return fields
}

/** A policy's terms without its version: two versions with the same terms are one policy. */
export function samePolicyTerms(a: CatalogPolicy, b: CatalogPolicy): boolean {
  const { version: _a, ...termsA } = a
  const { version: _b, ...termsB } = b
  return same(termsA, termsB)
}

function tourChange(before: CatalogTour & { position: number }, after: CatalogTour & { position: number }): CatalogChange | null {
  const fields = changedFields(before, after)
  if (!fields) return null
  const archiving = 'archived' in fields.after && Object.keys(fields.after).length === 1
  const action = archiving ? (after.archived ? 'tour.archived' : 'tour.unarchived') : 'tour.updated'
  return { action, target: { type: 'tour', id: after.id }, ...fields }
}

/** Where each tour of a part of an instance (CatalogPart) stands in the whole list, before and after the edit. */
export interface TourPositions {
  before: ReadonlyMap<string, number>
  after: ReadonlyMap<string, number>
}

/**
 * What turns `before` (null for a new instance) into `after`, both in the catalog file's
 * format: one change per instance setting group, policy, tour and promo code. Tours missing
 * from `after` are deleted (the caller has already kept, archived, those with bookings). A
 * tour's position is its index in `tours`, unless `positions` says where it stands (when the
 * instances carry only the tours an edit concerns).
 */
export function diffCatalog(before: CatalogInstance | null, after: CatalogInstance, positions?: TourPositions): CatalogChange[] {
  const changes: CatalogChange[] = []
  const instanceTarget = { type: 'instance' as const, id: after.ref }
  if (!before) {
    changes.push({ action: 'instance.created', target: instanceTarget, before: null, after: instanceFields(after) })
  } else {
    const fields = changedFields(instanceFields(before), instanceFields(after))
    if (fields) changes.push({ action: 'settings.updated', target: instanceTarget, ...fields })
  }
  if (!before || !same(before.cancellation_policy, after.cancellation_policy)) {
    changes.push({ action: 'policy.published', target: { type: 'policy', id: after.cancellation_policy.id }, before: before?.cancellation_policy ?? null, after: after.cancellation_policy })
  }
  const toursBefore = new Map((before?.tours ?? []).map((tour, index) => [tour.id, { ...tour, position: positions?.before.get(tour.id) ?? index }]))
  after.tours.forEach((tour, index) => {
    const position = positions?.after.get(tour.id) ?? index
    const old = toursBefore.get(tour.id)
    toursBefore.delete(tour.id)
    if (!old) changes.push({ action: 'tour.created', target: { type: 'tour', id: tour.id }, before: null, after: { ...tour, position } })
    else {
      const change = tourChange(old, { ...tour, position })
      if (change) changes.push(change)
    }
  })
  for (const [id, { position: _, ...tour }] of toursBefore) changes.push({ action: 'tour.deleted', target: { type: 'tour', id }, before: tour, after: null })
  const promosBefore = new Map((before?.promo_codes ?? []).map((promo, position) => [promo.code, { ...promo, position }]))
  after.promo_codes.forEach((promo: CatalogPromoCode, position) => {
    const old = promosBefore.get(promo.code)
    promosBefore.delete(promo.code)
    const target = { type: 'promo_code' as const, id: promo.code }
    if (!old) changes.push({ action: 'promo_code.created', target, before: null, after: { ...promo, position } })
    else {
      const fields = changedFields(old, { ...promo, position })
      if (fields) changes.push({ action: 'promo_code.updated', target, ...fields })
    }
  })
  for (const [code, { position: _, ...promo }] of promosBefore) changes.push({ action: 'promo_code.deleted', target: { type: 'promo_code', id: code }, before: promo, after: null })
  return changes
}

/**
 * What changed in a tour's units, unit by unit (docs/units.md): "child added", "infant removed",
 * "adult: price, max_quantity", "order: child, adult". A tour without units has only its implicit
 * "person", so gaining units removes it and losing them all brings it back.
 */
export function unitChanges(before: readonly CatalogUnit[] | null, after: readonly CatalogUnit[] | null): string[] {
  if (before === null && after === null) return []
  const implicit = `${IMPLICIT_UNIT_ID} (implicit, at the tour's price)`
  if (before === null) return [`${implicit} removed`, ...after!.map((unit) => `${unit.id} added`)]
  if (after === null) return [...before.map((unit) => `${unit.id} removed`), `${implicit} added`]
  const old = new Map(before.map((unit) => [unit.id, unit]))
  const kept = new Set(after.map((unit) => unit.id))
  const lines = before.filter((unit) => !kept.has(unit.id)).map((unit) => `${unit.id} removed`)
  for (const unit of after) {
    const was = old.get(unit.id)
    if (!was) lines.push(`${unit.id} added`)
    else {
      const fields = changedFields(was, unit)
      if (fields) lines.push(`${unit.id}: ${Object.keys(fields.after).join(', ')}`)
    }
  }
  const orderBefore = before.map((unit) => unit.id).filter((id) => kept.has(id))
  const orderAfter = after.map((unit) => unit.id).filter((id) => old.has(id))
  if (!same(orderBefore, orderAfter)) lines.push(`order: ${after.map((unit) => unit.id).join(', ')}`)
  return lines
}

/** A change as an edit's answer lists it: the fields it changes and, for a tour's units, what changed in them. */
export function changeSummary({ action, target, before, after }: CatalogChange) {
  const fields = Object.keys(after ?? before ?? {})
  const units = action === 'tour.updated' && fields.includes('units')
    ? { unit_changes: unitChanges(before!.units as CatalogUnit[] | null, after!.units as CatalogUnit[] | null) }
    : {}
  return { action, target, fields, ...units }
}
