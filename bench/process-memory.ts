import { readFileSync } from 'node:fs'

/** Resident memory of one process from /proc (Linux); null where /proc is not available. */
export interface ProcessMemory {
  rssBytes: number
  /** VmHWM: the highest resident size the process has had since it started. */
  peakBytes: number
}

export function readProcessMemory(pid: number): ProcessMemory | null {
  let status: string
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8')
  } catch {
    return null
  }
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024
  const rssBytes = kib('VmRSS')
  const peakBytes = kib('VmHWM')
  return Number.isFinite(rssBytes) && Number.isFinite(peakBytes) ? { rssBytes, peakBytes } : null
}
