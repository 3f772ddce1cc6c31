import { cancellationFee } from '../domain/cancellation.ts'
import { csvAmount, csvRecord } from '../domain/csv.ts'
import { formatStoredInZone } from '../domain/instant-format.ts'
import type { BookingHistoryChange, OperatorBooking, OperatorBookingDetail } from '../schemas/admin/booking.ts'
import { ERASED } from '../domain/erasure.ts'
import { bookingView } from '../api/booking-view.ts'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import type { HistoryEntry } from '../services/booking-history.ts'
import { addonLinesOf, policyOf, unitLinesOf, type BookingRecord } from '../domain/booking.ts'
import { languageOfBooking } from '../domain/booking-language.ts'
import { describeUnits, onlyImplicitUnit, type UnitLine } from '../domain/units.ts'
import { resellerOf, type ResellerNames } from './reseller-view.ts'

/** The operator's record of a booking: the guest's, and what only the operator sees. */
export function operatorBookingView(row: BookingRecord, catalog: InstanceCatalog, resellers: ResellerNames): OperatorBooking {
  const timeZone = catalog.instance.timezone
  const at = (stored: string | null) => stored === null ? null : formatStoredInZone(stored, timeZone)
  const { cancellation: _guestCancellation, ...guest } = bookingView(row, catalog)
  const terms = row.policy === null ? null : JSON.parse(row.policy) as { id: string, version: number }
  const noShowFeePercent = row.status === 'no_show' ? policyOf(row, catalog.instance.cancellation_policy).no_show_fee_percent : null
  return {
    ...guest,
    channel: row.channel as OperatorBooking['channel'],
    reseller: resellerOf(row, resellers),
    quarantined: row.quarantined === 1,
    checked_in_at: at(row.checked_in_at),
    internal_note: row.internal_note,
    policy: terms && { id: terms.id, version: terms.version },
    cancellation: row.cancelled_at === null ? null : {
      at: at(row.cancelled_at)!,
      by: row.cancelled_by ?? 'guest',
      reason: row.cancellation_reason,
      fee_percent: row.cancellation_fee_percent ?? 0,
      fee: row.cancellation_fee ?? 0,
      fee_waived: row.fee_waived === 1,
    },
    decline_reason: row.decline_reason,
    no_show: noShowFeePercent === null ? null : { fee_percent: noShowFeePercent, fee: cancellationFee(row.total, noShowFeePercent) },
    version: row.version,
  }
}

export function bookingDetailView(row: BookingRecord, history: readonly HistoryEntry[], catalog: InstanceCatalog, resellers: ResellerNames): OperatorBookingDetail {
  const timeZone = catalog.instance.timezone
  const erased = row.contact_email === ERASED
  return {
    ...operatorBookingView(row, catalog, resellers),
    history: history.map(({ before, after, ...entry }) => ({ ...entry, at: formatStoredInZone(entry.at, timeZone), changes: historyChanges(before, after, timeZone, erased) })),
  }
}

/** Stored fields the history leaves out: the status is the entry's own, the rest follow from the fields shown. */
const NOT_SHOWN = new Set(['status', 'version', 'end_at', 'cancellable_until', 'subtotal', 'addons_total', 'discount'])
/** Stored fields by the names the booking record gives them. */
const FIELD_NAMES: Record<string, string> = { start_at: 'start', contact_name: 'contact.name', contact_email: 'contact.email', contact_phone: 'contact.phone', cancelled_at: 'cancelled_at' }
const INSTANT_FIELDS = new Set(['start_at', 'checked_in_at', 'cancelled_at'])
const CONTACT_FIELDS = new Set(['contact_name', 'contact_email', 'contact_phone'])

/** An audit entry's fields before and after as the history shows them (an entry that kept no "before", a creation, shows none). */
function historyChanges(before: Record<string, unknown> | null, after: Record<string, unknown> | null, timeZone: string, erased: boolean): BookingHistoryChange[] {
  if (before === null || after === null) return []
  const shown = (field: string, value: unknown): string | number | boolean | null => {
    // The erasure reaches the booking row; the history does not bring back the contact it had.
    if (erased && CONTACT_FIELDS.has(field)) return ERASED
    if (value === null || value === undefined) return null
    if (INSTANT_FIELDS.has(field) && typeof value === 'string') return formatStoredInZone(value, timeZone)
    if (field === 'units' && typeof value === 'string') return describeUnits(JSON.parse(value) as UnitLine[])
    if (field === 'addons' && typeof value === 'string') return (JSON.parse(value) as Array<{ id: string, quantity: number }>).map((a) => `${a.quantity} × ${a.id}`).join('; ')
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : JSON.stringify(value)
  }
  // A booking of the implicit person unit before and after: its seats and units are its party, shown once.
  const followsParty = [before, after].every((side) => typeof side.units !== 'string' || onlyImplicitUnit(JSON.parse(side.units) as UnitLine[]))
  return Object.keys(after).filter((field) => !NOT_SHOWN.has(field) && (before[field] ?? null) !== (after[field] ?? null)
    && !(followsParty && (field === 'seats' || field === 'units')))
    .map((field) => ({ field: FIELD_NAMES[field] ?? field, from: shown(field, before[field]), to: shown(field, after[field]) }))
}

/** The ETag of a booking's current version, as If-Match takes it back. */
export const versionTag = (row: BookingRecord) => `"${row.version}"`

/** The columns of the bookings export, in order; money in major units beside its currency, instants in the instance's zone. */
const CSV_COLUMNS: Array<[string, (row: BookingRecord, catalog: InstanceCatalog, resellers: ResellerNames) => string | number | null]> = [
  ['code', (r) => r.code],
  ['id', (r) => r.id],
  ['status', (r) => r.status],
  ['tour_id', (r) => r.tour_id],
  ['tour_title', (r, c) => c.tourById.get(r.tour_id)?.catalog.title ?? r.tour_id],
  ['start', (r, c) => formatStoredInZone(r.start_at, c.instance.timezone)],
  ['end', (r, c) => formatStoredInZone(r.end_at, c.instance.timezone)],
  ['party', (r) => r.party],
  ['addons', (r) => addonLinesOf(r).map((a) => `${a.id} x${a.quantity}`).join('; ')],
  ['currency', (r) => r.currency],
  ['subtotal', (r) => csvAmount(r.subtotal, r.currency)],
  ['addons_total', (r) => csvAmount(r.addons_total, r.currency)],
  ['discount', (r) => csvAmount(r.discount, r.currency)],
  ['total', (r) => csvAmount(r.total, r.currency)],
  ['promo_code', (r) => r.promo_code],
  ['referral_code', (r) => r.referral_code],
  ['contact_name', (r) => r.contact_name],
  ['contact_email', (r) => r.contact_email],
  ['contact_phone', (r) => r.contact_phone],
  ['channel', (r) => r.channel],
  ['quarantined', (r) => r.quarantined === 1 ? 'true' : 'false'],
  ['checked_in_at', (r, c) => r.checked_in_at && formatStoredInZone(r.checked_in_at, c.instance.timezone)],
  ['internal_note', (r) => r.internal_note],
  ['decline_reason', (r) => r.decline_reason],
  ['cancelled_at', (r, c) => r.cancelled_at && formatStoredInZone(r.cancelled_at, c.instance.timezone)],
  ['cancelled_by', (r) => r.cancelled_by],
  ['cancellation_reason', (r) => r.cancellation_reason],
  ['cancellation_fee_percent', (r) => r.cancellation_fee_percent],
  ['cancellation_fee', (r) => r.cancellation_fee === null ? null : csvAmount(r.cancellation_fee, r.currency)],
  ['fee_waived', (r) => r.fee_waived === null ? null : r.fee_waived === 1 ? 'true' : 'false'],
  ['created_at', (r, c) => formatStoredInZone(r.created_at, c.instance.timezone)],
  ['updated_at', (r, c) => formatStoredInZone(r.updated_at, c.instance.timezone)],
  ['version', (r) => r.version],
  // Last, after the columns a spreadsheet may already read by position.
  ['seats', (r) => r.seats],
  ['units', (r) => describeUnits(unitLinesOf(r))],
  // A reseller's booking (channel octo): who sold it, its reference there, and what the reseller owes of it.
  ['reseller', (r, _c, resellers) => resellerOf(r, resellers)?.name ?? null],
  ['reseller_reference', (r) => r.reseller_reference],
  ['reseller_net', (r, _c, resellers) => {
    const reseller = resellerOf(r, resellers)
    return reseller && csvAmount(reseller.net, r.currency)
  }],
  ['language', (r, c) => languageOfBooking(r, c.tourById.get(r.tour_id)?.catalog, c.instance)],
]

export const BOOKING_CSV_HEADER = csvRecord(CSV_COLUMNS.map(([name]) => name))

/** A booking as one CSV record, CRLF-terminated. */
export function bookingCsvRecord(row: BookingRecord, catalog: InstanceCatalog, resellers: ResellerNames): string {
  return csvRecord(CSV_COLUMNS.map(([, value]) => value(row, catalog, resellers)))
}
