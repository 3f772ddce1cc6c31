import assert from 'node:assert/strict'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { TestContext } from 'node:test'
import { Webhook } from 'standardwebhooks'

export interface Received {
  headers: IncomingHttpHeaders
  body: string
  event: any
}

/**
 * A webhook receiver on 127.0.0.1 that verifies every message with the reference
 * implementation (the standardwebhooks package), with each secret it is told to trust, and
 * answers what `answer` says (200 by default).
 */
export async function receiver(t: TestContext, options: { answer?: (n: number) => { status: number, headers?: Record<string, string>, body?: string } } = {}) {
  const received: Received[] = []
  const secrets: string[] = []
  /** For each message: which trusted secrets verified it. */
  const verifiedBy: string[][] = []
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const headers = { 'webhook-id': String(request.headers['webhook-id']), 'webhook-timestamp': String(request.headers['webhook-timestamp']), 'webhook-signature': String(request.headers['webhook-signature']) }
      verifiedBy.push(secrets.filter((secret) => {
        try {
          new Webhook(secret).verify(body, headers)
          return true
        } catch {
          return false
        }
      }))
      received.push({ headers: request.headers, body, event: JSON.parse(body) })
      const { status, headers: answerHeaders, body: answer } = options.answer?.(received.length) ?? { status: 200 }
      response.writeHead(status, answerHeaders).end(answer)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    verifiedBy,
    trust(secret: string) { secrets.push(secret) },
    /** Every message so far verified with at least one trusted secret. */
    assertAllVerified() {
      verifiedBy.forEach((by, i) => assert.ok(by.length > 0, `message ${i + 1} (${received[i].headers['webhook-id']}) did not verify`))
    },
  }
}
