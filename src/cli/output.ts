import { Option } from 'commander'
import { csvRecord, type CsvCell } from '../domain/csv.ts'
import type { CliIo } from './io.ts'

/**
 * How a listing command prints its records: an aligned table for a person, RFC 4180 CSV for a
 * spreadsheet, JSON (an array of the operator API's records) for scripts.
 */
export type Format = 'table' | 'csv' | 'json'

/** A column of the table and CSV forms: its header and the cell of a record. */
export interface Column<T> {
  header: string
  cell(record: T): CsvCell
}

/** Table on a terminal, JSON when stdout is piped or redirected, so scripts get a stable form without asking. */
export function formatOption(): Option {
  return new Option('--format <format>', 'table, csv or json (default: table when stdout is a terminal, else json)').choices(['table', 'csv', 'json'])
}

export function chosenFormat(format: string | undefined, io: CliIo): Format {
  return (format as Format | undefined) ?? (io.stdoutIsTerminal ? 'table' : 'json')
}

const tableText = (value: CsvCell) => value === true ? 'yes' : value === false ? 'no' : (value === null ? '' : String(value)).replace(/\s+/g, ' ')

function table<T>(records: T[], columns: Column<T>[]): string {
  const rows = [columns.map((c) => c.header), ...records.map((r) => columns.map((c) => tableText(c.cell(r))))]
  const widths = columns.map((_, i) => Math.max(...rows.map((row) => row[i].length)))
  return rows.map((row) => row.map((cell, i) => i === row.length - 1 ? cell : cell.padEnd(widths[i])).join('  ')).join('\n') + '\n'
}

/**
 * A listing written to stdout as its records arrive, page by page: CSV and JSON stream, a
 * table waits for the last page (its columns are as wide as their widest cell).
 */
export function listing<T>(columns: Column<T>[], format: Format, io: CliIo) {
  const write = (text: string) => io.write(text)
  const tableRows: T[] = []
  let started = false
  return {
    async add(records: T[]): Promise<void> {
      if (format === 'table') {
        tableRows.push(...records)
      } else if (format === 'csv') {
        await write((started ? '' : csvRecord(columns.map((c) => c.header))) + records.map((r) => csvRecord(columns.map((c) => c.cell(r)))).join(''))
        started = true
      } else if (records.length > 0) {
        // The same text as JSON.stringify(all, null, 2), one record at a time.
        await write(records.map((r, i) => `${started || i > 0 ? ',\n' : '[\n'}  ${JSON.stringify(r, null, 2).replaceAll('\n', '\n  ')}`).join(''))
        started = true
      }
    },
    async end(): Promise<void> {
      if (format === 'table') await write(table(tableRows, columns))
      else if (format === 'csv') await write(started ? '' : csvRecord(columns.map((c) => c.header)))
      else await write(started ? '\n]\n' : '[]\n')
    },
  }
}

/** A whole listing at once. */
export async function printListing<T>(records: T[], columns: Column<T>[], format: Format, io: CliIo): Promise<void> {
  const out = listing(columns, format, io)
  await out.add(records)
  await out.end()
}

/** Minor units as a person reads money, e.g. 4500 EUR → €45.00. */
export function money(amount: number, currency: string): string {
  const format = new Intl.NumberFormat('en', { style: 'currency', currency })
  return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2))
}

/** An instant the API gave in the instance's zone (2026-06-02T09:30:00+01:00) as its wall clock, 2026-06-02 09:30. */
export function localWallClock(instant: string): string {
  return `${instant.slice(0, 10)} ${instant.slice(11, 16)}`
}
