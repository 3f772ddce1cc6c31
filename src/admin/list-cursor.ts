import { ApiError } from '../errors/api-error.ts'

/**
 * A list's cursor is the sort key of the last item on the page, as base64url JSON: opaque to
 * callers, and enough for the next page's query to continue after it, whatever was added since.
 */
export type SortKey = string[]

export function encodeCursor(key: SortKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url')
}

/** The sort key a cursor holds; 400 validation_failed for anything a list did not give. */
export function decodeCursor(cursor: string, length: number): SortKey {
  let key: unknown
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    key = null
  }
  if (!Array.isArray(key) || key.length !== length || !key.every((part) => typeof part === 'string')) {
    throw new ApiError('validation_failed', 'cursor is not one this list gave', { errors: [{ field: 'cursor', message: 'must be a next_cursor this list gave' }] })
  }
  return key
}

const after = (a: SortKey, b: SortKey) => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] > b[i]
  return false
}

/**
 * One page of a short list read whole (staff accounts, API keys: tens of rows per instance),
 * sorted ascending by `keyOf` (created_at, id).
 */
export function pageOf<T>(rows: T[], keyOf: (row: T) => [string, string], query: { limit?: number, cursor?: string }) {
  const limit = query.limit ?? 50
  const start = query.cursor === undefined ? null : decodeCursor(query.cursor, 2)
  const rest = start === null ? rows : rows.filter((row) => after(keyOf(row), start))
  const items = rest.slice(0, limit)
  return { items, nextCursor: rest.length > limit ? encodeCursor(keyOf(items[items.length - 1])) : null }
}
