import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, type TestService } from '../helpers/build.ts'
import { checked, operatorContract } from '../helpers/operator-contract.ts'
import { apiKeyClient, OperatorClient, signedInStaff } from '../helpers/operator.ts'

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
  assert.deepEqual(readerKey.target, { type: 'api_key', id: readerKeyId })
  assert.deepEqual({ ...changed, id: undefined }, {
    id: undefined,
    at: '2026-06-03T12:00:00+01:00',
    actor: maria,
    action: 'staff.changed',
    target: { type: 'staff', id: guide.id },
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
