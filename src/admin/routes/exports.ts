import { Readable } from 'node:stream'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { BookingFilterQuery } from '../../schemas/admin/booking.ts'
import type { InstanceCatalog } from '../../catalog/instance-catalog.ts'
import type { BookingQuery } from '../../services/operator-bookings.ts'
import { BOOKING_CSV_HEADER, bookingCsvRecord } from '../booking-view.ts'
import { bookingQueryOf } from './bookings.ts'
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
  async function* csvOf(catalog: InstanceCatalog, query: BookingQuery, first: BookingRecord[]): AsyncGenerator<string> {
    yield BOOKING_CSV_HEADER
    let page = first
    while (page.length > 0) {
      yield page.map((row) => bookingCsvRecord(row, catalog)).join('')
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
        + 'written with a leading apostrophe; phones are E.164 and written as they are.',
    },
  }, async (request, reply) => {
    const query = bookingQueryOf(request.query)
    // The first page is read before anything is sent, so a filter that is refused is still a problem+json answer.
    const first = await service.list(request.catalog, query, null, EXPORT_PAGE)
    reply.type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="bookings-${request.catalog.instance.prefix}.csv"`)
      .header('Cache-Control', 'no-store')
    return reply.send(Readable.from(csvOf(request.catalog, query, first), { objectMode: false }))
  })
}
