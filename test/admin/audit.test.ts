import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, type TestService } from '../helpers/build.ts'
import { checked, operatorContract } from '../helpers/operator-contract.ts'
import { apiKeyClient, OperatorClient, signedInStaff } from '../helpers/operator.ts'
import { ALFAMA_TUE, guestBooking, keyOf } from './bookings-fixtures.ts'
import { departurePath } from './departures-fixtures.ts'

// GET /audit over real HTTP. Lisbon is at +01:00 in June; the clock is set for each change.
const LISBON = 'lx4t7k2m'
const SYSTEM = { type: 'system' as const, id: null, name: 'test' }

/** Four changes at known times, by the system and by a manager, plus one in New York. */
async function seed(service: TestService) {
  const { staff } = service.context
  service.clock.set('2026-06-01T08:00:00Z')
  const manager = await staff.addStaff(LISBON, { email: 'maria@example.pt', name: 'Maria', role: 'manager', password: 'correct horse battery staple' }, SYSTEM, service.clock.now())
  const maria = { type: 'staff' as const, id: manager.staff.id, name: 'Maria' }
  // 00:30 on 2 June in Lisbon, still 1 June in UTC.
  service.clock.set('2026-06-01T23:30:00Z')
  const key = await staff.createKey(LISBON, { name: 'Website', role: 'viewer' }, maria, service.clock.now(), 'req-1')
  service.clock.set('2026-06-03T10:00:00Z')
  const guide = await staff.addStaff(LISBON, { email: 'rui@example.pt', name: 'Rui', role: 'guide' }, maria, service.clock.now(), 'req-2')
  service.clock.set('2026-06-03T11:00:00Z')
  await staff.updateStaff(LISBON, guide.staff.id, { role: 'staff' }, maria, service.clock.now(), 'req-3')
  service.clock.set('2026-06-03T11:30:00Z')
  await staff.addStaff('ny8h3p5r', { email: 'nyc@example.com', name: 'NY', role: 'manager' }, SYSTEM, service.clock.now())
  service.clock.set('2026-06-03T12:00:00Z')
  const viewer = await apiKeyClient(service, 'viewer')
  return { maria, key: key.key, guide: guide.staff, reader: checked(viewer.client, await operatorContract(service)), readerKeyId: viewer.key.id }
}

const actions = (body: { entries: Array<{ action: string }> }) => body.entries.map((e) => e.action)

test('the audit log lists every change, newest first, with actor, target, before and after and the request id', async (t) => {
  const service = await build(t)
  const { maria, key, guide, reader, readerKeyId } = await seed(service)
  const res = await reader.get('/audit')
  assert.equal(res.status, 200, res.text)
  assert.equal(res.body.next_cursor, null)
  assert.deepEqual(actions(res.body), ['api_key.created', 'staff.changed', 'staff.added', 'api_key.created', 'staff.added'])
  const [readerKey, changed, added, created, first] = res.body.entries
  assert.deepEqual(readerKey.target, { type: 'api_key', id: readerKeyId, ref: 'viewer key' })
  assert.deepEqual({ ...changed, id: undefined }, {
    id: undefined,
    at: '2026-06-03T12:00:00+01:00',
    actor: maria,
    action: 'staff.changed',
    target: { type: 'staff', id: guide.id, ref: 'rui@example.pt' },
    before: { role: 'guide', disabled: false },
    after: { role: 'staff', disabled: false },
    request_id: 'req-3',
  })
  assert.deepEqual(added.after, { email: 'rui@example.pt', name: 'Rui', role: 'guide' })
  assert.equal(added.before, null)
  assert.deepEqual([created.at, created.target.id, created.after.prefix.length], ['2026-06-02T00:30:00+01:00', key.id, 8])
  assert.deepEqual([first.actor, first.request_id], [{ type: 'system', id: null, name: 'test' }, null])
})

test('the audit log filters by local date or instant, by actor id or type, and by action', async (t) => {
  const service = await build(t)
  const { maria, reader } = await seed(service)
  const get = async (query: string) => {
    const res = await reader.get(`/audit?${query}`)
    assert.equal(res.status, 200, `${query}: ${res.text}`)
    return actions(res.body)
  }
  assert.deepEqual(await get('to=2026-06-01'), ['staff.added'], "to a date takes that whole day in Lisbon's time")
  assert.deepEqual(await get('from=2026-06-02&to=2026-06-02'), ['api_key.created'], '00:30 local on 2 June belongs to 2 June')
  assert.deepEqual(await get('from=2026-06-03T12:00:00%2B01:00'), ['api_key.created', 'staff.changed'], 'an instant is an inclusive from')
  assert.deepEqual(await get('to=2026-06-03T11:00:00Z'), ['staff.added', 'api_key.created', 'staff.added'], 'and an exclusive to')
  assert.deepEqual(await get(`actor=${maria.id}`), ['staff.changed', 'staff.added', 'api_key.created'])
  assert.deepEqual(await get('actor=system'), ['api_key.created', 'staff.added'])
  assert.deepEqual(await get('action=staff.added'), ['staff.added', 'staff.added'])
  assert.deepEqual(await get(`action=staff.added&actor=${maria.id}`), ['staff.added'])
  assert.deepEqual(await get('action=booking.confirmed'), [])
  for (const query of ['from=yesterday', 'to=2026-13-01', 'from=2026-06-01T10:00:00', 'cursor=%7B%7D', 'limit=0', 'colour=blue']) {
    const res = await reader.get(`/audit?${query}`)
    assert.equal(res.status, 400, query)
    assert.equal(res.body.code, 'validation_failed')
  }
})

test('the audit log pages with limit and cursor, and shows one instance only', async (t) => {
  const service = await build(t)
  const { reader } = await seed(service)
  const seen: string[] = []
  let cursor: string | null = null
  let pages = 0
  do {
    const page: any = await reader.get(`/audit?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
    assert.equal(page.status, 200, page.text)
    seen.push(...actions(page.body))
    cursor = page.body.next_cursor
    pages++
  } while (cursor)
  assert.equal(pages, 3)
  assert.deepEqual(seen, ['api_key.created', 'staff.changed', 'staff.added', 'api_key.created', 'staff.added'])
  assert.ok(!JSON.stringify(seen).includes('nyc@example.com'))
  service.clock.advance({ minutes: 1 })
  const nyc = await apiKeyClient(service, 'viewer', 'nyc')
  assert.deepEqual(actions((await nyc.client.get('/audit')).body), ['api_key.created', 'staff.added'])
})

test('viewers, staff and managers read the audit log; a guide may not; no credential is 401', async (t) => {
  const service = await build(t)
  const contract = await operatorContract(service)
  for (const role of ['viewer', 'staff', 'manager'] as const) {
    assert.equal((await checked((await signedInStaff(service, role)).client, contract).get('/audit')).status, 200, role)
  }
  const guide = await checked((await apiKeyClient(service, 'guide')).client, contract).get('/audit')
  assert.equal(guide.status, 403)
  assert.equal(guide.body.code, 'forbidden')
  assert.equal((await checked((await signedInStaff(service, 'guide')).client, contract).get('/audit')).status, 403)
  assert.equal((await checked(new OperatorClient(service.origin, 'lisbon'), contract).get('/audit')).status, 401)
})

test('each entry names its target as people know it; ?booking= lists one booking\'s entries by code or id; older entries still read', async (t) => {
  const service = await build(t)
  const manager = await keyOf(service, 'manager')
  const staff = await keyOf(service, 'staff')
  const { booking } = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 2 })
  const other = await guestBooking(service, { tour_id: 'alfama-walk', start: ALFAMA_TUE, party: 1 }, { name: 'Rui Costa', email: 'rui@example.pt' })
  assert.equal((await staff.patch(`/bookings/${booking.code}`, { internal_note: 'vegetarian' })).status, 200)
  assert.equal((await staff.patch(`/bookings/${other.booking.code}`, { internal_note: 'late' })).status, 200)
  assert.equal((await staff.post(`/bookings/${booking.code}/cancel`, { reason: 'asked by phone' })).status, 200)
  assert.equal((await staff.patch(departurePath('alfama-walk', ALFAMA_TUE), { capacity: 20 })).status, 200)
  const rita = await manager.post('/staff', { email: 'Rita@Example.PT', name: 'Rita Guide', role: 'guide' })
  assert.equal(rita.status, 201, rita.text)
  assert.equal((await manager.post('/api-keys', { name: 'Website sync', role: 'viewer' })).status, 201)
  // An entry as written before references were kept.
  await service.context.store.db.insertInto('audit_log').values({
    instance_id: LISBON, id: '00000000-0000-7000-8000-000000000000', at: '2026-05-01T08:00:00.000Z', actor_type: 'system', actor_id: null, actor_name: 'cli',
    action: 'booking.changed', target_type: 'booking', target_id: booking.id, before: null, after: JSON.stringify({ internal_note: 'old' }), request_id: null,
  } as never).execute()

  const entries = (await manager.get('/audit')).body.entries as Array<{ action: string, target: { type: string, id: string, ref: string | null } }>
  const refOf = (action: string) => entries.filter((e) => e.action === action).map((e) => e.target.ref)
  assert.deepEqual(refOf('booking.changed'), [other.booking.code, booking.code, null], 'the oldest entry has none')
  assert.deepEqual(refOf('booking.cancelled'), [booking.code])
  assert.deepEqual(refOf('departure.changed'), ['Alfama & Mouraria Walking Tour, 2026-06-02T09:30:00+01:00'])
  assert.deepEqual(refOf('staff.added'), ['rita@example.pt'])
  assert.deepEqual(refOf('api_key.created').slice(0, 1), ['Website sync'])
  assert.ok(entries.every((e) => typeof e.target.id === 'string' && e.target.id.length > 0), 'the id stays beside the reference')

  const about = await manager.get(`/audit?booking=${booking.code}`)
  assert.equal(about.status, 200, about.text)
  assert.deepEqual(about.body.entries.map((e: { action: string }) => e.action), ['booking.cancelled', 'booking.changed', 'booking.changed'])
  assert.ok(about.body.entries.every((e: { target: { id: string } }) => e.target.id === booking.id), "that booking's only, the old entry among them")
  assert.deepEqual((await manager.get(`/audit?booking=${booking.id}&action=booking.cancelled`)).body.entries.length, 1)
  assert.deepEqual((await manager.get('/audit?booking=NOSUCH')).body.entries, [])
  assert.equal((await manager.get('/audit?booking=')).status, 400)
})
