import assert from 'node:assert/strict'
import { once } from 'node:events'
import { connect } from 'node:net'
import { test } from 'node:test'
import { HEADERS_TIMEOUT_MS } from '../../src/app.ts'
import { build } from '../helpers/build.ts'

test('headers that stop arriving are answered 408 request_timeout as problem+json, and the connection is closed', async (t) => {
  const service = await build(t)
  const socket = connect(Number(new URL(service.origin).port), '127.0.0.1')
  t.after(() => socket.destroy())
  let answer = ''
  socket.on('data', (chunk) => { answer += chunk })
  socket.write('GET /api/lisbon/tours HTTP/1.1\r\nHost: 127.0.0.1\r\n')
  const closed = once(socket, 'close')
  const began = performance.now()
  await closed
  assert.ok(performance.now() - began >= HEADERS_TIMEOUT_MS - 100, 'not before the header timeout')
  const [head, body] = answer.split('\r\n\r\n')
  assert.match(head, /^HTTP\/1\.1 408 /)
  assert.match(head, /content-type: application\/problem\+json/i)
  const problem = JSON.parse(body)
  assert.equal(problem.status, 408)
  assert.equal(problem.code, 'request_timeout')
  assert.match(problem.request_id, /^[0-9a-f-]{36}$/)
})
