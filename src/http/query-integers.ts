import type { FastifyRequest } from 'fastify'

const STRICT_INTEGER = /^(0|[1-9][0-9]{0,14})$/

/**
 * Query values arrive as strings. Integer parameters accept only plain decimal digits;
 * anything else ("0x7", "1e1", " 7", "1.5") stays a string and fails validation by name.
 * Ajv's own coercion is off because it would accept all of those.
 */
type QuerySchema = { properties?: Record<string, { type?: string }> } | undefined

export function hasIntegerQuery(schema: unknown): boolean {
  return Object.values((schema as QuerySchema)?.properties ?? {}).some((property) => property.type === 'integer')
}

export async function parseStrictQueryIntegers(request: FastifyRequest): Promise<void> {
  const schema = request.routeOptions.schema?.querystring as QuerySchema
  if (!schema?.properties) return
  const query = request.query as Record<string, unknown>
  for (const [name, property] of Object.entries(schema.properties)) {
    const value = query[name]
    if (property.type === 'integer' && typeof value === 'string' && STRICT_INTEGER.test(value)) query[name] = Number(value)
  }
}
