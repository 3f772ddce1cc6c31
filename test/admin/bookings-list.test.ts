import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ALFAMA_TUE, ALFAMA_TUE_PM, catalogWithLateDeparture, FADO_TUE, guestBooking, keyOf, operatorService, WORKSHOP_TUE } from './bookings-fixtures.ts'

const codes = (res: { body: { bookings: Array<{ code: string }> } }) => res.body.bookings.map((b) => b.code)

test('the list filters by departure date (local, inclusive), tour, status, channel and quarantine, in departure order', async (t) => {
  const { service, staff } = await operatorService(t)
  const fado = await guestBooking(service, { tour_id: 'fado-night', start: FADO_TUE, party: 2 })
  const morning = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1 })
  const afternoon = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE_PM, party: 3 })
  const thursday = await guestBooking(service, { tour_id: 'alfama-walk', start: '2026-06-04T08:30:00Z', party: 2 })
  const spam = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE_PM, party: 2 }, { name: 'Bot', email: 'bot@example.com', company: 'ACME' })
  const held = service.client()
  const session = await held.session()
  assert.equal((await held.post('/booking', { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1 }, { headers: session.headers })).status, 200)
  const created = await staff.post('/bookings', { tour_id: 'alfama-walk', start: ALFAMA_TUE_PM, party: 1, contact: { name: 'Walk In', email: 'walk@example.com' } })
  assert.equal(created.status, 201, created.text)
  await staff.post(`/bookings/${morning.booking.code}/cancel`)

  const all = await staff.get('/bookings')
  const listed = codes(all)
  assert.equal(listed.length, 6, 'every checked-out booking, the hold left out')
  assert.equal(listed[0], morning.booking.code)
  assert.deepEqual(listed.slice(1, 4).sort(), [afternoon.booking.code, spam.booking.code, created.body.code].sort(), 'one departure, in id order')
  assert.deepEqual(listed.slice(4), [fado.booking.code, thursday.booking.code])
  assert.equal(all.body.next_cursor, null)

  assert.deepEqual(codes(await staff.get('/bookings?from=2026-06-04&to=2026-06-04')), [thursday.booking.code])
  assert.equal((await staff.get('/bookings?from=2026-06-02&to=2026-06-02')).body.bookings.length, 5)
  assert.equal((await staff.get('/bookings?from=2026-06-03')).body.bookings.length, 1)
  assert.equal((await staff.get('/bookings?to=2026-06-01')).body.bookings.length, 0)
  assert.deepEqual(codes(await staff.get('/bookings?tour=fado-night')), [fado.booking.code])
  assert.deepEqual(codes(await staff.get('/bookings?status=cancelled')), [morning.booking.code])
  assert.equal((await staff.get('/bookings?status=held')).body.bookings.length, 1)
  assert.equal((await staff.get('/bookings?status=requested,cancelled')).body.bookings.length, 2)
  assert.deepEqual(codes(await staff.get('/bookings?channel=staff')), [created.body.code])
  const quarantined = await staff.get('/bookings?quarantined=true')
  assert.deepEqual(codes(quarantined), [spam.booking.code])
  assert.equal(quarantined.body.bookings[0].quarantined, true)
  assert.equal((await staff.get('/bookings?quarantined=false')).body.bookings.length, 5)

  for (const bad of ['from=2026-06-05&to=2026-06-04', 'from=2026-02-30', 'status=pending', 'limit=0', 'limit=201', 'cursor=nonsense', 'quarantined=yes', 'channel=fax']) {
    const res = await staff.get(`/bookings?${bad}`)
    assert.equal(res.status, 400, `${bad}: ${res.text}`)
    assert.equal(res.body.code, 'validation_failed')
  }
})

test("a departure date is the instance's local date: 22:00 in New York is listed on its own day, not the next one in UTC", async (t) => {
  const { service } = await operatorService(t, { catalog: catalogWithLateDeparture() })
  const nyc = await keyOf(service, 'viewer', 'nyc')
  const late = await guestBooking(service, { tour_id: 'brooklyn-bridge-dumbo', start: '2026-06-03T02:00:00Z', party: 2 }, { name: 'Night Owl', email: 'owl@example.com' }, 'nyc')
  assert.deepEqual(codes(await nyc.get('/bookings?from=2026-06-02&to=2026-06-02')), [late.booking.code])
  assert.deepEqual(codes(await nyc.get('/bookings?from=2026-06-03&to=2026-06-03')), [])
  assert.equal((await nyc.get(`/bookings/${late.booking.code}`)).body.start, '2026-06-02T22:00:00-04:00')
})

test('q finds code, name, email and phone, ignoring case and accents', async (t) => {
  const { service, staff } = await operatorService(t)
  const joao = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1 }, { name: 'João Gonçalves', email: 'jg@correio.pt', phone: '912 345 678' })
  const zoe = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1 }, { name: 'ZOË ŁUKASZ-Ørsted', email: 'Zoe.Lukasz@Example.com' })
  const plain = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1 }, { name: 'Ana 100% [Silva]*', email: 'ana@example.pt' })

  const search = async (q: string) => codes(await staff.get(`/bookings?q=${encodeURIComponent(q)}`)).sort()
  assert.deepEqual(await search('joao'), [joao.booking.code])
  assert.deepEqual(await search('GONÇALVES'), [joao.booking.code])
  assert.deepEqual(await search('goncalves'), [joao.booking.code])
  assert.deepEqual(await search('zoe'), [zoe.booking.code])
  assert.deepEqual(await search('lukasz-orsted'), [zoe.booking.code])
  assert.deepEqual(await search('zoe.lukasz@example'), [zoe.booking.code])
  assert.deepEqual(await search('correio'), [joao.booking.code])
  assert.deepEqual(await search(joao.booking.code.toLowerCase()), [joao.booking.code])
  assert.deepEqual(await search('912 345 678'), [joao.booking.code])
  assert.deepEqual(await search('+351912'), [joao.booking.code])
  assert.deepEqual(await search('100% [silva]*'), [plain.booking.code], 'pattern characters are matched as themselves')
  assert.deepEqual(await search('100x'), [])
  assert.deepEqual(await search('s_lva'), [])
  assert.deepEqual(await search('example'), [zoe.booking.code, plain.booking.code].sort())
})

test('pages follow next_cursor in departure order, each booking once', async (t) => {
  const { service, staff } = await operatorService(t)
  const made: string[] = []
  for (const start of [WORKSHOP_TUE, ALFAMA_TUE, ALFAMA_TUE, ALFAMA_TUE_PM, FADO_TUE]) {
    const tour = start === WORKSHOP_TUE ? 'pastel-de-nata-workshop' : start === FADO_TUE ? 'fado-night' : 'alfama-walk'
    made.push((await guestBooking(service, { tour_id: tour, start, party: 1 })).booking.code)
  }
  const seen: string[] = []
  let cursor: string | null = null
  let pages = 0
  do {
    const res: any = await staff.get(`/bookings?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
    assert.equal(res.status, 200, res.text)
    assert.ok(res.body.bookings.length <= 2)
    seen.push(...codes(res))
    cursor = res.body.next_cursor
    pages++
  } while (cursor !== null)
  assert.equal(pages, 3)
  assert.deepEqual([...seen].sort(), [...made].sort())
  assert.deepEqual(seen, codes(await staff.get('/bookings?limit=200')))
})
