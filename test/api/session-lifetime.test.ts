import assert from 'node:assert/strict'
import { test } from 'node:test'
import { runHousekeeping } from '../../src/jobs/housekeeping.ts'
import { build, DEFAULT_NOW, type TestService } from '../helpers/build.ts'

// A session that never holds a booking lasts 24 hours; a hold makes it last 30 days from the
// hold. The clock starts at 2026-06-01T08:00:00Z (09:00 in Lisbon).
const HOLD = { tour_id: 'alfama-walk', start: '2026-06-02T08:30:00Z', party: 2 }
const DAY = 24 * 3600

async function sessionRows(service: TestService) {
  return service.context.store.db.selectFrom('sessions').select(['id', 'expires_at']).execute()
}

function sidCookie(headers: Headers): { value: string, maxAge: number } | undefined {
  const cookie = headers.getSetCookie().find((c) => c.startsWith('sid='))
  if (!cookie) return undefined
  return { value: cookie.split(';')[0].slice('sid='.length), maxAge: Number(/Max-Age=(\d+)/.exec(cookie)?.[1]) }
}

const sweep = (service: TestService) => runHousekeeping(service.context, service.clock.now())

test('a new session, from POST /session or the index, expires 24 hours after it was made, and its sid cookie lasts as long', async (t) => {
  const service = await build(t)
  const client = service.client()
  const granted = await client.post('/session')
  assert.equal(Date.parse(granted.body.expires_at), Date.parse(DEFAULT_NOW) + DAY * 1000)
  assert.equal(sidCookie(granted.headers)?.maxAge, DAY)
  const index = await client.get('')
  assert.equal(sidCookie(index.headers)?.maxAge, DAY)
  for (const row of await sessionRows(service)) assert.equal(Date.parse(row.expires_at), Date.parse(DEFAULT_NOW) + DAY * 1000)
})

test('1,000 cookie-less index reads leave no session rows after the sweep once a day has passed', async (t) => {
  const service = await build(t)
  const client = service.client()
  for (let batch = 0; batch < 20; batch++) {
    const answers = await Promise.all(Array.from({ length: 50 }, () => client.get('')))
    assert.ok(answers.every((res) => res.status === 200))
  }
  assert.equal((await sessionRows(service)).length, 1000, 'each cookie-less read made a session')

  service.clock.advance({ hours: 23, minutes: 59 })
  assert.equal((await sweep(service)).deletedSessions, 0, 'nothing goes before its day is up')
  service.clock.advance({ minutes: 1 })
  assert.equal((await sweep(service)).deletedSessions, 1000)
  assert.deepEqual(await sessionRows(service), [])
})

test('a hold makes its session last 30 days from the hold: the sid cookie that named it comes back with that Max-Age, and a sweep days later keeps it',
  async (t) => {
    const service = await build(t)
    const client = service.client()
    const granted = await client.session()
    service.clock.advance({ hours: 2 })
    const held = await client.post('/booking', HOLD, { headers: { cookie: `sid=${granted.session}`, 'x-csrf-token': granted.csrf } })
    assert.equal(held.status, 200, held.text)
    assert.deepEqual(sidCookie(held.headers), { value: granted.session, maxAge: 30 * DAY })
    const [row] = await sessionRows(service)
    assert.equal(Date.parse(row.expires_at), service.clock.now().epochMilliseconds + 30 * DAY * 1000)

    service.clock.advance({ hours: 24 * 10 })
    assert.equal((await sweep(service)).deletedSessions, 0)
    const again = await client.post('/session', undefined, { headers: { 'x-session': granted.session } })
    assert.equal(again.body.session, granted.session, 'ten days on, the session is still live')
    assert.equal(Date.parse(again.body.expires_at), Date.parse(row.expires_at), 'and POST /session tells its real expiry')
  })

test('a hold from a session named by X-Session sends no cookie: the browser keeps whatever cookie it has', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  const held = await client.post('/booking', HOLD, { headers: s.headers })
  assert.equal(held.status, 200, held.text)
  assert.equal(sidCookie(held.headers), undefined)
})

test('a refused hold leaves the session at its first day, cookie and all', async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  const refused = await client.post('/booking', { ...HOLD, party: 11 }, { headers: { cookie: `sid=${s.session}`, 'x-csrf-token': s.csrf } })
  assert.equal(refused.status, 422)
  assert.equal(sidCookie(refused.headers), undefined)
  const [row] = await sessionRows(service)
  assert.equal(Date.parse(row.expires_at), Date.parse(DEFAULT_NOW) + DAY * 1000)
})
