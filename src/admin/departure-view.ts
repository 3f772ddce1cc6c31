import { dueOnArrival } from '../domain/cancellation.ts'
import { csvAmount, csvRecord } from '../domain/csv.ts'
import { formatStoredInZone } from '../domain/instant-format.ts'
import type { DepartureManifest, ManifestEntry } from '../schemas/admin/departure.ts'
import { EXPECTED, isOneOf } from '../schemas/booking-status.ts'
import { departureData, type DepartureRecord } from '../services/departure-record.ts'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { addonLinesOf, unitLinesOf, type BookingRecord } from '../domain/booking.ts'
import { describeUnits, unitsOf } from '../domain/units.ts'
import { languageOfBooking } from '../domain/booking-language.ts'
import { resellerOf, type ResellerNames } from './reseller-view.ts'
import type { BookingChannel } from '../schemas/admin/booking.ts'

type Addon = ManifestEntry['addons'][number]
type UnitTotal = DepartureManifest['totals']['units'][number]

type LanguageTotal = DepartureManifest['totals']['languages'][number]

function manifestEntry(row: BookingRecord, timeZone: string, resellers: ResellerNames, language: string): ManifestEntry {
  return {
    id: row.id,
    code: row.code,
    status: row.status as ManifestEntry['status'],
    name: row.contact_name,
    email: row.contact_email,
    phone: row.contact_phone,
    party: row.party,
    seats: row.seats,
    units: unitLinesOf(row),
    addons: addonLinesOf(row),
    due_on_arrival: dueOnArrival(row),
    checked_in_at: row.checked_in_at === null ? null : formatStoredInZone(row.checked_in_at, timeZone),
    note: row.internal_note,
    channel: row.channel as BookingChannel,
    reseller: resellerOf(row, resellers),
    language,
  }
}

/** Names compared as a person reads them: case and accents aside. */
const names = new Intl.Collator('en', { sensitivity: 'base' })
const byNameThenCode = (a: ManifestEntry, b: ManifestEntry) =>
  names.compare(a.name ?? '', b.name ?? '') || ((a.code ?? a.id) < (b.code ?? b.id) ? -1 : 1)

export function manifestView(departure: DepartureRecord, bookings: readonly BookingRecord[], catalog: InstanceCatalog, resellers: ResellerNames): DepartureManifest {
  const timeZone = catalog.instance.timezone
  const tour = catalog.tourById.get(departure.tourId)?.catalog
  const manifest = bookings.map((row) => manifestEntry(row, timeZone, resellers, languageOfBooking(row, tour, catalog.instance))).sort(byNameThenCode)
  const statuses = {
    requested: { bookings: 0, guests: 0 },
    confirmed: { bookings: 0, guests: 0 },
    completed: { bookings: 0, guests: 0 },
    no_show: { bookings: 0, guests: 0 },
  }
  const addons = new Map<string, Addon>()
  const units = new Map<string, UnitTotal>()
  // The tour's languages first, in its order, so that a guide reads them the same way every departure.
  const languages = new Map<string, LanguageTotal>((tour?.languages ?? []).map((language) => [language, { language, bookings: 0, guests: 0 }]))
  let guests = 0
  let seats = 0
  let due = 0
  for (const entry of manifest) {
    statuses[entry.status].bookings += 1
    statuses[entry.status].guests += entry.party
    if (!isOneOf(EXPECTED, entry.status)) continue
    guests += entry.party
    seats += entry.seats
    due += entry.due_on_arrival
    const language = languages.get(entry.language) ?? { language: entry.language, bookings: 0, guests: 0 }
    language.bookings += 1
    language.guests += entry.party
    languages.set(entry.language, language)
    for (const line of entry.units) {
      const total = units.get(line.id) ?? { id: line.id, type: line.type, name: line.name, quantity: 0, amount: 0 }
      total.quantity += line.quantity
      total.amount += line.amount
      units.set(line.id, total)
    }
    for (const addon of entry.addons) {
      const total = addons.get(addon.id) ?? { id: addon.id, name: addon.name, quantity: 0, amount: 0 }
      total.quantity += addon.quantity
      total.amount += addon.amount
      addons.set(addon.id, total)
    }
  }
  return {
    departure: departureData(departure),
    manifest,
    totals: { currency: catalog.instance.currency, statuses, guests, seats, units: inTourOrder(units, catalog, departure.tourId), addons: [...addons.values()],
      languages: [...languages.values()].filter((total) => total.bookings > 0), due_on_arrival: due },
  }
}

/** Unit totals in the order the tour lists its units now, with their current names; units it no longer lists come after, as booked. */
function inTourOrder(totals: ReadonlyMap<string, UnitTotal>, catalog: InstanceCatalog, tourId: string): UnitTotal[] {
  const tour = catalog.tourById.get(tourId)?.catalog
  const listed = tour === undefined ? [] : unitsOf(tour)
  const known = listed.flatMap((unit) => {
    const total = totals.get(unit.id)
    return total === undefined ? [] : [{ ...total, type: unit.type, name: unit.name }]
  })
  return [...known, ...[...totals.values()].filter((total) => !listed.some((unit) => unit.id === total.id))]
}

// seats and units came last, after the columns a spreadsheet may already read by position; the channel and reseller after them, then the language.
const CSV_HEADER = ['code', 'status', 'name', 'email', 'phone', 'party', 'addons', 'due_on_arrival', 'currency', 'checked_in_at', 'note', 'seats', 'units',
  'channel', 'reseller', 'reseller_reference', 'reseller_net', 'language']

/** What a guide reads where a booking's amount due would be: "paid via <reseller>" for a reseller's booking. */
export const paidVia = (reseller: NonNullable<ManifestEntry['reseller']>) => `paid via ${reseller.name ?? reseller.key_id}`

/** The manifest as RFC 4180 CSV (CRLF line ends, a header row): one row per booking, money in major units beside its currency. */
export function manifestCsv(view: DepartureManifest): string {
  const rows = view.manifest.map((entry) => [
    entry.code,
    entry.status,
    entry.name,
    entry.email,
    entry.phone,
    entry.party,
    entry.addons.map((a) => `${a.quantity} × ${a.name}`).join('; '),
    csvAmount(entry.due_on_arrival, view.totals.currency),
    view.totals.currency,
    entry.checked_in_at,
    entry.note,
    entry.seats,
    describeUnits(entry.units),
    entry.channel,
    entry.reseller?.name ?? null,
    entry.reseller?.reference ?? null,
    entry.reseller && csvAmount(entry.reseller.net, view.totals.currency),
    entry.language,
  ])
  return [CSV_HEADER, ...rows].map(csvRecord).join('')
}

/** A file name for the manifest: tour, local date and time. */
export function manifestFileName(view: DepartureManifest): string {
  return `manifest-${view.departure.tour_id}-${view.departure.date}-${view.departure.time.replace(':', '')}.csv`
}
