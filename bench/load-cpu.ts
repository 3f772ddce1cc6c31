import { measureLoad, type LoadFigures, type LoadSpec } from './load.ts'
import { readMainThreadCpuMs, readProcessCpuMs } from './process-cpu.ts'

/** A load's figures with the CPU time the measured process spent on each request served, in all its threads and in its main thread; null without /proc. */
export type LoadCpuFigures = LoadFigures & { cpuUs: number | null, mainThreadUs: number | null }

/**
 * Runs `spec` against the process `pid`: its warm-up first, on its own, then the measured run
 * between two readings of the process's CPU time, so that only the CPU of the requests counted
 * is divided by them (measureLoad's own warm-up would be counted against the measured requests).
 */
export async function measureLoadCpu(pid: number, spec: LoadSpec): Promise<LoadCpuFigures> {
  if (spec.warmupSeconds > 0) await measureLoad({ ...spec, durationSeconds: spec.warmupSeconds, warmupSeconds: 0 })
  const before = [readProcessCpuMs(pid), readMainThreadCpuMs(pid)]
  const figures = await measureLoad({ ...spec, warmupSeconds: 0 })
  const after = [readProcessCpuMs(pid), readMainThreadCpuMs(pid)]
  const perRequest = (i: number) => {
    const [start, end] = [before[i], after[i]]
    return start === null || end === null ? null : ((end - start) * 1000) / figures.requests
  }
  return { ...figures, cpuUs: perRequest(0), mainThreadUs: perRequest(1) }
}
