import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'

/**
 * Closing the app closes idle keep-alive connections (Fastify's forceCloseConnections
 * 'idle'), but Node counts a connection that has not sent a request yet as neither idle nor
 * busy, so it stays open until the server's headers timeout, about 70 s. Browsers open such
 * connections ahead of need, and a client that abandons a streamed answer can leave one, so a
 * stop (src/server.ts) waited for them and then reported work still in flight. Closing the
 * app destroys them: nothing was asked on them, so nothing is cut short.
 */
export function closeUnusedConnectionsOnClose(app: FastifyInstance): void {
  const unused = new Set<Socket>()
  app.server.on('connection', (socket: Socket) => {
    unused.add(socket)
    socket.once('close', () => unused.delete(socket))
  })
  app.server.on('request', (request: { socket: Socket }) => unused.delete(request.socket))
  app.addHook('preClose', (done) => {
    for (const socket of unused) socket.destroy()
    done()
  })
}
