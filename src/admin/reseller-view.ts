import { RESELLER_ROLE } from '../domain/roles.ts'
import { netOf } from '../domain/reseller-terms.ts'
import type { BookingRecord } from '../domain/booking.ts'
import type { BookingReseller } from '../schemas/admin/booking.ts'
import type { ResellerSales } from '../store/operator-bookings.ts'
import type { Store } from '../store/store.ts'
import { csvAmount, csvRecord } from '../domain/csv.ts'

/** Reseller key ids to their names. A key's name never changes (keys are created and revoked, never renamed). */
export type ResellerNames = ReadonlyMap<string, string>

/** No names: the event feed and webhooks show a booking as stored, without reading the keys. */
export const NO_RESELLER_NAMES: ResellerNames = new Map()

/** The names of the instance's reseller keys, revoked ones included (their bookings stay). */
export async function resellerNamesOf(store: Store, instanceId: string): Promise<ResellerNames> {
  const keys = await store.staff.listKeys(instanceId)
  return new Map(keys.filter((key) => key.role === RESELLER_ROLE).map((key) => [key.id, key.name]))
}

/** The reseller a booking was sold through, with what the operator is owed of it; null for any other booking. */
export function resellerOf(row: BookingRecord, names: ResellerNames): BookingReseller | null {
  // Rows an event kept before migration 026 (src/store/migrations/resellers.ts) have no reseller fields.
  const keyId = row.reseller_key_id ?? null
  if (keyId === null) return null
  const basisPoints = row.reseller_commission_basis_points ?? 0
  return {
    key_id: keyId,
    name: names.get(keyId) ?? null,
    reference: row.reseller_reference,
    notes: row.reseller_notes ?? null,
    commission_percent: basisPoints / 100,
    net: netOf(row.total, basisPoints),
  }
}

/** One reseller's line of the summary, as the CSV and the CLI give it: money in major units beside its currency. */
export interface ResellerSummaryLine {
  reseller_key_id: string
  reseller: string | null
  currency: string
  bookings: number
  guests: number
  retail: string
  commission: string
  net: string
}

/** The summary's lines, with each key's name; the commission is what the reseller keeps (retail less net). */
export function resellerSummaryLines(sales: readonly ResellerSales[], names: ResellerNames): ResellerSummaryLine[] {
  return sales.map((line) => ({
    reseller_key_id: line.reseller_key_id,
    reseller: names.get(line.reseller_key_id) ?? null,
    currency: line.currency,
    bookings: line.bookings,
    guests: line.guests,
    retail: csvAmount(line.retail, line.currency),
    commission: csvAmount(line.retail - line.net, line.currency),
    net: csvAmount(line.net, line.currency),
  }))
}

export const RESELLER_SUMMARY_COLUMNS = ['reseller_key_id', 'reseller', 'currency', 'bookings', 'guests', 'retail', 'commission', 'net'] as const

/** The summary as RFC 4180 CSV with a header row. */
export function resellerSummaryCsv(lines: readonly ResellerSummaryLine[]): string {
  return [RESELLER_SUMMARY_COLUMNS, ...lines.map((line) => RESELLER_SUMMARY_COLUMNS.map((column) => line[column]))].map(csvRecord).join('')
}
