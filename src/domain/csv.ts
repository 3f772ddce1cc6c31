/** A cell of a CSV record: text, a number, yes or no, or nothing (an empty field). */
export type CsvCell = string | number | boolean | null

/** What a spreadsheet runs as a formula when a cell starts with it (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/
/** A number, signed or not (an amount, an E.164 phone): it starts like a formula but cannot hold one. */
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/

/**
 * One RFC 4180 field, the only CSV writer (exports, manifests, the CLI's listings): text a
 * spreadsheet would run as a formula gets a leading apostrophe, since names and notes come
 * from guests; a field holding a comma, quote or line break is quoted, quotes doubled.
 */
export function csvField(value: CsvCell): string {
  if (value === null) return ''
  let text = String(value)
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** One CSV record, CRLF-terminated. */
export function csvRecord(cells: readonly CsvCell[]): string {
  return `${cells.map(csvField).join(',')}\r\n`
}

/**
 * Minor units as a CSV cell in major units, with as many decimals as the currency has
 * (4550 EUR → 45.50, 1200 JPY → 1200): a number a spreadsheet sums, beside a currency column.
 */
export function csvAmount(minor: number, currency: string): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
  return (minor / 10 ** digits).toFixed(digits)
}
