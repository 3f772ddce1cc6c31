import assert from 'node:assert/strict'
import { test } from 'node:test'
import { db } from '../helpers/booking-fixtures.ts'
import { parseCsv } from '../helpers/csv.ts'
import { ALFAMA_TUE, FADO_TUE, guestBooking, keyOf, operatorService } from './bookings-fixtures.ts'

test('the export is RFC 4180 CSV with a header row, the list filters, fields quoted, formulas defused', async (t) => {
  const { service, staff } = await operatorService(t)
  const tricky = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2, addons: { 'ginjinha-tasting': 2, 'illustrated-map': 1 } },
    { name: '=HYPERLINK("http://evil.example")', email: 'eve@example.com', phone: '+351 912 345 678' })
  await staff.patch(`/bookings/${tricky.booking.code}`, { internal_note: 'Smith, "Bob"\nsecond line' })
  const fado = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 1 })

  const res = await staff.get('/exports/bookings.csv')
  assert.equal(res.status, 200)
  assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8')
  assert.match(res.headers.get('content-disposition')!, /^attachment; filename="bookings-lisbon\.csv"$/)
  const [header, ...rows] = parseCsv(res.text)
  assert.deepEqual(header.slice(0, 9), ['code', 'id', 'status', 'tour_id', 'tour_title', 'start', 'end', 'party', 'addons'])
  assert.equal(rows.length, 2)
  const record = Object.fromEntries(header.map((name, i) => [name, rows[0][i]]))
  assert.equal(record.code, tricky.booking.code)
  assert.equal(record.start, '2026-06-02T09:30:00+01:00')
  assert.equal(record.contact_name, `'=HYPERLINK("http://evil.example")`)
  assert.equal(record.contact_phone, '+351912345678', 'an E.164 phone is written as it is')
  assert.equal(record.internal_note, 'Smith, "Bob"\nsecond line')
  assert.equal(record.addons, 'ginjinha-tasting x2; illustrated-map x1')
  assert.equal(record.total, (tricky.booking.price.total / 100).toFixed(2), 'major units, beside the currency')
  assert.equal(record.currency, 'EUR')
  assert.match(record.subtotal, /^\d+\.\d\d$/)
  assert.equal(record.quarantined, 'false')
  assert.equal(rows[1][0], fado.booking.code)
  assert.match(res.text, /^code,id,status,/)

  const filtered = parseCsv((await staff.get('/exports/bookings.csv?tour=fado-night&status=requested')).text)
  assert.deepEqual(filtered.slice(1).map((r) => r[0]), [fado.booking.code])
  assert.equal(parseCsv((await staff.get('/exports/bookings.csv?q=nobody')).text).length, 1, 'only the header when nothing matches')
  const refused = await staff.get('/exports/bookings.csv?from=2026-06-09&to=2026-06-01')
  assert.equal(refused.status, 400)
  assert.equal(refused.body.code, 'validation_failed')
  assert.equal((await (await keyOf(service, 'guide')).get('/exports/bookings.csv')).status, 403)
})

test('the export streams every page, in the order of the list', async (t) => {
  const { service, staff } = await operatorService(t)
  const { booking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1 })
  const template = await db(service).selectFrom('bookings').selectAll().where('id', '=', booking.id).executeTakeFirstOrThrow()
  const total = 2_500
  const rows = Array.from({ length: total - 1 }, (_, i) => ({
    ...template,
    id: `${template.id.slice(0, 24)}${String(i).padStart(12, '0')}`,
    session_id: `staff:${i}`,
    code: `X${String(i).padStart(5, '0')}`,
    start_at: ['2026-06-02T08:30:00.000Z', '2026-06-02T13:00:00.000Z', '2026-06-02T16:30:00.000Z'][i % 3],
  }))
  for (let i = 0; i < rows.length; i += 200) await db(service).insertInto('bookings').values(rows.slice(i, i + 200)).execute()

  const csv = parseCsv((await staff.get('/exports/bookings.csv')).text)
  assert.equal(csv.length, total + 1)
  const codes = csv.slice(1).map((r) => r[0])
  assert.equal(new Set(codes).size, total, 'each booking once')
  const listed: string[] = []
  let cursor: string | null = null
  do {
    const page: any = await staff.get(`/bookings?limit=200${cursor ? `&cursor=${cursor}` : ''}`)
    listed.push(...page.body.bookings.map((b: { code: string }) => b.code))
    cursor = page.body.next_cursor
  } while (cursor !== null)
  assert.deepEqual(codes, listed)
})
