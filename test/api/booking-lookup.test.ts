import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, DEFAULT_NOW, type TestService } from '../helpers/build.ts'
import type { ApiClient, ApiResponse } from '../helpers/client.ts'
import { ALFAMA, ALFAMA_TUE_0930, ALFAMA_TUE_1400, CONTACT, bookingRow, db, holding, seatsTaken, type Session } from '../helpers/booking-fixtures.ts'
import { ManualClock } from '../helpers/manual-clock.ts'

// POST /booking/lookup (docs/guest-api.md, "Booking states"): a checked-out booking, found by its
// code and contact email or by the token of its manage link, becomes the caller's session's
// booking, so GET and DELETE /booking act on it from any device. The clock starts at
// 2026-06-01T08:00:00Z; ALFAMA departs 2026-06-02T08:30Z and ends at 11:00Z.

const ALFAMA_END = '2026-06-02T11:00:00Z'
const MEETING_POINT = { name: 'Miradouro de Santa Luzia', address: 'Largo Santa Luzia, 1100-487 Lisboa, Portugal', lat: 38.71178, lng: -9.13029 }

/** A booking checked out on a first device (its own session). */
async function bookedOnFirstDevice(client: ApiClient, body: Record<string, unknown> = ALFAMA, contact: Record<string, unknown> = CONTACT) {
  const { session } = await holding(client, body)
  const res = await client.post('/checkout', contact, { headers: session.headers })
  assert.equal(res.status, 200, res.text)
  return { session, booking: res.body }
}

const tokenOf = (booking: { manage_url: string }) => new URL(booking.manage_url).hash.slice(1)
const lookUp = (client: ApiClient, session: Session, body: unknown) => client.post('/booking/lookup', body, { headers: session.headers })
/** A problem answer without what differs between any two requests. */
const problemOf = (res: ApiResponse) => ({ status: res.status, contentType: res.headers.get('content-type'), body: { ...res.body, request_id: undefined } })

async function lookedUpBookingOf(service: TestService, sessionId: string): Promise<string | null> {
  const row = await db(service).selectFrom('sessions').select('looked_up_booking_id').where('id', '=', sessionId).executeTakeFirstOrThrow()
  return row.looked_up_booking_id
}

test('a booking looked up by its code and email (in any case) on another device is that session\'s booking, with its meeting point', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { booking } = await bookedOnFirstDevice(client, ALFAMA, { name: 'Ana Silva', email: 'Ana.Silva@Example.pt' })
  assert.match(booking.code, /^[A-Z0-9]{6}$/)
  assert.deepEqual(booking.meeting_point, MEETING_POINT)

  const phone = await client.session()
  const found = await lookUp(client, phone, { code: ` ${booking.code.toLowerCase()} `, email: 'ana.silva@EXAMPLE.PT' })
  assert.equal(found.status, 200, found.text)
  assert.equal(found.headers.get('cache-control'), 'no-store')
  assert.deepEqual(found.body, booking, 'the same record as the first device got at checkout')

  const read = await client.get('/booking', { headers: { 'x-session': phone.session } })
  assert.equal(read.status, 200)
  assert.equal(read.body.id, booking.id)
  assert.deepEqual(read.body.meeting_point, MEETING_POINT)
  assert.equal(read.body.contact.email, 'Ana.Silva@Example.pt', 'the email is kept as it was given')
})

test('the manage link of the checkout answer opens the booking in a new session, which can cancel it; the first device sees it cancelled', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { session: laptop, booking } = await bookedOnFirstDevice(client)
  const link = new URL(booking.manage_url)
  assert.equal(`${link.origin}${link.pathname}`, `${service.origin}/book/lisbon/manage`)
  assert.match(link.hash, /^#[A-Za-z0-9_-]{40,}$/)

  const phone = await client.session()
  const found = await lookUp(client, phone, { token: tokenOf(booking) })
  assert.equal(found.status, 200, found.text)
  assert.equal(found.body.id, booking.id)
  assert.equal(found.body.manage_url, booking.manage_url, 'the link is the same wherever the booking is read')
  assert.equal(await lookedUpBookingOf(service, phone.session), booking.id)

  const cancelled = await client.delete('/booking', { headers: phone.headers })
  assert.equal(cancelled.status, 200, cancelled.text)
  assert.equal(cancelled.body.id, booking.id)
  assert.equal(cancelled.body.status, 'cancelled')
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 0, 'the seats are given back')
  assert.equal((await bookingRow(service, booking.id)).cancelled_by, 'guest')

  const onLaptop = await client.get('/booking', { headers: { 'x-session': laptop.session } })
  assert.equal(onLaptop.body.status, 'cancelled', 'the session that made the booking sees it cancelled')
  const again = await client.delete('/booking', { headers: phone.headers })
  assert.equal(again.status, 404)
  assert.equal(again.body.code, 'no_booking')
})

test('a lookup answers the same 404 for a wrong email, an unknown code, a forged or another instance\'s token, and changes nothing', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { booking } = await bookedOnFirstDevice(client)
  const { session: guest, booking: hold } = await holding(client, { ...ALFAMA, start: ALFAMA_TUE_1400 })

  const wrongEmail = await lookUp(client, guest, { code: booking.code, email: 'someone@example.pt' })
  const unknownCode = await lookUp(client, guest, { code: booking.code === 'ZZZZZZ' ? 'YYYYYY' : 'ZZZZZZ', email: CONTACT.email })
  assert.equal(wrongEmail.status, 404)
  assert.equal(wrongEmail.body.code, 'no_booking')
  assert.deepEqual(problemOf(wrongEmail), problemOf(unknownCode), 'whether the code exists is not told')
  assert.equal(wrongEmail.headers.get('content-type')?.split(';')[0], 'application/problem+json')

  const token = tokenOf(booking)
  const flipped = token.slice(0, -3) + (token.endsWith('AAA') ? 'BBB' : 'AAA')
  const forged = await lookUp(client, guest, { token: flipped })
  const garbage = await lookUp(client, guest, { token: 'bm90LWEtdG9rZW4' })
  const nyc = service.client('nyc')
  const nycSession = await nyc.session()
  const elsewhere = await lookUp(nyc, nycSession, { token })
  const elsewhereByCode = await lookUp(nyc, nycSession, { code: booking.code, email: CONTACT.email })
  assert.deepEqual([forged.status, garbage.status, elsewhere.status, elsewhereByCode.status], [404, 404, 404, 404])
  assert.deepEqual(problemOf(forged), problemOf(garbage))
  assert.deepEqual(problemOf(forged), problemOf(elsewhere), "another instance's token names nothing here")
  assert.equal(elsewhereByCode.body.code, 'no_booking')

  const read = await client.get('/booking', { headers: { 'x-session': guest.session } })
  assert.equal(read.body.id, hold.id, 'the hold is still the session\'s booking')
  assert.equal(read.body.status, 'held')
  assert.equal(await lookedUpBookingOf(service, guest.session), null)
})

test('a manage link works until its departure ends and then answers like a forged one, on the injected clock', async (t) => {
  const clock = new ManualClock(DEFAULT_NOW)
  const service = await build(t, { clock })
  const client = service.client()
  const { booking } = await bookedOnFirstDevice(client)
  const token = tokenOf(booking)

  clock.set('2026-06-02T10:59:59Z')
  const during = await lookUp(client, await client.session(), { token })
  assert.equal(during.status, 200, 'a second before the end it still opens the booking')
  assert.equal(during.body.manage_url, booking.manage_url)

  clock.set(ALFAMA_END)
  const phone = await client.session()
  const ended = await lookUp(client, phone, { token })
  assert.equal(ended.status, 404)
  const forged = await lookUp(client, phone, { token: `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}` })
  assert.deepEqual(problemOf(ended), problemOf(forged))
  assert.equal(await lookedUpBookingOf(service, phone.session), null)

  const byCode = await lookUp(client, phone, { code: booking.code, email: CONTACT.email })
  assert.equal(byCode.status, 200, 'the code and email still find it')
  assert.equal(byCode.body.manage_url, null, 'no manage link once the departure has ended')
  assert.deepEqual(byCode.body.cancellation_now, { allowed: false, fee_percent: null, fee: null })
})

test('a lookup needs the session\'s X-CSRF-Token: without it 403 csrf_missing, with another session\'s 403 csrf_invalid, and nothing changes', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { booking } = await bookedOnFirstDevice(client)
  const phone = await client.session()
  const other = await client.session()
  const body = { code: booking.code, email: CONTACT.email }

  const missing = await client.post('/booking/lookup', body, { headers: { 'x-session': phone.session } })
  assert.equal(missing.status, 403)
  assert.equal(missing.body.code, 'csrf_missing')
  const invalid = await client.post('/booking/lookup', body, { headers: { 'x-session': phone.session, 'x-csrf-token': other.csrf } })
  assert.equal(invalid.status, 403)
  assert.equal(invalid.body.code, 'csrf_invalid')
  const noSession = await client.post('/booking/lookup', body, { headers: { 'x-csrf-token': phone.csrf } })
  assert.equal(noSession.status, 403)
  assert.equal(noSession.body.code, 'csrf_invalid')
  const invalidBody = await client.post('/booking/lookup', { code: booking.code }, { headers: { 'x-session': phone.session } })
  assert.equal(invalidBody.body.code, 'csrf_missing', '403 outranks 400')

  assert.equal(await lookedUpBookingOf(service, phone.session), null)
  assert.equal((await client.get('/booking', { headers: { 'x-session': phone.session } })).status, 404)
})

test('a lookup body that is neither {code, email} nor {token} is 400 validation_failed problem+json, and nothing changes', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { booking } = await bookedOnFirstDevice(client)
  const { session: guest, booking: hold } = await holding(client, { ...ALFAMA, start: ALFAMA_TUE_1400 })
  const token = tokenOf(booking)
  const bodies: Array<[unknown, string | null]> = [
    [{}, null],
    [{ code: booking.code }, 'email'],
    [{ email: CONTACT.email }, 'code'],
    [{ code: '', email: CONTACT.email }, 'code'],
    [{ code: '   ', email: CONTACT.email }, 'code'],
    [{ code: booking.code, email: 'not an email' }, 'email'],
    [{ code: booking.code, email: CONTACT.email, token }, null],
    [{ code: booking.code, email: CONTACT.email, company: 'Acme' }, 'company'],
    [{ token: 5 }, 'token'],
    [{ token: 'has spaces in it' }, 'token'],
    [{ token: 'x'.repeat(513) }, 'token'],
    [[token], null],
    ['token', null],
  ]
  for (const [body, field] of bodies) {
    const res = await lookUp(client, guest, body)
    assert.equal(res.status, 400, JSON.stringify(body))
    assert.equal(res.body.code, 'validation_failed')
    assert.equal(res.headers.get('content-type')?.split(';')[0], 'application/problem+json')
    assert.ok(res.body.errors.length > 0)
    if (field) assert.ok(res.body.errors.some((e: { field: string }) => e.field === field), `${JSON.stringify(body)}: ${JSON.stringify(res.body.errors)}`)
  }
  const empty = await client.post('/booking/lookup', undefined, { headers: { ...guest.headers, 'content-type': 'application/json' } })
  assert.equal(empty.status, 400)
  assert.equal(empty.body.code, 'invalid_json', 'the body is required')

  const read = await client.get('/booking', { headers: { 'x-session': guest.session } })
  assert.deepEqual([read.body.id, read.body.status], [hold.id, 'held'])
  assert.equal(await lookedUpBookingOf(service, guest.session), null)
})

test('cancellation_now states what DELETE /booking then does: free, then half, then closed, on the injected clock', async (t) => {
  // Booked three days ahead, so the free tier (48 hours or more) applies at first.
  const clock = new ManualClock('2026-05-30T08:00:00Z')
  const service = await build(t, { clock })
  const client = service.client()
  const { session, booking: held } = await holding(client, ALFAMA)
  assert.deepEqual(held.cancellation_now, { allowed: true, fee_percent: 0, fee: 0 }, 'a hold is released free of charge')
  assert.equal(held.manage_url, null, 'a hold has no manage link yet')
  const { body: booking } = await client.post('/checkout', CONTACT, { headers: session.headers })
  assert.deepEqual(booking.cancellation_now, { allowed: true, fee_percent: 0, fee: 0 })

  clock.set('2026-06-01T06:00:00Z') // 26.5 hours before the start: the 50% tier
  const phone = await client.session()
  const found = await lookUp(client, phone, { token: tokenOf(booking) })
  assert.deepEqual(found.body.cancellation_now, { allowed: true, fee_percent: 50, fee: 1900 })
  const read = await client.get('/booking', { headers: { 'x-session': phone.session } })
  assert.deepEqual(read.body.cancellation_now, found.body.cancellation_now)
  const cancelled = await client.delete('/booking', { headers: phone.headers })
  assert.equal(cancelled.status, 200, cancelled.text)
  assert.deepEqual({ fee_percent: cancelled.body.cancellation.fee_percent, fee: cancelled.body.cancellation.fee },
    { fee_percent: read.body.cancellation_now.fee_percent, fee: read.body.cancellation_now.fee })
  assert.deepEqual(cancelled.body.cancellation_now, { allowed: false, fee_percent: null, fee: null }, 'a cancelled booking cannot be cancelled again')

  // Another booking, read once its cancellation window has closed: not allowed, and DELETE refuses.
  const { booking: late } = await bookedOnFirstDevice(client, { ...ALFAMA, start: ALFAMA_TUE_1400 })
  clock.set('2026-06-02T13:00:00Z')
  const tablet = await client.session()
  const closed = await lookUp(client, tablet, { code: late.code, email: CONTACT.email })
  assert.deepEqual(closed.body.cancellation_now, { allowed: false, fee_percent: null, fee: null })
  const refused = await client.delete('/booking', { headers: tablet.headers })
  assert.equal(refused.status, 409)
  assert.equal(refused.body.code, 'cancellation_not_allowed')
})

test('a lookup releases the session\'s hold like a new hold would, and a new hold makes the session\'s own booking current again', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { booking } = await bookedOnFirstDevice(client)
  const { session: guest, booking: hold } = await holding(client, { ...ALFAMA, start: ALFAMA_TUE_1400, party: 3 })
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_1400), 3)

  const found = await lookUp(client, guest, { code: booking.code, email: CONTACT.email })
  assert.equal(found.status, 200)
  assert.equal((await bookingRow(service, hold.id)).status, 'released')
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_1400), 0, 'the released hold gave its seats back')
  const checkout = await client.post('/checkout', CONTACT, { headers: guest.headers })
  assert.deepEqual([checkout.status, checkout.body.id], [200, booking.id], 'a checkout repeats the looked-up booking and changes nothing')

  const again = await client.post('/booking', { ...ALFAMA, start: ALFAMA_TUE_1400 }, { headers: guest.headers })
  assert.equal(again.status, 200)
  const read = await client.get('/booking', { headers: { 'x-session': guest.session } })
  assert.deepEqual([read.body.id, read.body.status], [again.body.id, 'held'])
  assert.equal(await lookedUpBookingOf(service, guest.session), null)
  const released = await client.delete('/booking', { headers: guest.headers })
  assert.deepEqual([released.body.id, released.body.status], [again.body.id, 'released'], 'DELETE acts on the new hold, not the looked-up booking')
  assert.equal((await bookingRow(service, booking.id)).status, 'confirmed')
})

test('a lookup keeps the session 30 days, like a hold, and renews the sid cookie that named it', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { booking } = await bookedOnFirstDevice(client)
  const phone = await client.session()
  service.clock.advance({ hours: 3 })
  const found = await client.post('/booking/lookup', { token: tokenOf(booking) }, { headers: { cookie: `sid=${phone.session}`, 'x-csrf-token': phone.csrf } })
  assert.equal(found.status, 200, found.text)
  const cookie = found.headers.getSetCookie().find((c) => c.startsWith('sid='))
  assert.match(cookie ?? '', new RegExp(`^sid=${phone.session}; Max-Age=${30 * 24 * 3600}; Path=/api/lisbon; HttpOnly; SameSite=Lax$`))
  const row = await db(service).selectFrom('sessions').select('expires_at').where('id', '=', phone.session).executeTakeFirstOrThrow()
  assert.equal(Date.parse(row.expires_at), service.clock.now().epochMilliseconds + 30 * 24 * 3600 * 1000)
})

test('a quarantined booking is found and answered like a real one; a wrong email for its code is the same 404', async (t) => {
  const service = await build(t)
  const client = service.client()
  const { booking: real } = await bookedOnFirstDevice(client)
  const { booking: spam } = await bookedOnFirstDevice(client, { ...ALFAMA, start: ALFAMA_TUE_1400 }, { ...CONTACT, company: 'Acme Resellers' })
  assert.equal((await bookingRow(service, spam.id)).quarantined, 1)

  const phone = await client.session()
  const found = await lookUp(client, phone, { code: spam.code, email: CONTACT.email })
  assert.equal(found.status, 200)
  assert.deepEqual(Object.keys(found.body), Object.keys(real))
  assert.equal(found.body.status, real.status)
  assert.deepEqual(found.body.cancellation_now, { allowed: true, fee_percent: 50, fee: 1900 })
  assert.equal(typeof found.body.manage_url, 'string')
  const wrongForSpam = await lookUp(client, phone, { code: spam.code, email: 'x@example.pt' })
  const wrongForReal = await lookUp(client, phone, { code: real.code, email: 'x@example.pt' })
  assert.deepEqual(problemOf(wrongForSpam), problemOf(wrongForReal))
})

test('lookups spend the forms rate budget', async (t) => {
  const service = await build(t, { rateLimits: true })
  const client = service.client()
  const phone = await client.session()
  const res = await lookUp(client, phone, { code: 'ZZZZZZ', email: CONTACT.email })
  assert.equal(res.status, 404)
  assert.match(res.headers.get('ratelimit-policy') ?? '', /^"forms";/)
})
