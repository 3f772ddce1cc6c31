import { ApiError } from '../errors/api-error.ts'
import type { CatalogInstance, CatalogPolicy, CatalogPromoCode, CatalogTour } from '../schemas/catalog.ts'
import type { CatalogEdit } from '../catalog/catalog-editor.ts'

/**
 * The edits the operator API's catalog routes make: each turns a request body into a
 * function from the instance as it stands (read in the edit's transaction) to the instance
 * as it should be, which the catalog editor checks and applies. A request naming something
 * the instance lacks (or already has) is refused here, with the instance as it stands.
 */

type Fields = Record<string, unknown>

/** JSON merge patch (RFC 7396) one level deep: given fields replace, null removes. */
function mergeTopLevel<T extends object>(target: T, patch: Fields): T {
  const merged = { ...target } as Fields
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete merged[name]
    else merged[name] = value
  }
  return merged as T
}

const tourNotFound = (id: string) => new ApiError('tour_not_found', `There is no tour "${id}"; GET /tours lists them`)
const promoNotFound = (code: string) => new ApiError('not_found', `There is no promo code "${code}"; GET /promo-codes lists them`)

/** Where the tour `id` is in the instance's list; 404 when it has none. */
function positionOf(instance: CatalogInstance, id: string): number {
  const position = instance.tours.findIndex((tour) => tour.id === id)
  if (position < 0) throw tourNotFound(id)
  return position
}

/** The errors of a tour edit name fields of the tour (`party.max`), wherever it sits in the instance. */
export const relativeToTour = (id: string) => (after: CatalogInstance) => {
  const position = after.tours?.findIndex?.((tour) => tour?.id === id) ?? -1
  return position < 0 ? undefined : `tours[${position}]`
}

export const relativeToPromoCode = (code: string) => (after: CatalogInstance) => {
  const position = after.promo_codes?.findIndex?.((promo) => promo?.code === code) ?? -1
  return position < 0 ? undefined : `promo_codes[${position}]`
}

/** PUT /catalog: the whole instance; its prefix and ref stay (they are its addresses). */
export function replaceCatalog(body: CatalogInstance): CatalogEdit {
  return (current) => {
    if (body.prefix !== current!.prefix) {
      throw new ApiError('catalog_invalid', 'The operator API does not move an instance to another prefix', {
        errors: [{ field: 'prefix', message: `must stay "${current!.prefix}" (a new prefix is applied with tourdesk catalog import)` }],
      })
    }
    return body
  }
}

/** POST /tours: a new tour at the end of the list; 409 tour_exists when the id is taken (an archived tour's too). */
export function addTour(tour: CatalogTour): CatalogEdit {
  return (current) => {
    const existing = current!.tours.find((t) => t.id === tour.id)
    if (existing) {
      throw new ApiError('tour_exists', existing.archived
        ? `Tour "${tour.id}" exists, archived: unarchive it, or choose another id`
        : `Tour "${tour.id}" exists: PUT or PATCH /tours/${tour.id} changes it`)
    }
    return { ...current!, tours: [...current!.tours, tour] }
  }
}

/** Sets the tour at its place; `archived` left out keeps the tour's (the archive actions are the way to change it). */
function putTour(current: CatalogInstance, id: string, tour: CatalogTour): CatalogInstance {
  const position = positionOf(current, id)
  const old = current.tours[position]
  if (tour.id !== id) {
    throw new ApiError('catalog_invalid', 'A tour keeps its id: bookings name it', { errors: [{ field: 'id', message: `must be "${id}", the id in the path` }] })
  }
  const archived = tour.archived ?? old.archived
  const { archived: _given, ...fields } = tour
  const tours = current.tours.slice()
  tours[position] = archived ? { ...fields, archived } : fields
  return { ...current, tours }
}

/** PUT /tours/{id}: the whole tour. */
export function replaceTour(id: string, body: Omit<CatalogTour, 'id'> & { id?: string }): CatalogEdit {
  return (current) => putTour(current!, id, { ...body, id: body.id ?? id })
}

/** PATCH /tours/{id}: the given top-level fields replace the tour's. */
export function patchTour(id: string, body: Fields): CatalogEdit {
  return (current) => {
    const old = current!.tours[positionOf(current!, id)]
    return putTour(current!, id, mergeTopLevel(old, { ...body, id: body.id ?? id }))
  }
}

/** POST /tours/{id}/archive and /unarchive. */
export function setArchived(id: string, archived: boolean): CatalogEdit {
  return (current) => {
    const { archived: _was, ...tour } = current!.tours[positionOf(current!, id)]
    return putTour(current!, id, { ...tour, archived })
  }
}

/** POST /promo-codes: a new code at the end of the list; 409 promo_code_exists when taken. */
export function addPromoCode(promo: CatalogPromoCode): CatalogEdit {
  return (current) => {
    if (current!.promo_codes.some((p) => p.code === promo.code)) {
      throw new ApiError('promo_code_exists', `Promo code "${promo.code}" exists: PATCH /promo-codes/${promo.code} changes it`)
    }
    return { ...current!, promo_codes: [...current!.promo_codes, promo] }
  }
}

/** PATCH /promo-codes/{code}: merge patch of the code's fields (the code itself stays). */
export function patchPromoCode(code: string, body: Fields): CatalogEdit {
  return (current) => {
    const position = current!.promo_codes.findIndex((p) => p.code === code)
    if (position < 0) throw promoNotFound(code)
    const promo_codes = current!.promo_codes.slice()
    promo_codes[position] = mergeTopLevel(promo_codes[position], body)
    return { ...current!, promo_codes }
  }
}

/** PUT /policy: new terms under the policy's id (translations left out are gone, as any term is); the editor gives them the next version. */
export function replacePolicyTerms(terms: Omit<CatalogPolicy, 'id' | 'version'>): CatalogEdit {
  return (current) => {
    const { id, version } = current!.cancellation_policy
    return { ...current!, cancellation_policy: { id, version, ...terms } }
  }
}

/** PATCH /settings: merge patch of the instance's own fields; null unsets an optional one. */
export function patchSettings(body: Fields): CatalogEdit {
  return (current) => mergeTopLevel(current!, body)
}
