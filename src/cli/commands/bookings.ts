import { Command, InvalidArgumentError, Option } from 'commander'
import { operatorBookingView } from '../../admin/booking-view.ts'
import { resellerNamesOf } from '../../admin/reseller-view.ts'
import { BOOKING_STATUSES, type BookingStatus } from '../../schemas/booking-status.ts'
import { ANY_CASE_TAG_PATTERN, LANGUAGE_TAG_MAX_LENGTH } from '../../schemas/language.ts'
import type { OperatorBooking } from '../../schemas/admin/booking.ts'
import type { BookingPosition } from '../../store/operator-bookings.ts'
import { instanceNamed, withContext } from '../context.ts'
import type { CliIo } from '../io.ts'
import { instanceOption, parseDate } from '../options.ts'
import { csvAmount } from '../../domain/csv.ts'
import { describeUnits } from '../../domain/units.ts'
import { chosenFormat, formatOption, listing, localWallClock, type Column, type Format } from '../output.ts'

/** Bookings read per query: the API's largest page. */
const PAGE = 200

/**
 * The columns of every format; a table shows the start as the instance's wall clock
 * (2026-06-02 09:30), CSV keeps the offset, and amounts are major units beside their currency
 * so a spreadsheet sums them.
 */
const columns = (format: Format): Column<OperatorBooking>[] => [
  { header: 'code', cell: (b) => b.code },
  { header: 'status', cell: (b) => b.status },
  { header: 'tour', cell: (b) => b.tour.id },
  { header: 'start', cell: (b) => format === 'table' ? localWallClock(b.start) : b.start },
  { header: 'party', cell: (b) => b.party },
  { header: 'name', cell: (b) => b.contact?.name ?? null },
  { header: 'email', cell: (b) => b.contact?.email ?? null },
  { header: 'phone', cell: (b) => b.contact?.phone ?? null },
  { header: 'total', cell: (b) => csvAmount(b.price.total, b.price.currency) },
  { header: 'currency', cell: (b) => b.price.currency },
  { header: 'channel', cell: (b) => b.channel },
  // Last, after the columns a spreadsheet may already read by position.
  { header: 'seats', cell: (b) => b.seats },
  { header: 'units', cell: (b) => describeUnits(b.units) },
  { header: 'reseller', cell: (b) => b.reseller?.name ?? null },
  { header: 'reseller_net', cell: (b) => b.reseller && csvAmount(b.reseller.net, b.price.currency) },
  { header: 'language', cell: (b) => b.language },
]

function parseStatuses(value: string): BookingStatus[] {
  const statuses = value.split(',')
  const unknown = statuses.filter((s) => !(BOOKING_STATUSES as readonly string[]).includes(s))
  if (unknown.length > 0) throw new InvalidArgumentError(`${unknown.join(', ')}: statuses are ${BOOKING_STATUSES.join(', ')}`)
  return [...new Set(statuses)] as BookingStatus[]
}

/** A language tag as GET /bookings takes it (src/schemas/language.ts). */
function parseLanguage(value: string): string {
  if (new RegExp(ANY_CASE_TAG_PATTERN).test(value) && value.length <= LANGUAGE_TAG_MAX_LENGTH) return value
  throw new InvalidArgumentError('not a language tag (en, pt, pt-BR)')
}

/** `tourdesk bookings list`: GET /bookings's filters, every page, through the operator bookings service (src/services/operator-bookings.ts). */
export function bookingsCommand(io: CliIo): Command {
  const bookings = new Command('bookings').description('bookings of an instance')

  bookings.command('list')
    .description('list bookings by departure, with the filters of GET /bookings; every page (progress on stderr when it is a terminal)')
    .addOption(instanceOption())
    .addOption(new Option('--from <date>', "first departure date (YYYY-MM-DD, the instance's time zone)").argParser(parseDate))
    .addOption(new Option('--to <date>', 'last departure date, inclusive').argParser(parseDate))
    .addOption(new Option('--status <statuses>', 'comma-separated statuses (default: every checked-out one: requested, confirmed, declined, cancelled, completed, no_show)').argParser(parseStatuses))
    .option('--tour <tour>', 'a tour id')
    .option('--q <text>', 'part of the code, name, email or phone, ignoring case and accents')
    .addOption(new Option('--language <tag>', "the bookings guided in this language (pt), one made before bookings kept theirs counting as its tour's first")
      .argParser(parseLanguage))
    .addOption(formatOption())
    .action(async (options: { instance: string, from?: string, to?: string, status?: BookingStatus[], tour?: string, q?: string, language?: string, format?: string }) => {
      await withContext(io, async ({ context }) => {
        const catalog = instanceNamed(context, options.instance)
        const query = { from: options.from, to: options.to, statuses: options.status, tour: options.tour, q: options.q, language: options.language }
        const format = chosenFormat(options.format, io)
        const out = listing(columns(format), format, io)
        const resellers = await resellerNamesOf(context.store, catalog.instance.ref)
        const shown = io.progress()
        let after: BookingPosition | null = null
        let count = 0
        for (;;) {
          const rows = await context.operatorBookings.list(catalog, query, after, PAGE)
          await out.add(rows.map((row) => operatorBookingView(row, catalog, resellers)))
          count += rows.length
          shown.update(`tourdesk: ${count} bookings read`)
          if (rows.length < PAGE) break
          const last = rows[rows.length - 1]
          after = { start_at: last.start_at, id: last.id }
        }
        shown.done()
        await out.end()
      })
    })

  return bookings
}
