import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'

/** Methods RFC 9110 §9.2.1 calls safe: they change nothing, so their order does not matter. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE'])

interface Connection {
  inFlight: number
  unsafeInFlight: number
  /** Settles once every request that arrived so far on the connection has been answered. */
  settled: Promise<void>
}

/**
 * Node's server runs the handlers of pipelined requests together (it only sends the answers
 * in order), so a POST /booking followed on the same connection by GET /booking read before
 * the write was done. RFC 9112 §9.3.2 allows processing pipelined requests in parallel only
 * when all are safe: once a request that is not is among a connection's requests in flight,
 * each one waits until those before it are answered.
 */
export function processPipelinedInOrder(app: FastifyInstance): void {
  const connections = new WeakMap<Socket, Connection>()
  app.addHook('onRequest', (request, reply, done) => {
    const socket = request.raw.socket
    let connection = connections.get(socket)
    if (!connection) {
      connection = { inFlight: 0, unsafeInFlight: 0, settled: Promise.resolve() }
      connections.set(socket, connection)
    }
    const state = connection
    const unsafe = !SAFE_METHODS.has(request.method)
    const mustWait = state.inFlight > 0 && (unsafe || state.unsafeInFlight > 0)
    const before = state.settled
    const answered = new Promise<void>((resolve) => {
      reply.raw.once('close', () => {
        state.inFlight--
        if (unsafe) state.unsafeInFlight--
        resolve()
      })
    })
    state.settled = state.inFlight === 0 ? answered : before.then(() => answered)
    state.inFlight++
    if (unsafe) state.unsafeInFlight++
    if (mustWait) void before.then(() => done())
    else done()
  })
}
