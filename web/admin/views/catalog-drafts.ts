/** What every catalog form's draft is made of: row keys, numbers as typed, and the problems found before asking the API. */

/** Local keys for the rows of a draft list, so that Preact keeps each row's inputs when one is removed or moved. */
let nextKey = 1
export const rowKey = () => nextKey++

/** A whole number as typed: null when empty; the text itself when it is no number, for the API to name. */
export function integerOf(text: string): number | string | null {
  const trimmed = text.trim()
  if (trimmed === '') return null
  return /^-?\d+$/.test(trimmed) ? Number(trimmed) : trimmed
}

/** A problem the form finds before asking the API: only what cannot be sent at all (an amount that is no amount). */
export interface DraftProblem { field: string, message: string }
