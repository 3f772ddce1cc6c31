import assert from 'node:assert/strict'
import { once } from 'node:events'
import { connect, type Socket } from 'node:net'
import { test } from 'node:test'
import { setTimeout } from 'node:timers/promises'
import { STREAM_BEHIND_LIMIT_MS, STREAM_LIMITS, STREAM_POLL_MS } from '../../src/admin/event-stream.ts'
import type { TestService } from '../helpers/build.ts'
import { apiKeyClient } from '../helpers/operator.ts'
import { keyOf, operatorService } from './bookings-fixtures.ts'
import { openStream } from './stream-client.ts'

// Issue 24, item 7: streams respect their socket's backpressure, a stream that stays behind is
// closed, and the streams open at once are capped per staff member or key and per node.

/** A stream whose reader takes its answer's head and then nothing more: the socket stays paused, as a stalled browser's would. */
async function stalledStream(service: TestService, bearer: string) {
  const socket: Socket = connect(Number(new URL(service.origin).port), '127.0.0.1')
  socket.write(`GET /admin/api/lisbon/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${bearer}\r\nAccept: text/event-stream\r\n\r\n`)
  const [head] = await once(socket, 'data') as [Buffer]
  socket.pause()
  return { status: head.toString('latin1').split(' ')[1], socket }
}

/** Contact messages of 5,000 three-byte characters, each about 15 kB as an event: `count` of them is more than any socket buffer holds. */
async function largeContactMessages(service: TestService, count: number): Promise<void> {
  const client = service.client()
  let next = 0
  const sender = async () => {
    for (let i = next++; i < count; i = next++) {
      const res = await client.post('/contact', { message: `${i} ${'€'.repeat(4990)}`, name: 'Ana Silva', email: 'ana@example.pt' })
      assert.equal(res.status, 200, res.text)
    }
  }
  await Promise.all(Array.from({ length: 8 }, sender))
}

test('a stalled reader does not hold up other streams, and its stream is closed once it has stayed behind', async (t) => {
  const { service } = await operatorService(t)
  const stalledKey = await apiKeyClient(service, 'viewer')
  const stalled = await stalledStream(service, stalledKey.secret)
  t.after(() => stalled.socket.destroy())
  assert.equal(stalled.status, '200')
  // The key's other streams: while the stalled one is open they fill the key's cap, so a
  // stream more is refused until the node has closed the stalled one.
  const others = []
  for (let i = 1; i < STREAM_LIMITS.perCredential; i++) others.push(await openStream(stalledKey.client))
  for (const other of others) t.after(other.close)
  const reader = others[0]

  const count = 400
  await largeContactMessages(service, count)
  for (let i = 0; i < count; i++) {
    const message = await reader.nextWithin()
    assert.equal(message!.data.type, 'contact.received', 'a reading stream gets every message while another stalls')
  }
  assert.equal((await openStream(stalledKey.client)).response.status, 429, 'the stalled stream is still open')

  // It went behind at some instant of the injected clock: moving the clock past the limit
  // lets the hub's next tick close it, which frees its place under the key's cap.
  const deadline = performance.now() + 20_000
  let probe = await openStream(stalledKey.client)
  while (probe.response.status === 429 && performance.now() < deadline) {
    service.clock.advance({ milliseconds: STREAM_BEHIND_LIMIT_MS })
    await setTimeout(STREAM_POLL_MS / 5) // polling for the condition, a fraction of a tick at a time
    probe = await openStream(stalledKey.client)
  }
  t.after(probe.close)
  assert.equal(probe.response.status, 200, 'the stalled stream was closed')
})

test('one key may hold 10 streams at once; the next is 429 too_many_streams, another key is not affected', async (t) => {
  const { service } = await operatorService(t)
  const key = await keyOf(service, 'viewer')
  const streams = []
  for (let i = 0; i < STREAM_LIMITS.perCredential; i++) streams.push(await openStream(key))
  for (const stream of streams) t.after(stream.close)
  assert.deepEqual(streams.map((s) => s.response.status), Array(STREAM_LIMITS.perCredential).fill(200))

  const refused = await openStream(key)
  assert.equal(refused.response.status, 429)
  assert.match(refused.response.headers.get('content-type')!, /^application\/problem\+json/)
  assert.equal(refused.problem.code, 'too_many_streams')
  const other = await openStream(await keyOf(service, 'viewer'))
  t.after(other.close)
  assert.equal(other.response.status, 200)

  streams[0].close()
  let reopened = await openStream(key)
  // The server learns of the close when its socket does; until then the key still holds 10.
  while (reopened.response.status === 429) reopened = await openStream(key)
  t.after(reopened.close)
  assert.equal(reopened.response.status, 200)
})

test('a node serves at most 200 streams: the next one is 429 too_many_streams', async (t) => {
  const { service } = await operatorService(t)
  const keys = await Promise.all(Array.from({ length: STREAM_LIMITS.perNode / STREAM_LIMITS.perCredential }, () => apiKeyClient(service, 'viewer')))
  const streams = await Promise.all(keys.flatMap(({ client }) => Array.from({ length: STREAM_LIMITS.perCredential }, () => openStream(client))))
  for (const stream of streams) t.after(stream.close)
  assert.equal(streams.filter((s) => s.response.status === 200).length, STREAM_LIMITS.perNode)

  const refused = await openStream((await apiKeyClient(service, 'viewer')).client)
  assert.equal(refused.response.status, 429)
  assert.equal(refused.problem.code, 'too_many_streams')
  assert.match(refused.problem.detail, /node/)
})
