/** Reads a V8 .cpuprofile (as `node --cpu-prof` writes it) into self time per area and per function. */
interface ProfileNode {
  id: number
  callFrame: { functionName: string, url: string, lineNumber: number }
  children?: number[]
}

export interface CpuProfile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

export interface TimeShare {
  name: string
  ms: number
  share: number
}

export interface ProfileSummary {
  totalMs: number
  /** Self time by package, source file or runtime bucket (idle, GC, native calls). */
  byArea: TimeShare[]
  byFunction: TimeShare[]
  /** Time with a function of src/ on the stack (callees included), each sample counted once per function. */
  inclusiveOurs: TimeShare[]
}

/** Where a frame's code lives: an npm package, a file of ours, a part of Node, or a V8 bucket. */
export function areaOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : `native ${functionName}()`
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)
  if (pkg) return pkg[1]
  const ours = /\/((?:src|bench)\/.+)$/.exec(url)
  if (ours) return ours[1]
  if (url.startsWith('node:')) return url.split('/').slice(0, 2).join('/')
  return url
}

function ranked(times: Map<string, number>, totalMs: number, top: number): TimeShare[] {
  return [...times].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, ms]) => ({ name, ms, share: ms / totalMs }))
}

export function summarizeProfile(profile: CpuProfile, top = 20): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parentOf = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id)
  const ours = new Map<string, number>()
  const areas = new Map<string, number>()
  const functions = new Map<string, number>()
  let totalUs = 0
  profile.samples.forEach((id, i) => {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame
    const us = profile.timeDeltas[i] ?? 0
    totalUs += us
    const area = areaOf(url, functionName)
    areas.set(area, (areas.get(area) ?? 0) + us / 1000)
    const name = url === '' ? area : `${functionName || '(anonymous)'} ${area}:${lineNumber + 1}`
    functions.set(name, (functions.get(name) ?? 0) + us / 1000)
    const onStack = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const frame = byId.get(at)!.callFrame
      if (frame.url.includes('/src/')) onStack.add(`${frame.functionName || '(anonymous)'} ${areaOf(frame.url, frame.functionName)}:${frame.lineNumber + 1}`)
    }
    for (const key of onStack) ours.set(key, (ours.get(key) ?? 0) + us / 1000)
  })
  const totalMs = totalUs / 1000
  return { totalMs, byArea: ranked(areas, totalMs, top), byFunction: ranked(functions, totalMs, top), inclusiveOurs: ranked(ours, totalMs, top) }
}
