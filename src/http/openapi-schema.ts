import { componentName } from '../schemas/named.ts'

export type JsonSchema = Record<string, unknown>

const INT32 = 2 ** 31

/**
 * What client generators need and JSON Schema leaves implicit, derived from the schema
 * itself so it can never disagree with validation: the `type` of an enum (from its values),
 * and the `format` of an integer (int32 when its bounds fit in 32 bits, else int64, which
 * holds every integer JavaScript represents exactly).
 */
function withImpliedKeywords(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.enum) && schema.type === undefined) {
    const types = new Set(schema.enum.map((value) => Number.isInteger(value) ? 'integer' : value === null ? 'null' : typeof value))
    if (types.size === 1) return { type: [...types][0], ...schema }
  }
  if (schema.type === 'integer' && schema.format === undefined) {
    const fits32 = typeof schema.minimum === 'number' && schema.minimum >= -INT32 && typeof schema.maximum === 'number' && schema.maximum < INT32
    return { ...schema, format: fits32 ? 'int32' : 'int64' }
  }
  return schema
}

/** Copies a schema for the document, writing every named sub-schema as a $ref to its component. */
export function toDocumentSchema(schema: unknown, components: Record<string, JsonSchema>, isRoot = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => toDocumentSchema(s, components))
  if (schema === null || typeof schema !== 'object') return schema
  const name = componentName(schema)
  if (name && !isRoot) {
    if (!(name in components)) {
      components[name] = {}
      components[name] = toDocumentSchema(schema, components, true) as JsonSchema
    }
    return { $ref: `#/components/schemas/${name}` }
  }
  return withImpliedKeywords(Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === 'properties'
    ? Object.fromEntries(Object.entries(v as object).map(([p, s]) => [p, toDocumentSchema(s, components)]))
    : k === 'examples' || k === 'default' || k === 'const' || k === 'enum' ? v
      : toDocumentSchema(v, components)])))
}

/** The first example a schema gives, for the media types and parameters that use it (Dredd, Prism and mock servers read those). */
export function exampleOf(schema: unknown): unknown {
  const examples = (schema as { examples?: unknown[] } | undefined)?.examples
  return Array.isArray(examples) ? examples[0] : undefined
}
