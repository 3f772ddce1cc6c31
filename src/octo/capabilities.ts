import type { FastifyRequest } from 'fastify'

/** The capabilities this supplier applies when asked (docs/resellers.md, "Capabilities"). */
export const SUPPORTED_CAPABILITIES = ['octo/pricing', 'octo/content'] as const
export type Capability = typeof SUPPORTED_CAPABILITIES[number]

/** The supported capabilities the request's Octo-Capabilities header names, in our order; unknown ones are ignored, as OCTo says. */
export function requestedCapabilities(request: FastifyRequest): Capability[] {
  const header = request.headers['octo-capabilities']
  const named = new Set((Array.isArray(header) ? header.join(',') : header ?? '').split(',').map((c) => c.trim().toLowerCase()))
  return SUPPORTED_CAPABILITIES.filter((c) => named.has(c))
}
