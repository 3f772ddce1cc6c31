import type { OperatorClient } from '../helpers/operator.ts'

// GET {admin_base}/stream read as a browser reads it, for the stream tests.

export interface StreamMessage { id: string, data: any }

/** How long a test waits for a stream to end before it fails: the hub rechecks credentials every 2 s. */
export const STREAM_END_TIMEOUT_MS = 10_000

/** An open stream, read message by message. */
export async function openStream(client: OperatorClient, headers: Record<string, string> = {}) {
  const controller = new AbortController()
  const sent: Record<string, string> = { accept: 'text/event-stream', ...headers }
  const credential = (client as any).credential as { cookie?: string, bearer?: string }
  if (credential.cookie) sent.cookie = credential.cookie
  if (credential.bearer) sent.authorization = `Bearer ${credential.bearer}`
  const response = await fetch(`${client.base}/stream`, { headers: sent, signal: controller.signal })
  const problem: any = response.ok ? null : await response.json()
  const reader = response.ok ? response.body!.pipeThrough(new TextDecoderStream()).getReader() : null
  let buffer = ''
  let ended = false
  /** The next message (comments and the retry line are skipped); null when the stream has ended. */
  async function next(): Promise<StreamMessage | null> {
    for (;;) {
      const boundary = buffer.indexOf('\n\n')
      if (boundary >= 0) {
        const block = buffer.slice(0, boundary)
        buffer = buffer.slice(boundary + 2)
        const fields = block.split('\n')
        const id = fields.find((line) => line.startsWith('id: '))?.slice(4)
        const data = fields.find((line) => line.startsWith('data: '))?.slice(6)
        if (id !== undefined && data !== undefined) return { id, data: JSON.parse(data) }
        continue
      }
      if (ended || !reader) return null
      const chunk = await reader.read()
      if (chunk.done) ended = true
      else buffer += chunk.value
    }
  }
  /** The next message, or null once the stream has ended; fails the test if neither comes in time. */
  async function nextWithin(ms = STREAM_END_TIMEOUT_MS): Promise<StreamMessage | null> {
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`the stream neither sent nor ended within ${ms} ms`)), ms) })
    try {
      return await Promise.race([next(), late])
    } finally {
      clearTimeout(timer)
    }
  }
  return { response, problem, next, nextWithin, close: () => controller.abort() }
}
