import type { FastifyReply } from 'fastify'

/** Adds `field` to the answer's Vary, keeping what others put there (CORS adds Origin, language negotiation Accept-Language). */
export function varyOn(reply: FastifyReply, field: string): void {
  const current = reply.getHeader('Vary')
  if (current === undefined) {
    reply.header('Vary', field)
    return
  }
  const fields = String(current).split(',').map((name) => name.trim()).filter(Boolean)
  if (fields.some((name) => name === '*' || name.toLowerCase() === field.toLowerCase())) return
  reply.header('Vary', [...fields, field].join(', '))
}
