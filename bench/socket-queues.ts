import { readFileSync } from 'node:fs'

/** One IPv4 TCP socket of this machine as /proc/net/tcp lists it (Linux). */
interface TcpSocket {
  localPort: number
  remotePort: number
  established: boolean
  /** Bytes sent and not yet acknowledged by the peer. */
  sendQueue: number
  /** Bytes received and not yet read by the process. */
  receiveQueue: number
}

/** /proc/net/tcp's state code of an established connection. */
const ESTABLISHED = '01'

/** Every IPv4 TCP socket; null where /proc/net/tcp is not there. */
function tcpSockets(): TcpSocket[] | null {
  let table: string
  try {
    table = readFileSync('/proc/net/tcp', 'utf8')
  } catch {
    return null
  }
  return table.split('\n').slice(1).filter((line) => line.trim() !== '').map((line) => {
    const [, local, remote, state, queues] = line.trim().split(/\s+/)
    const [send, receive] = queues.split(':')
    const port = (address: string) => Number.parseInt(address.split(':')[1], 16)
    return { localPort: port(local), remotePort: port(remote), established: state === ESTABLISHED, sendQueue: Number.parseInt(send, 16), receiveQueue: Number.parseInt(receive, 16) }
  })
}

/**
 * The bench's connections to a node, by their local ports, as the kernel holds them: how many
 * are still established, and the bytes waiting in both ends' buffers (the node's unacknowledged
 * sends and the bench's unread receipts), which are outside either process's RSS.
 */
export function connectionQueues(nodePort: number, clientPorts: ReadonlySet<number>): { established: number, queuedBytes: number } | null {
  const sockets = tcpSockets()
  if (sockets === null) return null
  let established = 0
  let queuedBytes = 0
  for (const socket of sockets) {
    if (socket.remotePort === nodePort && clientPorts.has(socket.localPort)) {
      if (socket.established) established++
      queuedBytes += socket.receiveQueue
    } else if (socket.localPort === nodePort && clientPorts.has(socket.remotePort)) {
      queuedBytes += socket.sendQueue
    }
  }
  return { established, queuedBytes }
}
