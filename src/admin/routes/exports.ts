import { Readable } from 'node:stream'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { BookingFilterQuery, ResellerSummaryQuery } from '../../schemas/admin/booking.ts'
import type { InstanceCatalog } from '../../catalog/instance-catalog.ts'
import type { BookingQuery } from '../../services/operator-bookings.ts'
import { BOOKING_CSV_HEADER, bookingCsvRecord } from '../booking-view.ts'
import { bookingQueryOf } from './bookings.ts'
import { resellerNamesOf, resellerSummaryCsv, resellerSummaryLines, type ResellerNames } from '../reseller-view.ts'
import type { BookingRecord } from '../../domain/booking.ts'

/**
 * Bookings read per query. Memory stays flat however many the export holds; pages of 1,000
 * rows lived long enough to reach V8's old generation and grew the process by about 100 MB
 * over 100,000 bookings, pages of 250 by a tenth of that on SQLite.
 */
const EXPORT_PAGE = 250

export const exportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.tourdesk.operatorBookings

  /** The CSV, one page of bookings at a time, read only as fast as the client takes it. */
  async function* csvOf(catalog: InstanceCatalog, query: BookingQuery, first: BookingRecord[], resellers: ResellerNames): AsyncGenerator<string> {
    yield BOOKING_CSV_HEADER
    let page = first
    while (page.length > 0) {
      yield page.map((row) => bookingCsvRecord(row, catalog, resellers)).join('')
      if (page.length < EXPORT_PAGE) return
      const last = page[page.length - 1]
      page = await service.list(catalog, query, { start_at: last.start_at, id: last.id }, EXPORT_PAGE)
    }
  }

  app.get('/exports/bookings.csv', {
    schema: { querystring: BookingFilterQuery },
    config: {
      access: 'bookings.read',
      csv: 'only',
      summary: 'Every booking the list would give for these filters, as CSV',
      description: 'RFC 4180 CSV (text/csv; charset=utf-8, CRLF line ends) with a header row, every page of GET /bookings with the '
        + 'same filters, in the same order, streamed as it is read. Money in major units (45.50) beside a currency column, so a spreadsheet sums it; instants in the instance\'s zone, add-ons as '
        + '"id xquantity" separated by "; ". A text field that a spreadsheet would run as a formula (starting with =, +, - or @) is '
        + 'written with a leading apostrophe; phones are E.164 and written as they are. The last columns, reseller, reseller_reference and reseller_net, '
        + "are filled for a reseller's booking (channel octo): the key's name, the reseller's reference and what the reseller owes of it.",
    },
  }, async (request, reply) => {
    const query = bookingQueryOf(request.query)
    // The first page is read before anything is sent, so a filter that is refused is still a problem+json answer.
    const first = await service.list(request.catalog, query, null, EXPORT_PAGE)
    const resellers = await resellerNamesOf(app.tourdesk.store, request.catalog.instance.ref)
    reply.type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="bookings-${request.catalog.instance.prefix}.csv"`)
      .header('Cache-Control', 'no-store')
    return reply.send(Readable.from(csvOf(request.catalog, query, first, resellers), { objectMode: false }))
  })

  app.get('/exports/resellers.csv', {
    schema: { querystring: ResellerSummaryQuery },
    config: {
      access: 'bookings.read',
      csv: 'only',
      summary: "Each reseller's sales over a range of departure dates, one line per reseller: what to invoice it",
      description: 'RFC 4180 CSV with a header row: reseller_key_id, reseller (the key\'s name), currency, bookings, guests, retail (their total), '
        + 'commission (what the reseller keeps) and net (what it owes: the sum of each booking\'s net as OCTo gave it), money in major units. '
        + "It counts the resellers' confirmed, checked-in (completed) and no-show bookings whose departure falls from from to to (both inclusive, "
        + "in the instance's zone); a reseller with none has no line, one that sold in two currencies has one per currency. docs/resellers.md, \"Invoicing resellers\".",
      errors: ['validation_failed'],
    },
  }, async (request, reply) => {
    const { catalog } = request
    const lines = resellerSummaryLines(await service.resellerSummary(catalog, request.query), await resellerNamesOf(app.tourdesk.store, catalog.instance.ref))
    return reply.type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="resellers-${catalog.instance.prefix}-${request.query.from}-${request.query.to}.csv"`)
      .header('Cache-Control', 'no-store')
      .send(resellerSummaryCsv(lines))
  })
}
