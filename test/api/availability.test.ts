import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build } from '../helpers/build.ts'
import type { ApiClient, ApiResponse } from '../helpers/client.ts'

// GET /availability over HTTP. Unless a test moves it, the clock stands at
// 2026-06-01T08:00:00Z: Monday 09:00 in Lisbon (+01:00), 04:00 in New York (-04:00).
// The rules of schedule expansion are unit-tested in test/domain; these tests prove the
// endpoint applies them: defaults, limits, seats, offsets and every documented error.

interface Slot {
  start: string
  end: string
  date: string
  time: string
  capacity: number
  remaining: number
  status: string
  bookable?: boolean
  reason?: string
}

async function availability(client: ApiClient, query: string): Promise<ApiResponse & { slots: Slot[] }> {
  const res = await client.get(`/availability?${query}`)
  assert.equal(res.status, 200, res.text)
  return { ...res, slots: res.body.slots }
}

function distinctDates(slots: Slot[]): string[] {
  return [...new Set(slots.map((s) => s.date))]
}

/** Consecutive ISO dates from `first`, `count` of them. */
function dateRun(first: string, count: number): string[] {
  const start = Date.parse(`${first}T00:00:00Z`)
  return Array.from({ length: count }, (_, i) => new Date(start + i * 86_400_000).toISOString().slice(0, 10))
}

function slotAt(slots: Slot[], start: string): Slot {
  const slot = slots.find((s) => Date.parse(s.start) === Date.parse(start))
  assert.ok(slot, `a slot starts at ${start} (got ${slots.map((s) => s.start).join(', ')})`)
  return slot
}

function assertProblem(res: ApiResponse, status: number, code: string): void {
  assert.equal(res.status, status, res.text)
  assert.equal(res.headers.get('content-type')?.split(';')[0], 'application/problem+json')
  assert.equal(res.body.code, code, res.text)
  assert.equal(res.body.status, status)
  assert.equal(typeof res.body.request_id, 'string')
}

function assertNamesField(res: ApiResponse, field: string): void {
  assert.ok(Array.isArray(res.body.errors), `errors[] is present: ${res.text}`)
  assert.ok(res.body.errors.some((e: { field: string }) => e.field === field), `errors[] names ${field}: ${res.text}`)
}

/** A fresh session holding `party` seats at `start`, through POST /session and POST /booking with its CSRF token. */
async function hold(client: ApiClient, tourId: string, start: string, party: number) {
  const session = await client.session()
  const res = await client.post('/booking', { tour_id: tourId, start, party }, { headers: session.headers })
  assert.equal(res.status, 200, res.text)
  assert.equal(res.body.status, 'held')
  return session
}

// ---------------------------------------------------------------- parameters and defaults

test('tour is required: without it, or empty, GET /availability is 400 validation_failed naming tour', async (t) => {
  const service = await build(t)
  const client = service.client()
  for (const query of ['', 'days=3', 'tour=']) {
    const res = await client.get(`/availability?${query}`)
    assertProblem(res, 400, 'validation_failed')
    assertNamesField(res, 'tour')
  }
})

test('the answer names the tour, the zone, the first date, the days and the party', async (t) => {
  const service = await build(t)
  const res = await availability(service.client(), 'tour=alfama-walk&date=2026-06-02&days=2&party=3')
  assert.equal(res.body.tour_id, 'alfama-walk')
  assert.equal(res.body.timezone, 'Europe/Lisbon')
  assert.equal(res.body.date, '2026-06-02')
  assert.equal(res.body.days, 2)
  assert.equal(res.body.party, 3)
  assert.deepEqual(res.slots.map((s) => `${s.date} ${s.time}`), [
    '2026-06-02 09:30', '2026-06-02 14:00', '2026-06-02 17:30',
    '2026-06-03 09:30', '2026-06-03 14:00', '2026-06-03 17:30',
  ])
  assert.deepEqual(slotAt(res.slots, '2026-06-02T08:30:00Z'), {
    start: '2026-06-02T09:30:00+01:00',
    end: '2026-06-02T12:00:00+01:00',
    date: '2026-06-02',
    time: '09:30',
    capacity: 16,
    remaining: 16,
    status: 'available',
    guaranteed: false,
    bookable: true,
    // Added with units (docs/units.md): the party's subtotal, 1900 × 3.
    price: { amount: 5700, currency: 'EUR' },
  })
})

test('unknown query parameters are ignored', async (t) => {
  const service = await build(t)
  const res = await availability(service.client(), 'tour=alfama-walk&days=1&utm_source=newsletter&foo=')
  assert.equal(res.slots.length, 3)
})

test("date defaults to today in the operator's zone, not in UTC", async (t) => {
  const service = await build(t)
  const lisbon = service.client('lisbon')
  const nyc = service.client('nyc')

  // 23:30 UTC on 1 June is already 00:30 on 2 June in Lisbon; New York is still on 1 June.
  service.clock.set('2026-06-01T23:30:00Z')
  const lisbonLate = await availability(lisbon, 'tour=alfama-walk&days=1')
  assert.equal(lisbonLate.body.date, '2026-06-02')
  assert.deepEqual(distinctDates(lisbonLate.slots), ['2026-06-02'])
  assert.equal(lisbonLate.slots.length, 3, "every start of Lisbon's new day is still ahead")
  const nycLate = await availability(nyc, 'tour=brooklyn-bridge-dumbo&days=1')
  assert.equal(nycLate.body.date, '2026-06-01')
  assert.deepEqual(nycLate.slots, [], 'both New York starts of 1 June have begun')

  // 02:00 UTC on 2 June is still 22:00 on 1 June in New York.
  service.clock.set('2026-06-02T02:00:00Z')
  const nycNight = await availability(nyc, 'tour=brooklyn-bridge-dumbo&days=2')
  assert.equal(nycNight.body.date, '2026-06-01')
  assert.deepEqual(nycNight.slots.map((s) => s.start), ['2026-06-02T10:00:00-04:00', '2026-06-02T15:00:00-04:00'])
})

test("a date before today in the operator's zone is 422 date_out_of_range even while it is still that day in UTC", async (t) => {
  const service = await build(t)
  service.clock.set('2026-06-01T23:30:00Z')
  const res = await service.client().get('/availability?tour=alfama-walk&date=2026-06-01')
  assertProblem(res, 422, 'date_out_of_range')
  assertNamesField(res, 'date')
})

test('days defaults to 7 and covers that many local days from the first date', async (t) => {
  const service = await build(t)
  const res = await availability(service.client(), 'tour=alfama-walk')
  assert.equal(res.body.days, 7)
  assert.equal(res.body.date, '2026-06-01')
  assert.deepEqual(distinctDates(res.slots), dateRun('2026-06-01', 7))
  assert.equal(res.slots.length, 21, 'three starts a day, all still ahead')
})

test('days takes 1 and 14, the ends of its range', async (t) => {
  const service = await build(t)
  const client = service.client()
  const one = await availability(client, 'tour=alfama-walk&date=2026-06-02&days=1')
  assert.deepEqual(distinctDates(one.slots), ['2026-06-02'])
  const fourteen = await availability(client, 'tour=alfama-walk&date=2026-06-02&days=14')
  assert.equal(fourteen.body.days, 14)
  // 13 June is an alfama-walk blackout date.
  assert.deepEqual(distinctDates(fourteen.slots), dateRun('2026-06-02', 14).filter((d) => d !== '2026-06-13'))
})

test('only starts that have not begun are listed', async (t) => {
  const service = await build(t)
  service.clock.set('2026-06-01T13:00:00Z') // 14:00 in Lisbon, the second alfama-walk start
  const res = await availability(service.client(), 'tour=alfama-walk&days=1')
  assert.deepEqual(res.slots.map((s) => s.time), ['17:30'])
})

// ---------------------------------------------------------------- party and seats

test('without party the slots carry no bookable or reason, and party is null', async (t) => {
  const service = await build(t)
  const res = await availability(service.client(), 'tour=alfama-walk&date=2026-06-02&days=1')
  assert.equal(res.body.party, null)
  for (const slot of res.slots) {
    assert.equal('bookable' in slot, false)
    assert.equal('reason' in slot, false)
  }
})

test('remaining reflects holds at once: limited under half, sold_out at none, and party says what is bookable', async (t) => {
  const service = await build(t)
  const client = service.client()
  const query = 'tour=pastel-de-nata-workshop&date=2026-06-02&days=1&party=2'
  const before = await availability(client, query)
  // The workshop seats 4; its Tuesday starts are 10:00 and 15:00.
  const morning = slotAt(before.slots, '2026-06-02T09:00:00Z')
  const afternoon = slotAt(before.slots, '2026-06-02T14:00:00Z')
  assert.deepEqual([morning.capacity, morning.remaining, morning.status, morning.bookable], [4, 4, 'available', true])

  const first = await hold(client, 'pastel-de-nata-workshop', morning.start, 2)
  let slot = slotAt((await availability(client, query)).slots, morning.start)
  assert.deepEqual([slot.remaining, slot.status, slot.bookable, slot.reason], [2, 'available', true, undefined], 'half left is not limited')

  await hold(client, 'pastel-de-nata-workshop', morning.start, 1)
  slot = slotAt((await availability(client, query)).slots, morning.start)
  assert.deepEqual([slot.remaining, slot.status, slot.bookable, slot.reason], [1, 'limited', false, 'insufficient_capacity'])

  await hold(client, 'pastel-de-nata-workshop', morning.start, 1)
  const full = await availability(client, query)
  slot = slotAt(full.slots, morning.start)
  assert.deepEqual([slot.remaining, slot.status, slot.bookable, slot.reason], [0, 'sold_out', false, 'sold_out'])
  const other = slotAt(full.slots, afternoon.start)
  assert.deepEqual([other.remaining, other.status, other.bookable], [4, 'available', true], 'another departure keeps its seats')

  const released = await client.delete('/booking', { headers: first.headers })
  assert.equal(released.status, 200, released.text)
  slot = slotAt((await availability(client, query)).slots, morning.start)
  assert.deepEqual([slot.remaining, slot.status, slot.bookable], [2, 'available', true], 'a released hold gives its seats back at once')
})

test('a party outside the tour minimum and maximum is 422 party_out_of_range with min and max', async (t) => {
  const service = await build(t)
  const client = service.client()
  // port-wine-tasting takes parties of 2 to 8.
  for (const party of [1, 9]) {
    const res = await client.get(`/availability?tour=port-wine-tasting&party=${party}`)
    assertProblem(res, 422, 'party_out_of_range')
    assert.equal(res.body.min, 2)
    assert.equal(res.body.max, 8)
  }
  for (const party of [2, 8]) await availability(client, `tour=port-wine-tasting&party=${party}`)
})

// ---------------------------------------------------------------- schedules

test('a blackout date has no slots', async (t) => {
  const service = await build(t)
  const res = await availability(service.client(), 'tour=alfama-walk&date=2026-06-13&days=1')
  assert.deepEqual(res.slots, [])
  const around = await availability(service.client(), 'tour=alfama-walk&date=2026-06-12&days=3')
  assert.deepEqual(distinctDates(around.slots), ['2026-06-12', '2026-06-14'])
})

test('a seasonal schedule gives no slots outside its season', async (t) => {
  const service = await build(t)
  const client = service.client()
  // sintra-day-trip runs Monday to Saturday, 1 April to 31 October 2026.
  const end = await availability(client, 'tour=sintra-day-trip&date=2026-10-26&days=14')
  assert.deepEqual(distinctDates(end.slots), dateRun('2026-10-26', 6))
  const after = await availability(client, 'tour=sintra-day-trip&date=2026-11-02&days=14')
  assert.deepEqual(after.slots, [])
})

test("a slot past its cutoff is closed, and with a party it is not bookable because cutoff_passed", async (t) => {
  const service = await build(t)
  // tagus-sunset-sail sails at 17:30 and 19:30 and closes 120 minutes before; at 16:00 Lisbon
  // the 17:30 sailing has closed and the 19:30 one has not.
  service.clock.set('2026-06-01T15:00:00Z')
  const res = await availability(service.client(), 'tour=tagus-sunset-sail&days=1&party=2')
  const early = slotAt(res.slots, '2026-06-01T16:30:00Z')
  const late = slotAt(res.slots, '2026-06-01T18:30:00Z')
  assert.deepEqual([early.status, early.remaining, early.bookable, early.reason], ['closed', 12, false, 'cutoff_passed'])
  assert.deepEqual([late.status, late.bookable], ['available', true])
})

test('closed wins over sold_out once the cutoff has passed', async (t) => {
  const service = await build(t)
  const client = service.client()
  const session = await hold(client, 'tagus-sunset-sail', '2026-06-01T16:30:00Z', 12)
  const checkout = await client.post('/checkout', { name: 'Ana Silva', email: 'ana@example.pt' }, { headers: { 'x-session': session.session } })
  assert.equal(checkout.status, 200, checkout.text)
  const sold = slotAt((await availability(client, 'tour=tagus-sunset-sail&days=1&party=1')).slots, '2026-06-01T16:30:00Z')
  assert.deepEqual([sold.status, sold.remaining, sold.reason], ['sold_out', 0, 'sold_out'])

  service.clock.set('2026-06-01T15:00:00Z')
  const closed = slotAt((await availability(client, 'tour=tagus-sunset-sail&days=1&party=1')).slots, '2026-06-01T16:30:00Z')
  assert.deepEqual([closed.status, closed.remaining, closed.reason], ['closed', 0, 'cutoff_passed'])
})

// ---------------------------------------------------------------- offsets across DST

test('Lisbon fall-back (25 October 2026): starts carry +01:00 before it and +00:00 after, and 01:30 is its first occurrence', async (t) => {
  const service = await build(t)
  const client = service.client()
  const walk = await availability(client, 'tour=alfama-walk&date=2026-10-23&days=4')
  assert.deepEqual(walk.slots.filter((s) => s.time === '09:30').map((s) => s.start), [
    '2026-10-23T09:30:00+01:00', '2026-10-24T09:30:00+01:00', '2026-10-25T09:30:00+00:00', '2026-10-26T09:30:00+00:00',
  ])
  const fado = await availability(client, 'tour=fado-night&date=2026-10-25&days=1')
  const late = fado.slots.find((s) => s.time === '01:30')
  assert.ok(late, 'the 01:30 Sunday set is listed once')
  assert.equal(fado.slots.filter((s) => s.time === '01:30').length, 1)
  assert.equal(late.start, '2026-10-25T01:30:00+01:00')
  assert.equal(late.end, '2026-10-25T02:30:00+00:00', 'the end carries the offset in force when it comes')
  assert.equal(Date.parse(late.end) - Date.parse(late.start), 120 * 60_000, 'the set lasts its 120 minutes')
})

test('Lisbon spring-forward (29 March 2026): starts move from +00:00 to +01:00 and the 01:30 set runs at 02:30', async (t) => {
  const service = await build(t)
  service.clock.set('2026-03-20T12:00:00Z')
  const client = service.client()
  const walk = await availability(client, 'tour=alfama-walk&date=2026-03-28&days=2')
  assert.deepEqual(walk.slots.filter((s) => s.time === '09:30').map((s) => s.start), ['2026-03-28T09:30:00+00:00', '2026-03-29T09:30:00+01:00'])
  const fado = await availability(client, 'tour=fado-night&date=2026-03-29&days=1')
  assert.deepEqual(fado.slots.map((s) => s.start), ['2026-03-29T02:30:00+01:00', '2026-03-29T20:30:00+01:00'])
})

test('New York fall-back (1 November 2026): starts carry -04:00 before it and -05:00 after, with local date and time unchanged', async (t) => {
  const service = await build(t)
  const res = await availability(service.client('nyc'), 'tour=brooklyn-bridge-dumbo&date=2026-10-31&days=2')
  assert.equal(res.body.timezone, 'America/New_York')
  assert.deepEqual(res.slots.map((s) => [s.date, s.time, s.start, s.end]), [
    ['2026-10-31', '10:00', '2026-10-31T10:00:00-04:00', '2026-10-31T12:00:00-04:00'],
    ['2026-10-31', '15:00', '2026-10-31T15:00:00-04:00', '2026-10-31T17:00:00-04:00'],
    ['2026-11-01', '10:00', '2026-11-01T10:00:00-05:00', '2026-11-01T12:00:00-05:00'],
    ['2026-11-01', '15:00', '2026-11-01T15:00:00-05:00', '2026-11-01T17:00:00-05:00'],
  ])
})

// ---------------------------------------------------------------- strict parsing and errors

test('days must be plain decimal digits from 1 to 14: anything else is 400 validation_failed naming days', async (t) => {
  const service = await build(t)
  const client = service.client()
  for (const days of ['0x7', '1e1', '%207', '1.5', '0', '15']) {
    const res = await client.get(`/availability?tour=alfama-walk&days=${days}`)
    assertProblem(res, 400, 'validation_failed')
    assertNamesField(res, 'days')
  }
})

test('date must be a real calendar date: 2026-02-30 and 2026-13-01 are 400 validation_failed naming date', async (t) => {
  const service = await build(t)
  const client = service.client()
  for (const date of ['2026-02-30', '2026-13-01']) {
    const res = await client.get(`/availability?tour=alfama-walk&date=${date}`)
    assertProblem(res, 400, 'validation_failed')
    assertNamesField(res, 'date')
  }
})

test('party must be a whole number of at least 1: else 400 validation_failed naming party', async (t) => {
  const service = await build(t)
  const client = service.client()
  for (const party of ['0', '2.5', 'two']) {
    const res = await client.get(`/availability?tour=alfama-walk&party=${party}`)
    assertProblem(res, 400, 'validation_failed')
    assertNamesField(res, 'party')
  }
})

test('the horizon: today up to today plus horizon_days is served, before or after is 422 date_out_of_range', async (t) => {
  const service = await build(t)
  const lisbon = service.client('lisbon') // horizon_days 365
  const nyc = service.client('nyc') // horizon_days 180
  for (const [client, tour, last] of [[lisbon, 'alfama-walk', '2027-06-01'], [nyc, 'brooklyn-bridge-dumbo', '2026-11-28']] as const) {
    await availability(client, `tour=${tour}&date=2026-06-01&days=1`)
    const lastDay = await availability(client, `tour=${tour}&date=${last}&days=1`)
    assert.deepEqual(distinctDates(lastDay.slots), [last])
    const afterLast = new Date(Date.parse(`${last}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
    for (const date of ['2026-05-31', afterLast]) {
      const res = await client.get(`/availability?tour=${tour}&date=${date}`)
      assertProblem(res, 422, 'date_out_of_range')
      assertNamesField(res, 'date')
    }
  }
})

test('days is clipped at the horizon: no slot is listed after its last day', async (t) => {
  const service = await build(t)
  const res = await availability(service.client(), 'tour=alfama-walk&date=2027-05-30&days=14')
  assert.deepEqual(distinctDates(res.slots), ['2027-05-30', '2027-05-31', '2027-06-01'])
})

test('an unknown tour is 404 tour_not_found; invalid parameters outrank it with 400', async (t) => {
  const service = await build(t)
  const client = service.client()
  assertProblem(await client.get('/availability?tour=no-such-tour'), 404, 'tour_not_found')
  assertProblem(await service.client('nyc').get('/availability?tour=alfama-walk'), 404, 'tour_not_found')
  const invalid = await client.get('/availability?tour=no-such-tour&days=0')
  assertProblem(invalid, 400, 'validation_failed')
  assertNamesField(invalid, 'days')
})
