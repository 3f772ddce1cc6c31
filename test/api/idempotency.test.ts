import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, type TestService } from '../helpers/build.ts'
import type { ApiClient } from '../helpers/client.ts'
import { ALFAMA_TUE_0930, ALFAMA_TUE_1400, WORKSHOP_TUE, ALFAMA, CONTACT, db, seatsTaken, type Session } from '../helpers/booking-fixtures.ts'

async function bookingRows(service: TestService) {
  return db(service).selectFrom('bookings').selectAll().orderBy('created_at').execute()
}

function holdWithKey(client: ApiClient, session: Session, key: string, body: Record<string, unknown> = ALFAMA) {
  return client.post('/booking', body, { headers: { ...session.headers, 'idempotency-key': key } })
}

function checkoutWithKey(client: ApiClient, session: Session, key: string, body: Record<string, unknown> = CONTACT) {
  return client.post('/checkout', body, { headers: { 'x-session': session.session, 'idempotency-key': key } })
}

test('POST /booking retried with the same key and body replays the first answer with Idempotent-Replayed and holds once', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  const first = await holdWithKey(client, s, 'hold-1')
  assert.equal(first.status, 200)
  assert.equal(first.headers.get('idempotent-replayed'), null, 'the first answer is not a replay')

  service.clock.advance({ minutes: 1 })
  const again = await holdWithKey(client, s, 'hold-1')
  assert.equal(again.status, 200)
  assert.equal(again.headers.get('idempotent-replayed'), 'true')
  assert.deepEqual(again.body, first.body)

  const rows = await bookingRows(service)
  assert.equal(rows.length, 1)
  assert.equal(rows[0].status, 'held')
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 2)
  const events = await db(service).selectFrom('booking_events').selectAll().execute()
  assert.equal(events.length, 1)
  const keys = await db(service).selectFrom('idempotency_keys').selectAll().execute()
  assert.equal(keys.length, 1)
  assert.equal(keys[0].caller, s.session)
  assert.equal(keys[0].key, 'hold-1')
  assert.equal(keys[0].status_code, 200)
})

test('the same body with the keys in another order is the same request', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  const first = await holdWithKey(client, s, 'k', { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 2 })
  const again = await holdWithKey(client, s, 'k', { party: 2, start: ALFAMA_TUE_0930, tour_id: 'alfama-walk' })
  assert.equal(again.status, 200)
  assert.equal(again.headers.get('idempotent-replayed'), 'true')
  assert.equal(again.body.id, first.body.id)
  assert.equal((await bookingRows(service)).length, 1)
})

test('a replay does not run the request again even after the hold it created was replaced', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  const first = await holdWithKey(client, s, 'a')
  service.clock.advance({ minutes: 1 })
  const second = await holdWithKey(client, s, 'b', { ...ALFAMA, start: ALFAMA_TUE_1400 })
  assert.equal(second.status, 200)
  service.clock.advance({ minutes: 1 })
  const retry = await holdWithKey(client, s, 'a')
  assert.equal(retry.status, 200)
  assert.equal(retry.headers.get('idempotent-replayed'), 'true')
  assert.deepEqual(retry.body, first.body)

  const rows = await bookingRows(service)
  assert.equal(rows.length, 2)
  assert.deepEqual(rows.map((r) => r.status), ['released', 'held'])
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 0)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_1400), 2)
  const current = await client.get('/booking', { headers: { 'x-session': s.session } })
  assert.equal(current.body.id, second.body.id)
})

test('the same key with a different body is 422 idempotency_key_reused and changes nothing', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  const first = await holdWithKey(client, s, 'hold-1')
  const other = await holdWithKey(client, s, 'hold-1', { ...ALFAMA, party: 3 })
  assert.equal(other.status, 422)
  assert.equal(other.body.code, 'idempotency_key_reused')
  const rows = await bookingRows(service)
  assert.equal(rows.length, 1)
  assert.equal(rows[0].id, first.body.id)
  assert.equal(rows[0].party, 2)
  assert.equal(rows[0].status, 'held')
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 2)
})

test('a business error is replayed too: the same key gets the same 422 slot_not_found', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  const body = { ...ALFAMA, start: '2026-06-02T08:45:00Z' }
  const first = await holdWithKey(client, s, 'bad-slot', body)
  assert.equal(first.status, 422)
  assert.equal(first.body.code, 'slot_not_found')
  const again = await holdWithKey(client, s, 'bad-slot', body)
  assert.equal(again.status, 422)
  assert.equal(again.headers.get('idempotent-replayed'), 'true')
  assert.equal(again.headers.get('content-type')?.split(';')[0], 'application/problem+json')
  assert.deepEqual(again.body, first.body, 'the very same problem, request_id included')
  assert.equal((await bookingRows(service)).length, 0)
  const keys = await db(service).selectFrom('idempotency_keys').selectAll().execute()
  assert.equal(keys.length, 1)
  assert.equal(keys[0].status_code, 422)
})

test('a replayed 409 insufficient_capacity stays 409 even after seats free up; a new key tries again', async (t) => {
  const service = await build(t)
  const client = service.client()
  const blocker = await client.session()
  const workshop = { tour_id: 'pastel-de-nata-workshop', start: WORKSHOP_TUE, party: 3 }
  assert.equal((await client.post('/booking', workshop, { headers: blocker.headers })).status, 200)
  const s = await client.session()
  const refused = await holdWithKey(client, s, 'try-1', workshop)
  assert.equal(refused.status, 409)
  assert.equal(refused.body.code, 'insufficient_capacity')

  assert.equal((await client.delete('/booking', { headers: blocker.headers })).status, 200)
  const replayed = await holdWithKey(client, s, 'try-1', workshop)
  assert.equal(replayed.status, 409)
  assert.equal(replayed.headers.get('idempotent-replayed'), 'true')
  assert.deepEqual(replayed.body, refused.body)
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), 0)

  const fresh = await holdWithKey(client, s, 'try-2', workshop)
  assert.equal(fresh.status, 200)
  assert.equal(await seatsTaken(service, 'pastel-de-nata-workshop', WORKSHOP_TUE), 3)
})

test('a request refused with 403 records nothing under its key', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  const forbidden = await client.post('/booking', ALFAMA, { headers: { 'x-session': s.session, 'idempotency-key': 'k' } })
  assert.equal(forbidden.status, 403)
  assert.equal((await db(service).selectFrom('idempotency_keys').selectAll().execute()).length, 0)
  const allowed = await holdWithKey(client, s, 'k')
  assert.equal(allowed.status, 200)
  assert.equal(allowed.headers.get('idempotent-replayed'), null)
  assert.equal((await bookingRows(service)).length, 1)
})

test('two concurrent requests with the same key: one holds, the other is 409 idempotency_in_flight or a replay', async (t) => {
  const service = await build(t)
  const client = service.client()
  for (let round = 0; round < 5; round++) {
    const s = await client.session()
    const key = `race-${round}`
    const answers = await Promise.all([holdWithKey(client, s, key), holdWithKey(client, s, key)])
    const ok = answers.filter((a) => a.status === 200)
    assert.ok(ok.length >= 1, `at least one succeeds: ${answers.map((a) => a.status)}`)
    for (const other of answers) {
      if (other.status === 200) {
        assert.equal(other.body.id, ok[0].body.id, 'a second 200 is a replay of the first')
      } else {
        assert.equal(other.status, 409)
        assert.equal(other.body.code, 'idempotency_in_flight')
      }
    }
    if (ok.length === 2) assert.equal(ok.filter((a) => a.headers.get('idempotent-replayed') === 'true').length, 1)
    const mine = await db(service).selectFrom('bookings').selectAll().where('session_id', '=', s.session).execute()
    assert.equal(mine.length, 1, 'only one booking exists for the key')
    assert.equal(mine[0].status, 'held')
  }
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 5 * 2)
})

test('keys are scoped per session: the same key from another session is independent', async (t) => {
  const service = await build(t)
  const client = service.client()
  const a = await client.session()
  const b = await client.session()
  const fromA = await holdWithKey(client, a, 'shared-key')
  const fromB = await holdWithKey(client, b, 'shared-key', { ...ALFAMA, party: 4 })
  assert.equal(fromA.status, 200)
  assert.equal(fromB.status, 200, 'another session may use the same key with another body')
  assert.equal(fromB.headers.get('idempotent-replayed'), null)
  assert.notEqual(fromB.body.id, fromA.body.id)
  assert.equal(fromB.body.party, 4)
  const rows = await bookingRows(service)
  assert.deepEqual(rows.map((r) => r.session_id).sort(), [a.session, b.session].sort())
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 6)
})

test('a key is still replayed 23 hours (and 23:59:59) later', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  const first = await holdWithKey(client, s, 'day-key', { ...ALFAMA, start: '2026-06-05T08:30:00Z' })
  assert.equal(first.status, 200)
  service.clock.advance({ hours: 23 })
  const later = await holdWithKey(client, s, 'day-key', { ...ALFAMA, start: '2026-06-05T08:30:00Z' })
  assert.equal(later.status, 200)
  assert.equal(later.headers.get('idempotent-replayed'), 'true')
  assert.deepEqual(later.body, first.body)
  service.clock.advance({ minutes: 59, seconds: 59 })
  const last = await holdWithKey(client, s, 'day-key', { ...ALFAMA, start: '2026-06-05T08:30:00Z' })
  assert.equal(last.headers.get('idempotent-replayed'), 'true')
  assert.equal((await bookingRows(service)).length, 1)
  const stored = await db(service).selectFrom('idempotency_keys').selectAll().executeTakeFirstOrThrow()
  assert.ok(Date.parse(stored.expires_at) - Date.parse(stored.created_at) >= 24 * 3600 * 1000, 'records are kept at least 24 hours')
})

test('an Idempotency-Key that is not 1 to 255 visible ASCII characters is 400 validation_failed and holds nothing', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  for (const key of ['a'.repeat(256), 'has space']) {
    const res = await holdWithKey(client, s, key)
    assert.equal(res.status, 400, key)
    assert.equal(res.body.code, 'validation_failed')
    assert.equal(res.body.errors[0].field, 'Idempotency-Key')
  }
  assert.equal((await bookingRows(service)).length, 0)
})

test('POST /checkout retried with the same key and body replays the answer; another body is 422 idempotency_key_reused', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  assert.equal((await client.post('/booking', { ...ALFAMA, promo_code: 'WELCOME10' }, { headers: s.headers })).status, 200)
  const first = await checkoutWithKey(client, s, 'pay-1')
  assert.equal(first.status, 200)
  assert.equal(first.body.status, 'confirmed')
  assert.equal(first.headers.get('idempotent-replayed'), null)

  const again = await checkoutWithKey(client, s, 'pay-1')
  assert.equal(again.status, 200)
  assert.equal(again.headers.get('idempotent-replayed'), 'true')
  assert.deepEqual(again.body, first.body)

  const other = await checkoutWithKey(client, s, 'pay-1', { name: 'Someone Else', email: 'else@example.com' })
  assert.equal(other.status, 422)
  assert.equal(other.body.code, 'idempotency_key_reused')

  const rows = await bookingRows(service)
  assert.equal(rows.length, 1)
  assert.equal(rows[0].contact_name, 'Ana Silva')
  const events = await db(service).selectFrom('booking_events').selectAll().execute()
  assert.equal(events.length, 2, 'held and confirmed, nothing more')
  const promo = await db(service).selectFrom('promo_redemptions').select('uses').executeTakeFirstOrThrow()
  assert.equal(promo.uses, 1)
})

test('POST /checkout replays a 410 hold_expired under its key', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  assert.equal((await client.post('/booking', ALFAMA, { headers: s.headers })).status, 200)
  service.clock.advance({ minutes: 16 })
  const first = await checkoutWithKey(client, s, 'late')
  assert.equal(first.status, 410)
  assert.equal(first.body.code, 'hold_expired')
  const again = await checkoutWithKey(client, s, 'late')
  assert.equal(again.status, 410)
  assert.equal(again.headers.get('idempotent-replayed'), 'true')
  assert.deepEqual(again.body, first.body)
  const rows = await bookingRows(service)
  assert.equal(rows[0].status, 'expired')
})

test('two concurrent checkouts with the same key confirm once', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  assert.equal((await client.post('/booking', ALFAMA, { headers: s.headers })).status, 200)
  const answers = await Promise.all([checkoutWithKey(client, s, 'pay'), checkoutWithKey(client, s, 'pay')])
  const ok = answers.filter((a) => a.status === 200)
  assert.ok(ok.length >= 1)
  for (const a of answers) {
    if (a.status !== 200) assert.equal(a.body.code, 'idempotency_in_flight')
    else assert.equal(a.body.code, ok[0].body.code)
  }
  const events = await db(service).selectFrom('booking_events').selectAll().execute()
  assert.deepEqual(events.map((e) => e.to_status).sort(), ['confirmed', 'held'])
})
