import { readdirSync, readFileSync, readlinkSync } from 'node:fs'

/** The inode of the IPv4 TCP socket bound to 127.0.0.1:`port` on this machine, from /proc/net/tcp; null when none (or not Linux). */
function socketInode(port: number): string | null {
  let table: string
  try {
    table = readFileSync('/proc/net/tcp', 'utf8')
  } catch {
    return null
  }
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`
  for (const line of table.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/)
    if (fields[1] === local) return fields[9]
  }
  return null
}

/**
 * Which of `pids` holds the connection that reaches us from 127.0.0.1:`remotePort` (a node
 * making a webhook attempt): the process with that socket among its open files. Null when it
 * cannot be told (not Linux, or the connection is already gone).
 */
export function ownerOfConnection(remotePort: number, pids: readonly number[]): number | null {
  const inode = socketInode(remotePort)
  if (inode === null) return null
  const link = `socket:[${inode}]`
  for (const pid of pids) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        try {
          if (readlinkSync(`/proc/${pid}/fd/${fd}`) === link) return pid
        } catch {
          // Closed while we looked.
        }
      }
    } catch {
      // The process is gone.
    }
  }
  return null
}
