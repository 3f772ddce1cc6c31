import { gzipSync } from 'node:zlib'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { sendSerialized } from './serialized-answer.ts'
import { varyOn } from './vary.ts'

/**
 * Each kept body's gzip, made once and dropped with it: a body kept for reuse
 * (src/services/availability-answers.ts) is the same Buffer on every hit.
 */
const gzipped = new WeakMap<Buffer, Buffer>()

/** Whether Accept-Encoding (RFC 9110 §12.5.3) takes gzip: named (or x-gzip) with a weight above 0, else `*` above 0. */
export function acceptsGzip(header: string | undefined): boolean {
  // A client sends the same header with every request: read once.
  if (header === lastAcceptEncoding) return lastAcceptsGzip
  lastAcceptsGzip = readsGzip(header)
  lastAcceptEncoding = header
  return lastAcceptsGzip
}
let lastAcceptEncoding: string | undefined
let lastAcceptsGzip = false

function readsGzip(header: string | undefined): boolean {
  let gzip: number | undefined
  let any: number | undefined
  for (const element of (header ?? '').split(',')) {
    const [coding, ...parameters] = element.split(';').map((part) => part.trim().toLowerCase())
    const weight = parameters.find((p) => p.startsWith('q='))
    const q = weight === undefined ? 1 : Number(weight.slice(2))
    if (coding === 'gzip' || coding === 'x-gzip') gzip = q
    else if (coding === '*') any = q
  }
  const q = gzip ?? any ?? 0
  return Number.isFinite(q) && q > 0
}

/**
 * Sends a kept JSON body, gzipped when the client takes gzip. A reseller polls months of
 * availability every few minutes (docs/resellers.md, "Polling"): a 90-day calendar is about
 * 20 KB, some 500 bytes gzipped: each poll moves that much less through both sides' sockets.
 */
export function sendKeptJson(request: FastifyRequest, reply: FastifyReply, body: Buffer): FastifyReply {
  varyOn(reply, 'Accept-Encoding')
  if (!acceptsGzip(request.headers['accept-encoding'])) return sendSerialized(reply, body)
  let compressed = gzipped.get(body)
  if (!compressed) {
    compressed = gzipSync(body)
    gzipped.set(body, compressed)
  }
  reply.header('Content-Encoding', 'gzip')
  return sendSerialized(reply, compressed)
}
