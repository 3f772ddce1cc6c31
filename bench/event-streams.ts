import { once } from 'node:events'
import { connect, type Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { STREAM_BEHIND_LIMIT_MS, STREAM_LIMITS, STREAM_POLL_MS } from '../src/admin/event-stream.ts'
import type { RunContext } from './database-run.ts'
import type { BenchDatabase } from './databases.ts'
import type { StartedProcess } from './node-process.ts'
import { createApiKey } from './operator-reads.ts'
import { readProcessMemory, resetPeakMemory } from './process-memory.ts'
import type { HealthzLatency, StreamResults } from './results-model.ts'
import { startService } from './service.ts'
import { percentile } from './statistics.ts'
import { connectionQueues } from './socket-queues.ts'
import { operatorCall } from './webhook-endpoints.ts'

type NewDatabase = (name: string) => Promise<BenchDatabase>

/** Contact messages made before the streams open: each stream has all of them to send, far more than a socket's buffers hold. */
const MESSAGES = 2_000
/** 4,990 three-byte characters: a contact message of about 15 kB, near the 5,000 characters a guest may send. */
const MESSAGE_TEXT = '€'.repeat(4_990)
/** Guests sending messages at once. */
const SENDERS = 8
/** GET /healthz is asked this many times, one after the other, in each phase. */
const HEALTHZ_REQUESTS = 50
/** The node writes its streams once a tick: queues unchanged over two ticks mean it has stopped writing them. */
const STEADY_MS = STREAM_POLL_MS * 2
const CLOSE_POLL_MS = 20
const CLOSE_TIMEOUT_MS = 10_000

async function contactMessages(base: string, count: number): Promise<void> {
  let next = 0
  const guest = async () => {
    for (let i = next++; i < count; i = next++) {
      const answer = await fetch(`${base}/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: `${i} ${MESSAGE_TEXT}`, name: 'Ana Silva', email: 'ana@example.pt' }),
      })
      const body = await answer.text()
      if (!answer.ok) throw new Error(`POST /contact answered ${answer.status}: ${body.slice(0, 300)}`)
    }
  }
  await Promise.all(Array.from({ length: SENDERS }, guest))
}

/** GET /stream on a raw socket that takes the answer's head and then reads nothing more, as a stalled browser would. */
async function stalledStream(service: StartedProcess, key: string, lastEventId: string): Promise<{ status: number, socket: Socket }> {
  const url = new URL(service.baseUrl.replace('/api/', '/admin/api/'))
  const socket = connect(Number(url.port), '127.0.0.1')
  socket.write(`GET ${url.pathname}/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nAccept: text/event-stream\r\nLast-Event-ID: ${lastEventId}\r\n\r\n`)
  const [head] = await once(socket, 'data') as [Buffer]
  socket.pause()
  return { status: Number(head.toString('latin1').split(' ')[1]), socket }
}

async function healthzLatency(service: StartedProcess): Promise<HealthzLatency> {
  const url = new URL('/healthz', service.baseUrl)
  const times: number[] = []
  for (let i = 0; i < HEALTHZ_REQUESTS; i++) {
    const began = performance.now()
    const answer = await fetch(url)
    await answer.arrayBuffer()
    if (answer.status !== 200) throw new Error(`GET /healthz answered ${answer.status}`)
    times.push(performance.now() - began)
  }
  return { requests: times.length, p50: percentile(times, 0.5), p99: percentile(times, 0.99), max: Math.max(...times) }
}

/** Waits until the bytes queued toward the streams' readers stop changing over two of the node's ticks: it has filled every socket it may. */
async function untilStalled(nodePort: number, clientPorts: Set<number>, openedAt: number): Promise<StreamResults['stalled']> {
  let previous = connectionQueues(nodePort, clientPorts)
  if (previous === null) return null
  for (;;) {
    await sleep(STEADY_MS)
    const current = connectionQueues(nodePort, clientPorts)!
    const seconds = (performance.now() - openedAt) / 1000
    if (current.queuedBytes > 0 && current.queuedBytes === previous.queuedBytes) return { ...current, seconds }
    if (seconds * 1000 > STREAM_BEHIND_LIMIT_MS) throw new Error(`the streams' queues still moved ${seconds.toFixed(0)} s after they opened`)
    previous = current
  }
}

/** Waits until the kernel holds none of the closed streams' connections. */
async function untilClosed(nodePort: number, clientPorts: Set<number>): Promise<void> {
  const began = performance.now()
  for (let q = connectionQueues(nodePort, clientPorts); q !== null && (q.established > 0 || q.queuedBytes > 0); q = connectionQueues(nodePort, clientPorts)) {
    if (performance.now() - began > CLOSE_TIMEOUT_MS) throw new Error(`${q.established} streams still open ${CLOSE_TIMEOUT_MS / 1000} s after they were closed`)
    await sleep(CLOSE_POLL_MS)
  }
}

/**
 * Issue 24, item 7: a node holding as many event streams as it serves, none of them read, each
 * opened from the first of 2,000 contact messages of about 15 kB (which any guest can send), so
 * every stream has 30 MB to send. API keys of the viewer role, as many as the per-key cap needs,
 * are made through the operator API. The node's RSS and GET /healthz are read before, while the
 * streams stay stalled, and after the bench closes them.
 */
export async function measureStreams(newDatabase: NewDatabase, ctx: RunContext): Promise<StreamResults> {
  const streams = STREAM_LIMITS.perNode
  const keyCount = Math.ceil(streams / STREAM_LIMITS.perCredential)
  const database = await newDatabase('streams')
  let service: StartedProcess | undefined
  const sockets: Socket[] = []
  try {
    service = await startService({ databaseUrl: database.url, catalogPath: ctx.catalogPath(ctx.settings.growth.small.tours), logDir: ctx.workDir })
    const node = service
    const started = node.peakRssBytes()
    const nodePort = Number(new URL(node.baseUrl).port)
    ctx.progress(`streams: ${MESSAGES.toLocaleString('en')} contact messages of about 15 kB`)
    const making = performance.now()
    await contactMessages(node.baseUrl, MESSAGES)
    const makeSeconds = (performance.now() - making) / 1000

    const manager = await createApiKey(database, ctx.now)
    // One key more than the streams need, for the stream past the node's cap.
    const keys: string[] = []
    for (let i = 0; i <= keyCount; i++) keys.push((await operatorCall(node, manager, 'POST', '/api-keys', { name: `stream reader ${i}`, role: 'viewer' })).secret)
    const { events: [first] } = await operatorCall(node, keys[0], 'GET', '/events?limit=1')
    const eventBytes = Buffer.byteLength(JSON.stringify(first))

    const before = await healthzLatency(node)
    const peakBeforeStreams = node.peakRssBytes()
    const beforeStreams = readProcessMemory(node.pid)?.rssBytes ?? null
    // From here VmHWM is the peak with the streams open.
    resetPeakMemory(node.pid)
    ctx.progress(`streams: opening ${streams} streams from the first event with ${keyCount} keys, none of them read`)
    const openedAt = performance.now()
    const opened = await Promise.all(Array.from({ length: streams }, (_, i) => stalledStream(node, keys[i % keyCount], first.id)))
    sockets.push(...opened.map((o) => o.socket))
    const refused = opened.filter((o) => o.status !== 200).map((o) => o.status)
    if (refused.length > 0) throw new Error(`${refused.length} of ${streams} streams were refused: ${refused.join(', ')}`)
    const beyond = await stalledStream(node, keys[keyCount], first.id)
    beyond.socket.destroy()
    const clientPorts = new Set(sockets.map((s) => s.localPort!))

    ctx.progress(`streams: GET /healthz while ${streams} streams stall`)
    const withStreams = await healthzLatency(node)
    const stalled = await untilStalled(nodePort, clientPorts, openedAt)
    const peakWithStreams = node.peakRssBytes()

    for (const socket of sockets) socket.destroy()
    await untilClosed(nodePort, clientPorts)
    const afterClose = await healthzLatency(node)
    return {
      streams,
      keys: keyCount,
      messages: MESSAGES,
      eventBytes,
      makeSeconds,
      beyondCapStatus: beyond.status,
      rssBytes: { started, beforeStreams, peakBeforeStreams, peakWithStreams, afterClose: readProcessMemory(node.pid)?.rssBytes ?? null },
      stalled,
      healthz: { before, withStreams, afterClose },
    }
  } finally {
    for (const socket of sockets) socket.destroy()
    await service?.stop()
    await database.drop()
  }
}
