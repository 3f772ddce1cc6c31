import type { FastifyRequest } from 'fastify'

/** The capabilities this supplier applies when asked (docs/resellers.md, "Capabilities"). */
export const SUPPORTED_CAPABILITIES = ['octo/pricing', 'octo/content'] as const
export type Capability = typeof SUPPORTED_CAPABILITIES[number]

/** The supported capabilities the request's Octo-Capabilities header names, in our order; unknown ones are ignored, as OCTo says. */
export function requestedCapabilities(request: FastifyRequest): Capability[] {
  const raw = request.headers['octo-capabilities']
  const header = Array.isArray(raw) ? raw.join(',') : raw ?? ''
  // A reseller's client sends the same header on every poll: read once, asked for per request several times.
  if (header === lastHeader) return lastCapabilities.slice()
  const named = new Set(header.split(',').map((c) => c.trim().toLowerCase()))
  lastHeader = header
  lastCapabilities = SUPPORTED_CAPABILITIES.filter((c) => named.has(c))
  return lastCapabilities.slice()
}
let lastHeader = ''
let lastCapabilities: Capability[] = []
