import { connect, type Socket } from 'node:net'

/**
 * Slowloris: `headers` clients send a request's headers a byte at a time and never finish
 * them; `body` clients send complete headers announcing a body, then the body a byte at a
 * time. Both keep a connection of the server busy for as long as it lets them.
 */
export type SlowKind = 'headers' | 'body'

interface SlowSocket {
  kind: SlowKind
  socket: Socket
  closed: boolean
  /** From connecting to the server closing the connection, in milliseconds. */
  heldMs?: number
  timer?: NodeJS.Timeout
}

const OPEN_BATCH = 50

function script(kind: SlowKind, host: string): { preamble: string, trickle: string } {
  if (kind === 'headers') {
    return { preamble: '', trickle: `POST /api/lisbon/booking HTTP/1.1\r\nHost: ${host}\r\nX-Padding: ${'a'.repeat(16_000)}` }
  }
  return {
    preamble: `POST /api/lisbon/contact HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n`,
    trickle: `{"message":"${'a'.repeat(59_980)}`,
  }
}

export class SlowClients {
  private readonly sockets: SlowSocket[] = []

  constructor(private readonly port: number, private readonly byteEveryMs: number) {}

  /** Opens `count` clients of each kind, a batch at a time, and starts them trickling. */
  async open(countPerKind: number): Promise<void> {
    const kinds: SlowKind[] = []
    for (let i = 0; i < countPerKind; i++) kinds.push('headers', 'body')
    for (let i = 0; i < kinds.length; i += OPEN_BATCH) {
      await Promise.all(kinds.slice(i, i + OPEN_BATCH).map((kind) => this.openOne(kind)))
    }
  }

  private async openOne(kind: SlowKind): Promise<void> {
    const socket = connect(this.port, '127.0.0.1')
    const slow: SlowSocket = { kind, socket, closed: false }
    this.sockets.push(slow)
    const began = performance.now()
    socket.on('error', () => {})
    // Reading the answer lets the server's FIN close the socket, so `closed` means the
    // server has let go; the bytes trickle on regardless, as an attacker's would.
    socket.resume()
    socket.on('close', () => {
      slow.closed = true
      slow.heldMs = performance.now() - began
      clearInterval(slow.timer)
    })
    await new Promise<void>((resolve) => {
      socket.once('connect', resolve)
      socket.once('close', () => resolve())
    })
    if (slow.closed) return
    const { preamble, trickle } = script(kind, `127.0.0.1:${this.port}`)
    if (preamble) socket.write(preamble)
    let sent = 0
    // Spread the clients' bytes over the interval rather than sending them all at once.
    const first = setTimeout(() => {
      slow.timer = setInterval(() => {
        if (sent < trickle.length) socket.write(trickle[sent++])
      }, this.byteEveryMs)
    }, Math.random() * this.byteEveryMs)
    socket.once('close', () => clearTimeout(first))
  }

  /** Clients of each kind the server has not closed yet. */
  stillOpen(): Record<SlowKind, number> {
    const open: Record<SlowKind, number> = { headers: 0, body: 0 }
    for (const s of this.sockets) if (!s.closed) open[s.kind]++
    return open
  }

  /** The longest time the server let a client of that kind keep its connection, among those it closed. */
  longestHeldMs(kind: SlowKind): number | null {
    const held = this.sockets.filter((s) => s.kind === kind && s.heldMs !== undefined).map((s) => s.heldMs!)
    return held.length === 0 ? null : Math.max(...held)
  }

  close(): void {
    for (const s of this.sockets) {
      clearInterval(s.timer)
      s.socket.destroy()
    }
  }
}
