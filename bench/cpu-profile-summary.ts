import { readFileSync } from 'node:fs'

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
  /** Time with an area's code on the stack (callees included), each sample counted once per area. */
  inclusiveByArea: TimeShare[]
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

/** Where a line of a bundle came from: its source file, relative to the project (e.g. `/src/notify/email-outbox.ts`). */
export type BundleModules = (line: number) => string | null

/**
 * The source files of an esbuild bundle (scripts/build.ts), from the `// path` comment esbuild
 * writes above each module it inlines: without it every frame of the service is dist/server.js.
 */
export function bundleModules(bundlePath: string): BundleModules {
  const starts: { line: number, path: string }[] = []
  readFileSync(bundlePath, 'utf8').split('\n').forEach((text, index) => {
    const module = /^\/\/ ((?:src|node_modules)\/\S+)$/.exec(text)
    if (module) starts.push({ line: index + 1, path: `/${module[1]}` })
  })
  return (line) => {
    let low = 0
    let high = starts.length - 1
    let found: string | null = null
    while (low <= high) {
      const middle = (low + high) >> 1
      if (starts[middle].line <= line) {
        found = starts[middle].path
        low = middle + 1
      } else {
        high = middle - 1
      }
    }
    return found
  }
}

function ranked(times: Map<string, number>, totalMs: number, top: number): TimeShare[] {
  return [...times].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, ms]) => ({ name, ms, share: ms / totalMs }))
}

/** `bundle` names the bundle file (its URL's end) and its modules, so that its frames count as the sources they came from. */
export function summarizeProfile(profile: CpuProfile, top = 20, bundle?: { file: string, modules: BundleModules }): ProfileSummary {
  const sourceOf = ({ url, lineNumber }: ProfileNode['callFrame']) => (bundle && url.endsWith(bundle.file) ? bundle.modules(lineNumber + 1) ?? url : url)
  // A bundled frame's line is the bundle's, not its source file's.
  const place = (frame: ProfileNode['callFrame'], source: string) => `${frame.functionName || '(anonymous)'} ${areaOf(source, frame.functionName)}${source === frame.url ? ':' : ' at bundle line '}${frame.lineNumber + 1}`
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parentOf = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id)
  const ours = new Map<string, number>()
  const areasOnStack = new Map<string, number>()
  const areas = new Map<string, number>()
  const functions = new Map<string, number>()
  let totalUs = 0
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)!.callFrame
    const url = sourceOf(frame)
    const us = profile.timeDeltas[i] ?? 0
    totalUs += us
    const area = areaOf(url, frame.functionName)
    areas.set(area, (areas.get(area) ?? 0) + us / 1000)
    const name = url === '' ? area : place(frame, url)
    functions.set(name, (functions.get(name) ?? 0) + us / 1000)
    const onStack = new Set<string>()
    const areasHere = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const caller = byId.get(at)!.callFrame
      const source = sourceOf(caller)
      if (source.includes('/src/')) onStack.add(place(caller, source))
      if (source !== '') areasHere.add(areaOf(source, caller.functionName))
    }
    if (url === '') areasHere.add(area)
    for (const key of onStack) ours.set(key, (ours.get(key) ?? 0) + us / 1000)
    for (const key of areasHere) areasOnStack.set(key, (areasOnStack.get(key) ?? 0) + us / 1000)
  })
  const totalMs = totalUs / 1000
  return { totalMs, byArea: ranked(areas, totalMs, top), byFunction: ranked(functions, totalMs, top), inclusiveOurs: ranked(ours, totalMs, top), inclusiveByArea: ranked(areasOnStack, totalMs, top) }
}
