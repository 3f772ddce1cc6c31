import { readProcessMemory } from './process-memory.ts'

/** How often the service's resident size is read while the export streams. */
const RSS_SAMPLE_MS = 10

export interface ExportFigures {
  /** Lines after the header (RFC 4180 records; the seeded fields hold no line breaks). */
  rows: number
  bytes: number
  /** From the request to the last byte. */
  seconds: number
  /** The service's resident size just before the request; null where /proc is not available. */
  rssBeforeBytes: number | null
  /** The highest resident size seen while streaming, over the size before. */
  rssGrowthBytes: number | null
}

/**
 * One CSV export, read as a client saving it would (chunk by chunk, nothing kept), while the
 * service's RSS is sampled: a service that builds the whole file in memory shows it here.
 */
export async function measureExport(url: string, key: string, servicePid: number): Promise<ExportFigures> {
  const rss = () => readProcessMemory(servicePid)?.rssBytes ?? null
  const before = rss()
  let highest = before
  const sampler = setInterval(() => {
    const now = rss()
    if (now !== null && (highest === null || now > highest)) highest = now
  }, RSS_SAMPLE_MS)
  const startedAt = performance.now()
  try {
    const answer = await fetch(url, { headers: { authorization: `Bearer ${key}` } })
    if (!answer.ok || !answer.body) throw new Error(`GET ${url} answered ${answer.status}: ${(await answer.text()).slice(0, 300)}`)
    let bytes = 0
    let lines = 0
    for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength
      for (let i = 0; i < chunk.length; i++) if (chunk[i] === 0x0a) lines++
    }
    const seconds = (performance.now() - startedAt) / 1000
    const after = rss()
    if (after !== null && (highest === null || after > highest)) highest = after
    return { rows: Math.max(0, lines - 1), bytes, seconds, rssBeforeBytes: before, rssGrowthBytes: before === null || highest === null ? null : highest - before }
  } finally {
    clearInterval(sampler)
  }
}
