import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { Webhook } from 'standardwebhooks'

/**
 * How the receiver treats what arrives: `accept` answers 200, `refuse` is not listening at
 * all (connections are refused), `hang` never answers (the sender's 15 s timeout ends the
 * attempt), `slow-503` answers 503 with Retry-After: 1 after `slowMs`.
 */
export type ReceiverMode = 'accept' | 'refuse' | 'hang' | 'slow-503'

/** What the receiver saw of one webhook-id. */
export interface Receipts {
  /** Every POST carrying it, whatever the answer. */
  received: number
  /** Answered 2xx: the receiver took the event (a second one is a duplicate it would process twice). */
  accepted: number
  firstAcceptedAt: number | null
}

export interface ReceiverOptions {
  /** How long `slow-503` holds a request before answering. */
  slowMs?: number
  /** Called with each request as it arrives (before it is answered), e.g. to act while it is in flight. */
  onRequest?: (id: string, remotePort: number) => void
}

/**
 * A webhook receiver on 127.0.0.1, as an integration would run one: every POST is verified
 * with the Standard Webhooks reference package (`standardwebhooks`) against the endpoint's
 * secret, and a message that does not verify is answered 401 and counted. It keeps one port
 * for its whole life, going down (`refuse`) and coming back on the same one.
 */
export async function startWebhookReceiver(options: ReceiverOptions = {}) {
  const slowMs = options.slowMs ?? 1500
  const byId = new Map<string, Receipts>()
  const unverified: string[] = []
  let verifier: Webhook | null = null
  let mode: ReceiverMode = 'accept'
  let acceptedTotal = 0
  /** Webhook-ids accepted at least once. */
  let distinct = 0
  /** Requests received and not yet answered (hung or slowed). */
  const inFlight = new Set<ServerResponse>()
  const sockets = new Set<Socket>()
  const acceptedWaiters: Array<{ count: number, resolve: () => void }> = []

  function handle(request: IncomingMessage, response: ServerResponse, body: string): void {
    const headers = { 'webhook-id': String(request.headers['webhook-id']), 'webhook-timestamp': String(request.headers['webhook-timestamp']), 'webhook-signature': String(request.headers['webhook-signature']) }
    const id = headers['webhook-id']
    const receipts = byId.get(id) ?? { received: 0, accepted: 0, firstAcceptedAt: null }
    byId.set(id, receipts)
    receipts.received++
    options.onRequest?.(id, request.socket.remotePort ?? 0)
    try {
      if (!verifier) throw new Error('no secret to verify with yet')
      verifier.verify(body, headers)
    } catch (err) {
      unverified.push(`${id}: ${(err as Error).message}`)
      response.writeHead(401).end()
      return
    }
    if (mode === 'hang') {
      inFlight.add(response)
      response.on('close', () => inFlight.delete(response))
      return
    }
    if (mode === 'slow-503') {
      inFlight.add(response)
      const timer = setTimeout(() => {
        inFlight.delete(response)
        if (!response.destroyed) response.writeHead(503, { 'retry-after': '1' }).end()
      }, slowMs)
      response.on('close', () => {
        clearTimeout(timer)
        inFlight.delete(response)
      })
      return
    }
    // Counted as taken once the answer is written: a sender that loses it (its node killed, the
    // connection cut) sends the event again, and the receiver sees a duplicate, as at-least-once allows.
    response.writeHead(200).end()
    if (receipts.accepted++ === 0) {
      receipts.firstAcceptedAt = performance.now()
      distinct++
    }
    acceptedTotal++
    for (const waiter of acceptedWaiters.splice(0)) {
      if (distinct >= waiter.count) waiter.resolve()
      else acceptedWaiters.push(waiter)
    }
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => handle(request, response, Buffer.concat(chunks).toString('utf8')))
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })

  const listen = (port: number) => new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const close = () => new Promise<void>((resolve) => {
    server.close(() => resolve())
    for (const socket of sockets) socket.destroy()
  })

  await listen(0)
  const { port } = server.address() as { port: number }

  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    byId,
    /** Messages that did not verify, with why. */
    unverified,
    trust(secret: string) { verifier = new Webhook(secret) },
    get mode() { return mode },
    /** Requests held unanswered right now. */
    inFlightCount: () => inFlight.size,
    acceptedTotal: () => acceptedTotal,
    distinctAccepted: () => distinct,
    /** Changes how the receiver answers; going to or from `refuse` stops or restarts listening on the same port. */
    async setMode(next: ReceiverMode): Promise<void> {
      if (next === mode) return
      if (next === 'refuse') {
        await close()
      } else if (mode === 'refuse') {
        await listen(port)
      }
      mode = next
    },
    /** Resolves once `count` distinct webhook-ids have been accepted. */
    acceptedAtLeast(count: number): Promise<void> {
      if (distinct >= count) return Promise.resolve()
      return new Promise((resolve) => acceptedWaiters.push({ count, resolve }))
    },
    async stop(): Promise<void> {
      if (mode !== 'refuse') await close()
    },
  }
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>
