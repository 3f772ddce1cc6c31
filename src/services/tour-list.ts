import { ApiError } from '../errors/api-error.ts'
import { TOUR_PAGE_DEFAULT, type Tour, type TourList } from '../schemas/tour.ts'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { searchToursIn, toursIn } from '../catalog/translated-catalog.ts'

export interface TourListQuery {
  /** Trimmed search words; null lists the whole catalog. */
  q: string | null
  limit?: number
  cursor?: string
}

/**
 * Where a page ended: the list's q, and the id and position of its last tour. base64url
 * JSON, opaque to callers.
 */
type CursorKey = [q: string, lastId: string, lastPosition: number]

function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url')
}

function invalidCursor(message: string): ApiError {
  return new ApiError('validation_failed', `cursor ${message}`, { errors: [{ field: 'cursor', message }] })
}

function decodeCursor(cursor: string, q: string | null): CursorKey {
  let key: unknown
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    key = null
  }
  if (!Array.isArray(key) || key.length !== 3 || typeof key[0] !== 'string' || typeof key[1] !== 'string'
    || !Number.isSafeInteger(key[2]) || key[2] < 0) {
    throw invalidCursor('must be a next_cursor this list gave')
  }
  if (key[0] !== (q ?? '')) throw invalidCursor('was given with another q: pass the q of the page it came from')
  return key as CursorKey
}

/**
 * Where the page after the cursor starts: after the tour the last page ended with, wherever
 * the catalog has moved it since (so a tour is neither skipped nor repeated because another
 * was added or archived before it); if that tour has left the list, at the position it had,
 * where the tour after it has moved up to.
 */
function pageStart(tours: readonly Tour[], [, lastId, lastPosition]: CursorKey): number {
  if (tours[lastPosition]?.id === lastId) return lastPosition + 1
  const moved = tours.findIndex((tour) => tour.id === lastId)
  return moved === -1 ? Math.min(lastPosition, tours.length) : moved + 1
}

/**
 * GET /tours: the catalog's tours in list order, or those matching q by relevance, in the
 * reader's language (src/catalog/translated-catalog.ts); the whole
 * list without limit and cursor (the contract's answer), else one page with next_cursor.
 */
export function tourList(catalog: InstanceCatalog, query: TourListQuery, language: string): TourList {
  const { q } = query
  const listed = toursIn(catalog, language)
  const tours = q === null ? listed : searchToursIn(catalog, q, language).map((position) => listed[position])
  if (query.limit === undefined && query.cursor === undefined) return { tours, total: tours.length, q }
  const start = query.cursor === undefined ? 0 : pageStart(tours, decodeCursor(query.cursor, q))
  const end = start + (query.limit ?? TOUR_PAGE_DEFAULT)
  const page = tours.slice(start, end)
  const nextCursor = end < tours.length ? encodeCursor([q ?? '', page[page.length - 1].id, end - 1]) : null
  return { tours: page, total: tours.length, q, next_cursor: nextCursor }
}
