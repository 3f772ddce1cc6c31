import { once } from 'node:events'
import { createServer, connect, type Server, type Socket } from 'node:net'

/**
 * A TCP proxy on a free loopback port in front of another service (PostgreSQL in the
 * outage tests and drills). `cut()` drops every open connection and refuses new ones, as a
 * failed network or a stopped server would; `restore()` lets connections through again.
 */
export class TcpProxy {
  private server: Server | null = null
  private readonly sockets = new Set<Socket>()
  port = 0

  constructor(private readonly targetHost: string, private readonly targetPort: number) {}

  async start(port = 0): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost)
      for (const socket of [client, upstream]) {
        this.sockets.add(socket)
        socket.on('close', () => this.sockets.delete(socket))
        socket.on('error', () => { client.destroy(); upstream.destroy() })
      }
      client.pipe(upstream).pipe(client)
    })
    server.listen(port, '127.0.0.1')
    await once(server, 'listening')
    this.server = server
    this.port = (server.address() as { port: number }).port
  }

  get url(): string {
    return `127.0.0.1:${this.port}`
  }

  async cut(): Promise<void> {
    const server = this.server
    this.server = null
    for (const socket of this.sockets) socket.destroy()
    if (server) await new Promise((resolve) => server.close(resolve))
  }

  /** Listens again on the same port. */
  async restore(): Promise<void> {
    await this.start(this.port)
  }

  async stop(): Promise<void> {
    await this.cut()
  }
}
