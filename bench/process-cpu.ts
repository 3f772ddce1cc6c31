import { readFileSync } from 'node:fs'

/** The kernel's clock ticks per second, in which /proc/PID/stat counts CPU time (USER_HZ: 100 on every Linux build in use). */
const TICKS_PER_SECOND = 100

/**
 * The CPU time (user + system) one process has used so far, from /proc (Linux); null where
 * /proc is not available. On a shared machine this, divided by the requests served, tells what
 * a request costs where req/s tells mostly how busy the neighbours are.
 */
export function readProcessCpuMs(pid: number): number | null {
  return readCpuMs(`/proc/${pid}/stat`)
}

/**
 * The CPU time of a process's main thread alone: the one that runs JavaScript, and so bounds a
 * Node.js service's throughput, without its helper threads (fsync in libuv's pool, the garbage
 * collector's and the compiler's), which run on whatever core is free.
 */
export function readMainThreadCpuMs(pid: number): number | null {
  return readCpuMs(`/proc/${pid}/task/${pid}/stat`)
}

function readCpuMs(path: string): number | null {
  let stat: string
  try {
    stat = readFileSync(path, 'utf8')
  } catch {
    return null
  }
  // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const [utime, stime] = [Number(fields[11]), Number(fields[12])]
  return Number.isFinite(utime) && Number.isFinite(stime) ? ((utime + stime) * 1000) / TICKS_PER_SECOND : null
}
