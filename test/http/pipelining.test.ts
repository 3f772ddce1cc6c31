import assert from 'node:assert/strict'
import net from 'node:net'
import { test } from 'node:test'
import { build, type TestService } from '../helpers/build.ts'
import { BASE, HOLD, visitor } from '../security/raw-http.ts'

// Pipelined requests (RFC 9112 §9.3.2): several requests written at once on one connection.
// Once one of them is not safe, each is processed after those before it are answered.

interface Answer { status: number, body: any }

/** Writes `requests` in one write on one connection and reads the answers, in order, until the server closes it. */
function pipelined(service: TestService, requests: string[]): Promise<Answer[]> {
  const url = new URL(service.origin)
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(requests.join('')))
    const parts: Buffer[] = []
    socket.on('data', (part: Buffer) => parts.push(part))
    socket.on('error', reject)
    socket.on('close', () => {
      let rest = Buffer.concat(parts)
      const answers: Answer[] = []
      while (rest.length > 0) {
        const split = rest.indexOf('\r\n\r\n')
        const head = rest.subarray(0, split).toString('latin1')
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0)
        const body = rest.subarray(split + 4, split + 4 + length).toString('utf8')
        answers.push({ status: Number(head.split(' ')[1]), body: body === '' ? '' : JSON.parse(body) })
        rest = rest.subarray(split + 4 + length)
      }
      resolve(answers)
    })
  })
}

function request(method: string, path: string, headers: Record<string, string>, body?: unknown): string {
  const text = body === undefined ? '' : JSON.stringify(body)
  const lines = Object.entries({ host: '127.0.0.1', ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }) })
  return `${method} ${path} HTTP/1.1\r\n${lines.map(([name, value]) => `${name}: ${value}`).join('\r\n')}\r\n\r\n${text}`
}

test('POST /booking then GET /booking in one write: the read sees the hold, and the answers come in order', async (t) => {
  const service = await build(t)
  const guest = await visitor(service)
  const answers = await pipelined(service, [
    request('POST', `${BASE}/booking`, guest.headers, HOLD),
    request('GET', `${BASE}/booking`, guest.headers),
    request('DELETE', `${BASE}/booking`, guest.headers),
    request('GET', `${BASE}/booking`, { ...guest.headers, connection: 'close' }),
  ])
  assert.deepEqual(answers.map((a) => a.status), [200, 200, 200, 404])
  assert.equal(answers[0].body.status, 'held')
  assert.equal(answers[1].body.id, answers[0].body.id, 'the read after the write sees it')
  assert.equal(answers[1].body.status, 'held')
  assert.equal(answers[2].body.status, 'released')
})

test('safe requests pipelined together are all answered, in order', async (t) => {
  const service = await build(t)
  const answers = await pipelined(service, [
    request('GET', `${BASE}/tours`, {}),
    request('GET', `${BASE}/tours/alfama-walk`, {}),
    request('GET', `${BASE}/tours/nope`, { connection: 'close' }),
  ])
  assert.deepEqual(answers.map((a) => a.status), [200, 200, 404])
  assert.equal(answers[1].body.id, 'alfama-walk')
})
