import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build } from '../helpers/build.ts'
import { ALFAMA_TUE_0930, ALFAMA_TUE_1400, db } from '../helpers/booking-fixtures.ts'
import { apiKeyClient, OperatorClient, signedInStaff } from '../helpers/operator.ts'
import { departurePath, guestBooking, guestHold, operator, orphan } from './departures-fixtures.ts'

// The demo's lisbon departures on Tuesday 2 June 2026 (Lisbon is at +01:00), in list order.
const TUESDAY = [
  ['08:30', 'sintra-day-trip'], ['09:30', 'alfama-walk'], ['09:30', 'belem-bike'], ['10:00', 'pastel-de-nata-workshop'], ['14:00', 'alfama-walk'],
  ['14:00', 'belem-bike'], ['15:00', 'pastel-de-nata-workshop'], ['16:00', 'port-wine-tasting'], ['17:30', 'alfama-walk'], ['17:30', 'tagus-sunset-sail'],
  ['18:30', 'port-wine-tasting'], ['19:30', 'tagus-sunset-sail'], ['20:30', 'fado-night'],
]
const FADO_TUE = '2026-06-02T19:30:00Z'

// ---------------------------------------------------------------- GET /departures

test('GET /departures lists every scheduled departure of the window in start order, with seats per status', async (t) => {
  const service = await build(t)
  await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 2 })
  await guestHold(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 3 })
  await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 4 })
  const staff = await operator(service, 'guide')

  const res = await staff.get('/departures?from=2026-06-02&to=2026-06-02')
  assert.equal(res.status, 200, res.text)
  assert.equal(res.body.next_cursor, null)
  assert.deepEqual(res.body.departures.map((d: any) => [d.time, d.tour_id]), TUESDAY)
  const alfama = res.body.departures[1]
  assert.deepEqual(alfama, {
    tour_id: 'alfama-walk',
    start: '2026-06-02T09:30:00+01:00',
    end: '2026-06-02T12:00:00+01:00',
    date: '2026-06-02',
    time: '09:30',
    capacity: 16,
    capacity_source: 'tour',
    seats: { held: 3, requested: 0, confirmed: 2, completed: 0, no_show: 0, free: 11 },
    closed: false,
    cancelled: false,
    note: null,
    extra: false,
    orphaned: false,
    min_participants: null,
    guaranteed: false,
    version: 1,
  })
  const fado = res.body.departures.find((d: any) => d.tour_id === 'fado-night')
  assert.deepEqual(fado.seats, { held: 0, requested: 4, confirmed: 0, completed: 0, no_show: 0, free: 20 })
  assert.equal(res.body.departures.find((d: any) => d.tour_id === 'sintra-day-trip').seats.free, 40, 'a departure nobody booked has the tour capacity free')

  // Once the hold's 15 minutes are up its seats count no more, swept or not.
  service.clock.advance({ minutes: 16 })
  const later = await staff.get('/departures?from=2026-06-02&to=2026-06-02&tour=alfama-walk')
  assert.deepEqual(later.body.departures.map((d: any) => d.time), ['09:30', '14:00', '17:30'])
  assert.deepEqual(later.body.departures[0].seats, { held: 0, requested: 0, confirmed: 2, completed: 0, no_show: 0, free: 14 })
})

test('GET /departures pages with limit and cursor, each departure exactly once, and defaults to 14 days from today', async (t) => {
  const service = await build(t)
  await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE_1400, party: 1 })
  const staff = await operator(service, 'viewer')
  const whole = await staff.get('/departures?from=2026-06-02&to=2026-06-08&limit=200')
  assert.equal(whole.status, 200)
  assert.equal(whole.body.next_cursor, null)
  const all = whole.body.departures.map((d: any) => `${d.start} ${d.tour_id}`)
  assert.ok(all.length > 60, `a week of departures: ${all.length}`)

  const paged: string[] = []
  let cursor: string | null = null
  do {
    const res: any = await staff.get(`/departures?from=2026-06-02&to=2026-06-08&limit=7${cursor ? `&cursor=${cursor}` : ''}`)
    assert.equal(res.status, 200, res.text)
    assert.ok(res.body.departures.length <= 7)
    paged.push(...res.body.departures.map((d: any) => `${d.start} ${d.tour_id}`))
    cursor = res.body.next_cursor
  } while (cursor !== null)
  assert.deepEqual(paged, all)

  const defaults = await staff.get('/departures?limit=200&tour=alfama-walk')
  assert.equal(defaults.body.departures[0].start, '2026-06-01T09:30:00+01:00', 'from defaults to today, past starts included')
  assert.equal(defaults.body.departures.at(-1).date, '2026-06-14', 'to defaults to from + 13 days')
})

test('GET /departures lists added (extra) and orphaned departures with the scheduled ones', async (t) => {
  const service = await build(t)
  const staff = await operator(service)
  const added = await staff.post('/departures', { tour_id: 'alfama-walk', start: '2026-06-02T11:00:00+01:00' })
  assert.equal(added.status, 201, added.text)
  // A booking on 17:30, then "the schedule moves" it to 18:15: stored, booked, not scheduled.
  await guestBooking(service, { tour_id: 'alfama-walk', start: '2026-06-02T16:30:00Z', party: 2 })
  await orphan(service, 'alfama-walk', '2026-06-02T16:30:00Z', '2026-06-02T17:15:00Z')

  const res = await staff.get('/departures?from=2026-06-02&to=2026-06-02&tour=alfama-walk')
  assert.deepEqual(res.body.departures.map((d: any) => [d.time, d.extra, d.orphaned]),
    [['09:30', false, false], ['11:00', true, false], ['14:00', false, false], ['17:30', false, false], ['18:15', false, true]])
  assert.equal(res.body.departures[4].end, '2026-06-02T20:45:00+01:00')
  assert.deepEqual(res.body.departures[4].seats, { held: 0, requested: 0, confirmed: 2, completed: 0, no_show: 0, free: 14 })

  // The same through pages of one: the unscheduled ones keep their place.
  const paged: string[] = []
  let cursor: string | null = null
  do {
    const page: any = await staff.get(`/departures?from=2026-06-02&to=2026-06-02&limit=1${cursor ? `&cursor=${cursor}` : ''}`)
    paged.push(...page.body.departures.filter((d: any) => d.tour_id === 'alfama-walk').map((d: any) => d.time))
    cursor = page.body.next_cursor
  } while (cursor !== null)
  assert.deepEqual(paged, ['09:30', '11:00', '14:00', '17:30', '18:15'])

  // An orphan whose bookings are all gone is listed no more.
  await db(service).updateTable('bookings').set({ status: 'cancelled' }).where('tour_id', '=', 'alfama-walk').execute()
  const after = await staff.get('/departures?from=2026-06-02&to=2026-06-02&tour=alfama-walk')
  assert.deepEqual(after.body.departures.map((d: any) => d.time), ['09:30', '11:00', '14:00', '17:30'])
})

test('GET /departures refuses a window over 62 days, a reversed one, an unknown tour and a cursor it did not give', async (t) => {
  const service = await build(t)
  const staff = await operator(service)
  assert.equal((await staff.get('/departures?from=2026-06-01&to=2026-08-01&limit=1')).status, 200, '62 days')
  const cases: Array<[string, number, string, string?]> = [
    ['/departures?from=2026-06-01&to=2026-08-02', 422, 'date_out_of_range', 'to'],
    ['/departures?from=2026-06-10&to=2026-06-09', 422, 'date_out_of_range', 'to'],
    ['/departures?tour=nowhere', 404, 'tour_not_found'],
    ['/departures?cursor=bm9wZQ', 400, 'validation_failed', 'cursor'],
    [`/departures?cursor=${Buffer.from(JSON.stringify(['tomorrow', 'alfama-walk'])).toString('base64url')}`, 400, 'validation_failed', 'cursor'],
    ['/departures?from=2026-02-30', 400, 'validation_failed', 'from'],
    ['/departures?limit=201', 400, 'validation_failed', 'limit'],
  ]
  for (const [path, status, code, field] of cases) {
    const res = await staff.get(path)
    assert.equal(res.status, status, `${path}: ${res.text}`)
    assert.equal(res.body.code, code, path)
    if (field) assert.ok(res.body.errors.some((e: any) => e.field.includes(field)), `${path}: ${JSON.stringify(res.body.errors)}`)
  }
})

test('GET /departures needs a credential; every role may read it', async (t) => {
  const service = await build(t)
  const anonymous = await new OperatorClient(service.origin, 'lisbon').get('/departures')
  assert.equal(anonymous.status, 401)
  assert.equal(anonymous.body.code, 'unauthenticated')
  const guest = service.client()
  const { session } = await guest.session()
  const withGuestSession = await new OperatorClient(service.origin, 'lisbon').get('/departures', { cookie: `sid=${session}` })
  assert.equal(withGuestSession.status, 401, 'a guest session authenticates nothing under /admin')
  for (const role of ['guide', 'viewer', 'staff', 'manager'] as const) {
    assert.equal((await (await operator(service, role)).get('/departures?limit=1')).status, 200, role)
  }
  const { secret } = await apiKeyClient(service, 'manager')
  const otherInstance = await new OperatorClient(service.origin, 'nyc', { bearer: secret }).get('/departures')
  assert.equal(otherInstance.status, 401, "a lisbon key on nyc's departures")
})

// ---------------------------------------------------------------- GET /departures/{tour_id}/{start}

test('GET /departures/{tour}/{start}: the departure, its manifest with contacts and add-ons, and the totals', async (t) => {
  const service = await build(t)
  const ana = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 3, addons: { 'ginjinha-tasting': 2, 'illustrated-map': 1 } },
    { name: 'Ana Silva', email: 'ana@example.pt', phone: '+351 912 345 678' })
  const bo = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 1, addons: { 'ginjinha-tasting': 1 } },
    { name: 'bo Lindqvist', email: 'bo@example.se' })
  await guestHold(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 2 })
  await db(service).updateTable('bookings').set({ internal_note: 'vegetarian', status: 'completed', checked_in_at: '2026-06-02T08:20:00.000Z' })
    .where('id', '=', bo.booking.id).execute()
  const guide = (await signedInStaff(service, 'guide')).client

  // The start in another offset, URL-encoded, names the same departure.
  const res = await guide.get(departurePath('alfama-walk', '2026-06-02T17:30:00+09:00'))
  assert.equal(res.status, 200, res.text)
  assert.equal(res.headers.get('cache-control'), 'no-store')
  assert.equal(res.body.departure.start, '2026-06-02T09:30:00+01:00')
  assert.deepEqual(res.body.departure.seats, { held: 2, requested: 0, confirmed: 3, completed: 1, no_show: 0, free: 10 })
  assert.deepEqual(res.body.manifest, [
    {
      id: ana.booking.id, code: ana.booking.code, status: 'confirmed', name: 'Ana Silva', email: 'ana@example.pt', phone: '+351912345678', party: 3,
      seats: 3, units: ana.booking.units, addons: ana.booking.addons,
      due_on_arrival: ana.booking.price.due_on_arrival, checked_in_at: null, note: null, channel: 'web', reseller: null, language: 'en',
    },
    {
      id: bo.booking.id, code: bo.booking.code, status: 'completed', name: 'bo Lindqvist', email: 'bo@example.se', phone: null, party: 1,
      seats: 1, units: bo.booking.units, addons: bo.booking.addons,
      due_on_arrival: bo.booking.price.due_on_arrival, checked_in_at: '2026-06-02T09:20:00+01:00', note: 'vegetarian', channel: 'web', reseller: null, language: 'en',
    },
  ])
  assert.deepEqual(res.body.totals, {
    currency: 'EUR',
    statuses: { requested: { bookings: 0, guests: 0 }, confirmed: { bookings: 1, guests: 3 }, completed: { bookings: 1, guests: 1 }, no_show: { bookings: 0, guests: 0 } },
    guests: 4,
    seats: 4,
    units: [{ ...ana.booking.units[0], quantity: 4, amount: ana.booking.units[0].amount + bo.booking.units[0].amount }],
    addons: [
      { ...ana.booking.addons[0], quantity: 3, amount: ana.booking.addons[0].amount + bo.booking.addons[0].amount },
      ana.booking.addons[1],
    ],
    languages: [{ language: 'en', bookings: 2, guests: 4 }],
    due_on_arrival: ana.booking.price.due_on_arrival + bo.booking.price.due_on_arrival,
  })
})

test('GET /departures/{tour}/{start} with Accept: text/csv answers the manifest as RFC 4180 CSV', async (t) => {
  const service = await build(t)
  await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 2, addons: { 'illustrated-map': 1 } },
    { name: 'Silva, "Ana"', email: 'ana@example.pt', phone: '+351912345678' })
  await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 1 }, { name: '=HYPERLINK("http://x")', email: 'x@example.com' })
  // Not checked against openapi.json, which describes the JSON answer only (the CSV is in the description).
  const { client: staff } = await apiKeyClient(service, 'guide')
  const res = await staff.get(departurePath('alfama-walk', ALFAMA_TUE_0930), { accept: 'text/csv' })
  assert.equal(res.status, 200, res.text)
  assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8')
  assert.equal(res.headers.get('content-disposition'), 'attachment; filename="manifest-alfama-walk-2026-06-02-0930.csv"')
  const lines = res.text.split('\r\n')
  assert.equal(lines.at(-1), '', 'every line ends in CRLF')
  assert.equal(lines[0], 'code,status,name,email,phone,party,addons,due_on_arrival,currency,checked_in_at,note,seats,units,channel,reseller,reseller_reference,reseller_net,language')
  assert.equal(lines.length, 4)
  // Amounts in major units beside the currency: a spreadsheet sums the column.
  assert.match(lines[1], /^[A-Z0-9]+,confirmed,"'=HYPERLINK\(""http:\/\/x""\)",x@example\.com,,1,,\d+\.\d\d,EUR,,,1,1 Person,web,,,,en$/)
  assert.match(lines[2], /^[A-Z0-9]+,confirmed,"Silva, ""Ana""",ana@example\.pt,\+351912345678,2,1 × .+,\d+\.\d\d,EUR,,,2,2 Person,web,,,,en$/)

  const json = await staff.get(departurePath('alfama-walk', ALFAMA_TUE_0930), { accept: 'application/json, text/csv;q=0.5' })
  assert.equal(json.headers.get('content-type'), 'application/json; charset=utf-8')
  const empty = await staff.get(departurePath('sintra-day-trip', '2026-06-02T07:30:00Z'), { accept: 'text/csv' })
  assert.equal(empty.text, 'code,status,name,email,phone,party,addons,due_on_arrival,currency,checked_in_at,note,seats,units,channel,reseller,reseller_reference,reseller_net,language\r\n')
})

test('GET /departures/{tour}/{start}: 404 for a start neither scheduled, added nor stored; 400 for one that is no instant', async (t) => {
  const service = await build(t)
  const staff = await operator(service, 'guide')
  const empty = await staff.get(departurePath('sintra-day-trip', '2026-06-02T07:30:00Z'))
  assert.equal(empty.status, 200, 'a scheduled departure nobody booked')
  assert.deepEqual(empty.body.manifest, [])
  assert.equal(empty.body.departure.version, 1)

  const cases: Array<[string, number, string]> = [
    [departurePath('alfama-walk', '2026-06-02T08:31:00Z'), 404, 'departure_not_found'],
    [departurePath('alfama-walk', '2026-06-13T08:30:00Z'), 404, 'departure_not_found'], // a blackout date
    [departurePath('nowhere', ALFAMA_TUE_0930), 404, 'tour_not_found'],
    [departurePath('alfama-walk', '2026-06-02 09:30'), 400, 'validation_failed'],
    [departurePath('alfama-walk', '2026-06-02T09:30:00'), 400, 'validation_failed'],
  ]
  for (const [path, status, code] of cases) {
    const res = await staff.get(path)
    assert.equal(res.status, status, `${path}: ${res.text}`)
    assert.equal(res.body.code, code, path)
  }
  const anonymous = await new OperatorClient(service.origin, 'lisbon').get(departurePath('alfama-walk', ALFAMA_TUE_0930))
  assert.equal(anonymous.status, 401)
})
