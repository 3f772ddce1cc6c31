import { readFileSync, writeFileSync } from 'node:fs'

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

/**
 * Starts VmHWM afresh from the current resident size (Linux: `5` to /proc/PID/clear_refs), so
 * that a later peak tells what happened since; false where that is not possible.
 */
export function resetPeakMemory(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
    return true
  } catch {
    return false
  }
}
